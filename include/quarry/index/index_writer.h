// Building and updating an index. Indexing is incremental: an article whose
// content is unchanged is skipped, a changed one replaced, and an article that
// has vanished from a folder or corpus that is indexed again is deleted.
#ifndef QUARRY_INDEX_INDEX_WRITER_H_
#define QUARRY_INDEX_INDEX_WRITER_H_

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "quarry/input/article.h"
#include "quarry/input/article_reader.h"
#include "quarry/text/analyzer.h"

namespace quarry {

struct IndexConfig {
  std::string db_path;
  // The language of the articles that do not say their own (a stemmer's
  // name), or "auto": each is identified from its text, and those that
  // cannot be are analyzed in English. Used when the index is created; an
  // existing index keeps its own, and asking for another one is a
  // ConfigError. Empty: the index's own, or "auto" for a new index.
  std::string language;
  // Articles per transaction: an interrupted run loses at most this many.
  std::size_t commit_every = 5000;
  // Writers building a new index at once, one part each, merged at the end
  // (0: the cores available). Updates to an existing index use one writer.
  std::size_t threads = 0;
  // Set to true (from a signal handler, say) to stop after the current
  // article; what was done is committed. Linking stories stops too, and is
  // left to the next run.
  const std::atomic<bool>* cancel = nullptr;
  // How long to wait for another quarry-index or IndexWriter working on
  // the same index before giving up with IndexLockedError (0: give up at
  // once).
  std::chrono::duration<double> lock_wait{0};
  // A synonym list to store in the index, replacing any stored before: one
  // group of equivalent words or phrases per line, separated by commas;
  // '#' starts a comment.
  std::string synonyms_file;
  // Split a new index over this many databases, each article placed by a
  // hash of its id: db_path becomes a folder of shard-0 … shard-N-1, a
  // lexicon (the spelling data and synonyms of them all) and a Xapian stub
  // file, XAPIANDB, naming them, which searchers open. 0: an existing index
  // stays as it is (one database, or its shards), a new one is one database.
  // Asking an existing index for another layout is a ConfigError.
  std::size_t shards = 0;
  // Read the inputs as a caller that follows their changes does (see
  // ArticleSink::follows_changes): a file still open for writing is passed
  // over, its articles kept, to be read once closed, and a file gone before
  // it is read is no problem. For a live index, which is told of both.
  bool follow_changes = false;
};

// What a run is doing, in the order it does it. A run that updates an index
// in place goes from reading to committing and linking; a new index's build
// from reading to finishing the parts, linking and merging.
enum class IndexStep {
  kReading,         // the inputs, article by article
  kFinishingParts,  // a new index's writers write the articles they still hold
  kCommitting,      // what was written is made durable
  kLinkingStories,  // the articles added or changed are grouped into stories
  kMerging,         // a new index's parts become one database
};

// Of the articles a run added or updated in one language: how many, and how
// many of them had their language identified from their text rather than
// told by the input.
struct LanguageCount {
  std::size_t articles = 0;
  std::size_t identified = 0;

  bool operator==(const LanguageCount&) const = default;
};

// By language, as the stemmers name them ("french").
using LanguageCounts = std::map<std::string, LanguageCount>;

struct IndexReport {
  std::size_t added = 0;
  std::size_t updated = 0;
  std::size_t unchanged = 0;
  std::size_t deleted = 0;
  std::size_t skipped = 0;
  std::size_t repaired = 0;
  // Of those skipped and repaired, the ones an earlier run reported (the
  // same problem at the same place of a file unchanged since): they are not
  // told to the observer again.
  std::size_t skipped_as_before = 0;
  std::size_t repaired_as_before = 0;
  std::size_t synonym_groups = 0;
  // The articles added or updated, by the language they are analyzed in.
  LanguageCounts languages;
  // The articles not met again in an input that could not be read whole (a
  // file cut short, corrupt, unreadable, or with a line or file skipped),
  // by the input given: they are kept, not deleted, until a run reads it
  // through.
  std::map<std::string, std::size_t> kept;
  bool cancelled = false;
  double seconds = 0;
  // Paces progress: the estimated bytes of all the inputs, uncompressed,
  // and the bytes of the articles read so far (their text, without the
  // JSON around it, so it stays a little short of the estimate).
  std::uintmax_t input_bytes = 0;
  std::uintmax_t bytes_read = 0;
  // The step under way: past reading, all the input was read, unless the
  // run was cancelled.
  IndexStep step = IndexStep::kReading;
  // Files in the folders given that are of no kind Quarry reads, by
  // extension (".md"; "" for none), left out.
  std::map<std::string, std::size_t> other_files;

  // While stories are linked: how far, in steps of an article, of how
  // many (each article counts twice, for its copies and for its story).
  std::size_t linked = 0;
  std::size_t to_link = 0;

