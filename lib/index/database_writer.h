// One Xapian database of an index open for writing: its articles, their
// vocabulary, its synonyms. The building block of IndexWriter and of each
// shard of a shard set; it takes no lock of its own and links no stories,
// which its owner does for the index as a whole.
#ifndef QUARRY_LIB_INDEX_DATABASE_WRITER_H_
#define QUARRY_LIB_INDEX_DATABASE_WRITER_H_

#include <xapian.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "lib/index/article_store.h"
#include "lib/index/language_analyzers.h"
#include "lib/index/writable_index.h"
#include "quarry/index/index_writer.h"
#include "quarry/input/article.h"
#include "quarry/text/analyzer.h"

namespace quarry::detail {

// Not thread-safe: one thread at a time.
class DatabaseWriter final : public WritableIndex {
 public:
  // Opens the database at config.db_path, creating it when missing, in
  // config.language (see IndexConfig). Waits up to config.lock_wait for
  // Xapian's lock, then throws IndexLockedError; throws ConfigError for a
  // language conflict, IndexError for anything else.
  explicit DatabaseWriter(const IndexConfig& config);
  ~DatabaseWriter() override;  // does not commit: call commit()

  // As WritableIndex's.
  Upsert upsert(const Article& article, const std::string& origin) override;
  bool remove(const std::string& id) override;
  std::size_t delete_unseen(const std::string& origin, std::vector<std::string>* ids) override;
  std::size_t count_unseen(const std::string& origin) override;
  std::size_t replace_synonyms(const std::vector<std::vector<std::string>>& groups) override;
  void forget_upserted() override { upserted_.clear(); }
  std::vector<std::string> take_left_stories() override;
  void commit() override;
  // One database has nothing to sum up: commits.
  void finish() override { commit(); }
  void reserve_room_for_close() override;
  std::vector<OpenDatabase> databases() override { return {{path_, &db_}}; }
  const Analyzer& analyzer() const override { return analyzers_.main(); }
  LanguageCounts language_counts() const override { return analyzers_.counts(); }

  const std::string& path() const { return path_; }
  // For writing story keys beside the articles.
  Xapian::WritableDatabase& database() { return db_; }

 private:
  // Before a stored article is replaced or deleted: takes its words out of
  // the vocabulary, and notes the story it leaves.
  void forget(const Xapian::Document& doc);

  std::string path_;
  Xapian::WritableDatabase db_;
  std::string language_;  // asked of the index (kLanguageKey)
  LanguageAnalyzers analyzers_;
  // Compresses with the dictionary the index was built with, if any.
  ArticleStore store_;
  std::unordered_set<Xapian::docid> upserted_;
  std::vector<std::string> left_stories_;
  // Of the articles upserted since the last commit: what it is to make room for.
  std::uintmax_t uncommitted_text_bytes_ = 0;
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_DATABASE_WRITER_H_
