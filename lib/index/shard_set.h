// Writing an index split over shards: a folder holding shard-0 … shard-N-1,
// the lexicon and the stub file XAPIANDB that names them (lexicon first), so
// that Xapian, and Quarry's searcher, open the folder as one database.
//
// Each article lives in the shard a hash of its id picks, so re-indexing it
// always finds it there. Each shard is an index of its own (articles,
// spelling data, language); the lexicon holds no articles, only the
// language, the synonyms and the spelling data of all the shards summed,
// because Xapian's remote protocol carries neither spelling nor synonyms: a
// searcher of remote shards reads them from a local copy of the lexicon.
#ifndef QUARRY_LIB_INDEX_SHARD_SET_H_
#define QUARRY_LIB_INDEX_SHARD_SET_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lib/index/database_writer.h"
#include "lib/index/story_keys.h"
#include "lib/index/writable_index.h"
#include "quarry/index/index_writer.h"
#include "quarry/input/article.h"

namespace quarry::detail {

inline constexpr char kLexiconName[] = "lexicon";

// "shard-K".
std::string shard_name(std::size_t index);

// The shard of `shards` an article id belongs in: stable across runs,
// machines and versions (XXH3).
std::size_t shard_of(std::string_view id, std::size_t shards);

// Whether `db_path` is a folder holding a stub file, as a shard set does.
bool is_shard_set(const std::string& db_path);

// The databases of the shard set at `folder`, by their names in it, in the
// order of its stub file (the lexicon first). Throws IndexError when the
// stub does not describe a shard set quarry-index wrote.
std::vector<std::string> shard_set_parts(const std::string& folder);

// The shards of an index open for writing. Takes no lock and links no
// stories: IndexWriter does, for the set as a whole. Not thread-safe.
class ShardSetWriter final : public WritableIndex {
 public:
  // Opens the shard set at config.db_path, or creates it with config.shards
  // shards when db_path holds no index. Throws ConfigError when
  // config.shards asks an existing index for another layout, IndexError when
  // its stub file does not describe a shard set this program wrote, and
  // what DatabaseWriter throws.
  explicit ShardSetWriter(const IndexConfig& config);
  ~ShardSetWriter() override;  // does not commit: call finish()

  // As WritableIndex's, in the article's shard.
  Upsert upsert(const Article& article, const std::string& origin) override;
  bool remove(const std::string& id) override;
  // As WritableIndex's, of every shard.
  std::size_t delete_unseen(const std::string& origin, std::vector<std::string>* ids) override;
  std::size_t count_unseen(const std::string& origin) override;
  void forget_upserted() override;
  std::vector<std::string> take_left_stories() override;
  void commit() override;
  // Stores the synonyms in the lexicon.
  std::size_t replace_synonyms(const std::vector<std::vector<std::string>>& groups) override;
  // Commits every shard, then brings the lexicon's spelling data up to date
  // with theirs.
  void finish() override;
  // Takes the room of a commit holding no text in every shard.
  void reserve_room_for_close() override;

  // The shards, in the order of the stub file: searched as one, they
  // number their documents as a searcher of the set does.
  std::vector<OpenDatabase> databases() override;
  // The analyzer of the first shard, which all of them share.
  const Analyzer& analyzer() const override { return shards_.front()->analyzer(); }
  // The articles upserted so far in every shard, by language.
  LanguageCounts language_counts() const override {
    LanguageCounts counts;
    for (const auto& shard : shards_) add_counts(counts, shard->language_counts());
    return counts;
  }

 private:
  IndexConfig config_;
  std::vector<std::unique_ptr<DatabaseWriter>> shards_;
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_SHARD_SET_H_
