// What quarry-index tells its user while and after it indexes: the
// problems met and a progress line, then a summary. Each printer writes to
// the stream it is given (the program gives stderr), so that what it
// prints is tested in memory.
#ifndef QUARRY_APP_INDEXING_INDEX_PRINTER_H_
#define QUARRY_APP_INDEXING_INDEX_PRINTER_H_

#include <chrono>
#include <ostream>
#include <string>
#include <string_view>

#include "quarry/index/index_snapshot.h"
#include "quarry/index/index_writer.h"
#include "quarry/index/live_index.h"
#include "quarry/input/article_reader.h"

namespace quarry {

// "42 s", "3 min 5 s", "1 h 2 min": a time left, to the second when short.
std::string duration_text(double seconds);

// Each problem as it comes, "program: where: reason", with " (skipped)"
// when the article was left out; with `progress` (a terminal: the caller
// checks), a line of how far the run is, rewritten in place. Not
// thread-safe: index_paths calls it on one thread.
class IndexProgressPrinter : public IndexObserver {
 public:
  IndexProgressPrinter(std::ostream& out, std::string_view program, bool progress);

  void on_problem(const ReadProblem& problem) override;
  // The progress line: while reading, articles seen, their rate, the time
  // since this printer was made, and, once the inputs' size is known, the
  // share read and the time left; after reading, the articles, the time,
  // 100% and the step under way ("linking stories").
  void on_progress(const IndexReport& so_far) override;
  // As on_progress, `seconds` into the run.
  void print_progress(const IndexReport& so_far, double seconds);
  // Erases the progress line, if one is shown, so that what follows starts
  // a clean line.
  void clear_progress();

 private:
  std::ostream& out_;
  std::string program_;
  bool progress_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// A live index's messages: the initial run's as a run's (problems, and
// the progress line), then, with `progress`, one line rewritten in place
// after each commit with what the commits so far brought ("watching: 3
// commits, 12 added, 1 updated, 2 deleted"). Not thread-safe.
class LiveIndexPrinter : public LiveObserver {
 public:
  LiveIndexPrinter(std::ostream& out, std::string_view program, bool progress);

  void on_problem(const ReadProblem& problem) override;
  void on_progress(const IndexReport& so_far) override;
  void on_ready(const IndexReport& initial) override;
  void on_commit(const LiveCommit& committed) override;
  // Erases the line shown, if any.
  void clear_progress();

 private:
  // Rewrites the line of what the commits brought.
  void print_commits();

  std::ostream& out_;
  IndexProgressPrinter run_;
  bool progress_;
  bool ready_ = false;
  bool shown_ = false;
  std::size_t commits_ = 0;
  std::size_t added_ = 0;
  std::size_t updated_ = 0;
  std::size_t deleted_ = 0;
};

// The end of a run: the files of unknown kinds left out, then (unless
// quiet) how many warnings earlier runs gave were not repeated, and (unless
// quiet, and always when the run was interrupted) what was added, updated,
// unchanged, deleted and skipped (how many of those as before), and how long
// it took.
class IndexSummaryPrinter {
 public:
  IndexSummaryPrinter(std::ostream& out, std::string_view program, bool quiet);

  void print(const IndexReport& report);

 private:
  void print_other_files(const IndexReport& report);
  void print_warnings_as_before(const IndexReport& report);
  void print_counts(const IndexReport& report);
  void print_languages(const LanguageCounts& languages);

  std::ostream& out_;
  std::string program_;
  bool quiet_;
};

// The end of a snapshot, unless quiet: "program: snapshot of INDEX written
// to DEST: 812.4 MB (from 1.1 GB copied) in 42 s, commits held for 2.1 s".
void print_snapshot_summary(std::ostream& out, std::string_view program,
                            const SnapshotConfig& config, const SnapshotReport& report, bool quiet);

}  // namespace quarry

#endif  // QUARRY_APP_INDEXING_INDEX_PRINTER_H_