  std::size_t seen() const { return added + updated + unchanged; }
};

enum class Upsert { kAdded, kUpdated, kUnchanged };

class IndexWriter;

// Told about an index_paths run as it goes, on the thread that called
// index_paths, one call at a time: an observer need not be thread-safe.
// on_progress comes every thousand articles read, as each later step
// begins (see IndexReport::step), and now and then while stories are
// linked.
class IndexObserver {
 public:
  virtual ~IndexObserver() = default;
  // Each problem no earlier run reported (see IndexReport::skipped_as_before).
  virtual void on_problem(const ReadProblem& /*problem*/) {}
  virtual void on_progress(const IndexReport& /*so_far*/) {}
  // Each article written to an index that existed before the run, as it
  // is written, with what was done (a new index's build tells none: none
  // of its articles is new to anyone yet).
  virtual void on_upserted(const std::string& /*id*/, Upsert /*done*/) {}
  // Of a run that writes into an index that existed before it: with the
  // run's writer, just before each commit that makes articles durable (every
  // IndexConfig::commit_every articles, whenever the writer commits by
  // itself, at the end, and as the writer closes when the run ends by an
  // exception), so that what the observer writes through it
  // (IndexWriter::set_note) is made durable together with the articles
  // upserted so far, never apart. What it throws ends the run, except as
  // the writer closes, where it is ignored.
  virtual void before_run_commit(IndexWriter& /*writer*/) {}
};

namespace detail {
struct IndexWriterAccess;
}  // namespace detail

// The index open for writing: one database, or a shard set (see
// IndexConfig::shards). The one way an index is written, quarry-index's
// runs included (see index_paths): the writer takes the index's write lock,
// as a run does, and links stories when it commits.
//
// Not thread-safe: use one writer from one thread at a time. Only one
// writer, in any process, has an index open at once.
class IndexWriter {
 public:
  // Opens the index at config.db_path, creating it when missing (with
  // config.shards shards when that is not 0), after merging into place what
  // a killed first build of quarry-index had committed. Holds the index's
  // write lock while it lives: waits up to config.lock_wait while another
  // writer or quarry-index holds it (or until *config.cancel turns true),
  // then throws IndexLockedError. Throws ConfigError for an unknown
  // language, a language or shard count at odds with the index, or a
  // db_path that is a file or a folder of other files; IndexError for
  // anything else.
  explicit IndexWriter(const IndexConfig& config);
  ~IndexWriter();  // does not commit: call commit()
  IndexWriter(IndexWriter&&) noexcept;
  IndexWriter& operator=(IndexWriter&&) noexcept;

  // Adds or replaces the article with this id; `origin` names the folder or
  // corpus it was read from, so that a later sweep of that origin can find
  // articles that have gone.
  Upsert upsert(const Article& article, const std::string& origin);

  // Deletes the article with this id, whatever its origin. Returns false
  // when the index holds none. The other articles of its story are linked
  // again at the next commit.
  bool remove(const std::string& id);

  // Deletes the articles of `origin` that were not upserted since the
  // writer was opened. Returns how many.
  std::size_t delete_unseen(const std::string& origin);

  // How many articles of `origin` delete_unseen would delete now, deleting
  // none: those of an origin that could not be read whole are kept.
  std::size_t count_unseen(const std::string& origin);

  // Replaces the index's synonyms: each group's members become
  // equivalent. Members are analyzed as queries are. Returns the number of
  // groups stored.
  std::size_t replace_synonyms(const std::vector<std::vector<std::string>>& groups);

  // A note kept in the index beside its articles, under a name of the
  // caller's (any string): written in the current transaction, so that the
  // next commit makes it durable together with the articles written since
  // the last one. note() reads what was set, committed or not; "" for a
  // note never set. set_note with "" removes the note. Throws IndexError.
  void set_note(const std::string& key, const std::string& value);
  std::string note(const std::string& key) const;

  // Makes everything so far durable, then links the stories of the
  // articles added or changed since the last commit, and of the stories
  // that lost or changed an article, and commits their keys. The articles
  // to link are recorded with them: when the process is killed, or
  // *config.cancel turns true while linking (which then stops at once),
  // the next commit of any writer links them. Throws IndexError.
  void commit();

  // The analyzer of the index's main language.
  const Analyzer& analyzer() const;

  // The articles added or updated through this writer, by language.
  LanguageCounts language_counts() const;

 private:
  friend struct detail::IndexWriterAccess;
  struct Impl;
  explicit IndexWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Reads a synonym list (see IndexConfig::synonyms_file). Throws InputError
// when the file cannot be read.
std::vector<std::vector<std::string>> read_synonyms(const std::string& path);

// Indexes every path (see read_articles) into config.db_path, or into its
// shards, committing every config.commit_every articles and at the end.
// Before anything is written: throws InputError when a path cannot be read
// at all (it does not exist, or is of no kind read_articles reads), or when
// there is no index yet and no path holds an article file (the new index
// would be empty); ConfigError when config.db_path is a file, or a folder
// holding other files than an index. A folder that holds no article is
// reported as a problem, and so is a date that is not an ISO 8601 date (the
// article is kept without it). The problems met are stored in the index
// with the run's last commit, so that a later run tells those it meets
// again from new ones (see IndexReport::skipped_as_before). A new single
// database is built on config.threads cores and merged, its stories linked
// as one; any other index is written through an IndexWriter. Takes the
// index's write lock, as IndexWriter does: another run or writer makes it
// wait up to config.lock_wait, then throw IndexLockedError. Throws what
// IndexWriter throws.
IndexReport index_paths(const IndexConfig& config, const std::vector<std::string>& paths,
                        IndexObserver* observer = nullptr);

}  // namespace quarry

#endif  // QUARRY_INDEX_INDEX_WRITER_H_
