// A live index: indexes what its inputs hold, as a run does, then keeps the
// index up to date with them as they change, committing as articles arrive.
#ifndef QUARRY_INDEX_LIVE_INDEX_H_
#define QUARRY_INDEX_LIVE_INDEX_H_

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "quarry/index/index_writer.h"

namespace quarry {

// What one commit of a live index holds.
struct LiveCommit {
  // 1 for the first commit after the initial run, then 2, 3 …
  std::size_t number = 0;
  // The articles added or changed (not those found unchanged), and those
  // deleted, each once, in the order they came. An article upserted and
  // then deleted in one commit is only deleted, and the other way round.
  std::vector<std::string> upserted_ids;
  std::vector<std::string> deleted_ids;
  // Of upserted_ids, how many were new to the index.
  std::size_t added = 0;
  std::size_t updated = 0;
  // Inputs or lines skipped since the last commit.
  std::size_t skipped = 0;
  // Since run_live_index began.
  double seconds = 0;
};

// Told about a live index as it goes, on the thread that called
// run_live_index, one call at a time: an observer need not be thread-safe.
// Besides IndexObserver's calls (each problem as it is met, the progress of
// the initial run, then the whole run's report after each commit):
class LiveObserver : public IndexObserver {
 public:
  // The initial run is over, with this report, and the inputs are watched
  // (they were from before it began, so that nothing written meanwhile is
  // missed).
  virtual void on_ready(const IndexReport& /*initial*/) {}
  // Just before on_ready, with the run's writer, for what the observer
  // keeps in the index (IndexWriter::set_note); it may commit.
  virtual void after_initial_run(IndexWriter& /*writer*/) {}
  // Just before each commit, so that what the observer writes through the
  // writer (IndexWriter::set_note) lands in the same transaction as the
  // articles. Not called for the initial run. May throw, as a commit's
  // failure does: run_live_index passes the exception on.
  virtual void before_commit(IndexWriter& /*writer*/, const LiveCommit& /*pending*/) {}
  // After each commit, once it is durable and its stories are linked.
  virtual void on_commit(const LiveCommit& /*committed*/) {}
};

struct LiveConfig {
  // How to index, as for index_paths. index.cancel ends the run, after the
  // commit of what was read.
  IndexConfig index;
  // Folders, .txt files and JSON Lines corpora: first indexed as a run does
  // (see index_paths), then watched. Below a folder, at any depth and in
  // folders created or moved in later, a file is taken once complete
  // (closed after writing, or moved in): a .txt file as its article, added
  // or replaced, a .jsonl or .jsonl.gz file as its lines; a .txt file
  // deleted or moved away deletes its article. A file some process still
  // has open for writing is passed over wherever it is met (the initial
  // run, a rescan, another writer's close) and read once closed. A folder
  // is followed by its name: moved away or deleted, it is no longer
  // watched (the observer is told, as of a problem, not counted), and a
  // folder that appears under its name is watched and read as a rescan
  // reads it. A plain .jsonl corpus given
  // is followed as `tail -F` follows a file: each line appended is taken
  // once it ends with a line break, through truncation (the file is read
  // again from its start) and rotation (what was appended to the old file
  // is taken, then the new file under the name from its start); its lines
  // never delete an article. A .jsonl.gz corpus is indexed once and not
  // followed. When the kernel's queue of changes overflows, the folders
  // are read again whole, as a run reads them, deleting the articles whose
  // files have gone.
  std::vector<std::string> paths;
  // False: the paths are indexed once, as a run does, and not watched; the
  // run ends with standard input.
  bool watch = true;
  // Also read JSON Lines from `stdin_fd` as they arrive, until the end of
  // that input. A bad line is a problem, located "stdin:N", and skipped.
  bool read_stdin = false;
  int stdin_fd = 0;
  // Changes are committed when there are some, at most once every so often.
  std::chrono::duration<double> commit_interval{1};
  // When not -1, a descriptor that turns readable when *index.cancel turns
  // true (the reading end of a pipe a signal handler writes to): the run
  // then ends at once, rather than after what it waits for next. Without
  // one, a run that waits checks index.cancel every kCancelCheck.
  int wake_fd = -1;
};

// How often a run that waits without LiveConfig::wake_fd looks at
// IndexConfig::cancel.
inline constexpr std::chrono::milliseconds kCancelCheck{250};

// Runs a live index (see LiveConfig) into config.index.db_path, holding its
// write lock from before the initial run until it returns, so that no
// other writer comes between: another run or writer waits, or is refused,
// as for index_paths. Returns when *config.index.cancel turns true, after
// committing what was read, or, when nothing is watched (config.paths
// empty, or config.watch false), at the end of standard input. The report counts the
// initial run's articles and the live ones together; `cancelled` is set
// when cancel ended it. Throws what index_paths throws, before anything is
// written; InputError when a folder cannot be watched; IndexError when a
// commit fails. Unlike index_paths, a new index over folders that hold no
// article yet is made, empty, to be filled as articles arrive.
IndexReport run_live_index(const LiveConfig& config, LiveObserver* observer = nullptr);

}  // namespace quarry

#endif  // QUARRY_INDEX_LIVE_INDEX_H_
