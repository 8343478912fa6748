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
#include "quarry/index/index_writer.h"
#include "quarry/input/article.h"
#include "quarry/text/analyzer.h"

namespace quarry::detail {

// Not thread-safe: one thread at a time.
class DatabaseWriter {
 public:
  // Opens the database at config.db_path, creating it when missing, in
  // config.language (see IndexConfig). Waits up to config.lock_wait for
  // Xapian's lock, then throws IndexLockedError; throws ConfigError for a
  // language conflict, IndexError for anything else.
  explicit DatabaseWriter(const IndexConfig& config);
  ~DatabaseWriter();  // does not commit: call commit()
  DatabaseWriter(const DatabaseWriter&) = delete;
  DatabaseWriter& operator=(const DatabaseWriter&) = delete;

  // As IndexWriter's.
  Upsert upsert(const Article& article, const std::string& origin);
  bool remove(const std::string& id);
  // With `ids`, appends the ids of the articles deleted.
  std::size_t delete_unseen(const std::string& origin, std::vector<std::string>* ids = nullptr);
  std::size_t count_unseen(const std::string& origin);
  std::size_t replace_synonyms(const std::vector<std::vector<std::string>>& groups);

  // Forgets which articles were upserted: a sweep that starts now deletes
  // those of its origin that it does not meet again (see delete_unseen).
  void forget_upserted() { upserted_.clear(); }

  // The text of the articles upserted since the last commit, in bytes.
  std::uintmax_t uncommitted_text_bytes() const { return uncommitted_text_bytes_; }
  // Makes everything so far durable, once room for it is taken on disk
  // (see reserve_commit_room). Throws IndexError.
  void commit();

  // The analyzer of the index's main language.
  const Analyzer& analyzer() const { return analyzers_.main(); }
  // The articles upserted so far by language.
  const LanguageCounts& language_counts() const { return analyzers_.counts(); }
  const std::string& path() const { return path_; }
  // For writing story keys beside the articles.
  Xapian::WritableDatabase& database() { return db_; }

  // The keys of the stories that lost an article, replaced or deleted,
  // since the last call: their other members are to be linked again.
  std::vector<std::string> take_left_stories();

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
