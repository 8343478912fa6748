// What an IndexWriter writes its articles through: one database
// (DatabaseWriter) or a shard set (ShardSetWriter), chosen once as it
// opens. Either takes no lock of its own and links no stories, which the
// IndexWriter does for the index as a whole.
#ifndef QUARRY_LIB_INDEX_WRITABLE_INDEX_H_
#define QUARRY_LIB_INDEX_WRITABLE_INDEX_H_

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "lib/index/story_keys.h"
#include "quarry/index/index_writer.h"
#include "quarry/input/article.h"
#include "quarry/text/analyzer.h"

namespace quarry::detail {

// Not thread-safe: one thread at a time.
class WritableIndex {
 public:
  WritableIndex() = default;
  virtual ~WritableIndex() = default;  // does not commit: call commit()
  WritableIndex(const WritableIndex&) = delete;
  WritableIndex& operator=(const WritableIndex&) = delete;

  // As IndexWriter's.
  virtual Upsert upsert(const Article& article, const std::string& origin) = 0;
  virtual bool remove(const std::string& id) = 0;
  // As IndexWriter's; with `ids`, appends the ids of the articles deleted.
  virtual std::size_t delete_unseen(const std::string& origin, std::vector<std::string>* ids) = 0;
  virtual std::size_t count_unseen(const std::string& origin) = 0;
  virtual std::size_t replace_synonyms(const std::vector<std::vector<std::string>>& groups) = 0;

  // Forgets which articles were upserted: a sweep that starts now deletes
  // those of its origin that it does not meet again (see delete_unseen).
  virtual void forget_upserted() = 0;
  // The keys of the stories that lost an article, replaced or deleted,
  // since the last call: their other members are to be linked again.
  virtual std::vector<std::string> take_left_stories() = 0;

  // Makes everything so far durable, once room for it is taken on disk
  // (see reserve_commit_room). Throws IndexError.
  virtual void commit() = 0;
  // Commits, then brings up to date what sums up the whole index (a shard
  // set's lexicon), which commits between them leave to the end. Throws
  // IndexError.
  virtual void finish() = 0;
  // Takes room on disk for the commit Xapian makes, as the writer closes,
  // of what it holds uncommitted (see commit_room.h). Throws IndexError
  // when the disk has none.
  virtual void reserve_room_for_close() = 0;

  // The databases written, searched as one as a searcher of the index
  // searches them; the first holds the index's metadata.
  virtual std::vector<OpenDatabase> databases() = 0;
  // The analyzer of the index's main language.
  virtual const Analyzer& analyzer() const = 0;
  // The articles upserted so far by language.
  virtual LanguageCounts language_counts() const = 0;
};

// Opens the index at config.db_path, as a shard set when is_shard_set_config
// says so, else as one database. Throws what DatabaseWriter or
// ShardSetWriter throws.
std::unique_ptr<WritableIndex> open_writable_index(const IndexConfig& config);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_WRITABLE_INDEX_H_
