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
// matches the others. Articles the restart's first run finds new (those
// read but not committed when the watcher was killed) are matched as one
// batch once that run is over.
#ifndef QUARRY_APP_ALERT_OBSERVER_H_
#define QUARRY_APP_ALERT_OBSERVER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
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
  ~AlertObserver() override;

  void on_problem(const ReadProblem& problem) override;
  void on_progress(const IndexReport& so_far) override;
  void on_upserted(const std::string& id, Upsert done) override;
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
  // Matches the batches the log does not hold yet, and appends their
  // alerts.
  void deliver();
  // The saved searches, read again when their file changed.
  bool refresh_searches();

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
  std::vector<std::string> initial_;  // what the first run found new
};

}  // namespace quarry

#endif  // QUARRY_APP_ALERT_OBSERVER_H_
