// Alerts from a live index: after each commit, the index's saved searches
// (saved_searches.h) are matched against the articles the commit added or
// changed, and each match is appended to its alert log
// (quarry/search/alert_log.h), each commit's alerts once.
//
// Once, even across a kill: the articles of each commit are noted in the
// index in the same transaction as the commit itself, under the number of
// their batch, and the note is cleared by the next commit once their
// alerts are in the log. A watcher that restarts finds the batches still
// noted, passes over those the log already holds (each batch's alerts are
// appended in one write, and the log says the last batch it holds), and
// matches the others. The articles the first run of a start finds new
// (those read but not committed when the watcher was killed, files that
// arrived while it was down) are noted the same way, in each commit of
// that run, and matched once it is over.
//
// Matching runs on a thread of its own, so that a commit never waits for
// the last one's alerts: articles become searchable at the pace of commits,
// and alerts follow as fast as the saved searches can be matched. Matching
// never stops the live index: when it falls behind, it takes every batch
// committed meanwhile at once; when it fails (the log cannot be written,
// the disk is full), it says so once, keeps the batches noted and tries
// again, less and less often, until it succeeds; and what is still not
// delivered when the live index ends is delivered by its next start.
#ifndef QUARRY_APP_INDEXING_ALERT_OBSERVER_H_
#define QUARRY_APP_INDEXING_ALERT_OBSERVER_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "quarry/index/live_index.h"
#include "quarry/search/alert_log.h"
#include "quarry/search/saved_search.h"
#include "quarry/search/searcher.h"

namespace quarry {

class AlertObserver : public LiveObserver {
 public:
  // Passes every call on to `next` (the run's printer; may be null) as
  // well. Problems with the saved searches (a file that cannot be read, a
  // search the index can no longer read) are written to `err` as one line
  // each, and the others are matched.
  AlertObserver(std::string index_path, LiveObserver* next, std::ostream& err);
  // Stops matching, as finish() does, without its errors.
  ~AlertObserver() override;

  // Waits until the alerts of every commit so far are in the log, or
  // until matching has failed (and waits to try again), and writes what
  // matching had to say.
  void wait_until_matched();
  // Once the live index has ended: matches what it committed and the
  // matching thread has not yet, trying once more at once when matching
  // was failing, and stops it. Says what could not be delivered: it stays
  // noted in the index for its next start.
  void finish();

  void on_problem(const ReadProblem& problem) override;
  void on_progress(const IndexReport& so_far) override;
  void on_upserted(const std::string& id, Upsert done) override;
  void before_run_commit(IndexWriter& writer) override;
  void after_initial_run(IndexWriter& writer) override;
  void on_ready(const IndexReport& initial) override;
  void before_commit(IndexWriter& writer, const LiveCommit& pending) override;
  void on_commit(const LiveCommit& committed) override;

 private:
  struct Batch {
    std::uint64_t number = 0;
    std::vector<std::string> ids;
  };

  // The noted batches, read once from the index when first needed.
  void read_note(const IndexWriter& writer);
  // Notes the batches not known delivered, in the writer's transaction.
  void write_note(IndexWriter& writer);
  // The matching thread: waits for committed batches and delivers them.
  void match_committed();
  // Matches these batches, those the log does not hold yet, and appends
  // their alerts, telling delivered_through_ as each is. On the matching
  // thread.
  void deliver(const std::vector<Batch>& batches);
  // Notes that matching failed, saying why once until it succeeds again.
  // With mutex_ held.
  void failed(const std::string& why);
  // The saved searches, read again when their file changed. On the
  // matching thread.
  bool refresh_searches();
  // Tells the batches noted so far committed, and wakes the matching
  // thread. With mutex_ held.
  void committed();
  // Writes what the matching thread had to say. On the live index's
  // thread.
  void report_matching();
  // Stops the matching thread once it has matched every committed batch,
  // or tried once more.
  void stop();

  // Guards what both threads read and write: the batches and how far
  // they are committed and delivered, the lines to write, the failures.
  std::mutex mutex_;
  std::condition_variable wake_;
  std::uint64_t committed_through_ = 0;
  bool stopping_ = false;
  std::vector<std::string> said_;  // lines for err_
  // Since matching last failed, and until it succeeds: when to try again,
  // and how long to wait after the next failure.
  bool failing_ = false;
  std::chrono::steady_clock::time_point retry_at_;
  std::chrono::steady_clock::duration retry_wait_;
  std::thread matching_;

  std::string index_path_;
  LiveObserver* next_;
  std::ostream& err_;
  AlertLog log_;
  std::optional<Searcher> searcher_;
  std::unique_ptr<SavedSearchMatcher> matcher_;
  std::string searches_stamp_;  // of the file the searches were read from
  bool note_read_ = false;
  std::uint64_t next_number_ = 1;
  std::vector<Batch> batches_;  // noted, not known delivered
  // The last batch whose alerts are in the log (or had none).
  std::uint64_t delivered_through_ = 0;
  // What the first run found new since its last commit.
  std::vector<std::string> initial_;
};

}  // namespace quarry

#endif  // QUARRY_APP_INDEXING_ALERT_OBSERVER_H_
