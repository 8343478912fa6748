#include "app/indexing/index_command.h"

#include <cstdlib>
#include <string>

#include "app/common/exit_status.h"
#include "app/indexing/alert_observer.h"
#include "app/indexing/index_printer.h"
#include "quarry/index/index_snapshot.h"
#include "quarry/index/live_index.h"

namespace quarry {
namespace {

// What an earlier run reported already failed that run: a run that meets
// nothing new succeeds, so that a nightly run on unchanged input does.
int exit_status_of(const IndexReport& report) {
  return report.skipped > report.skipped_as_before ? kExitPartial : kExitSuccess;
}

// Until cancelled, or the end of standard input: cancelling is how a live
// index ends, no failure.
int run_live(const IndexCommand& command, std::string_view program, std::ostream& err) {
  LiveConfig config;
  config.index = command.index;
  config.paths = command.paths;
  config.watch = command.watch;
  config.read_stdin = command.read_stdin;
  config.commit_interval = command.commit_interval;
  config.wake_fd = command.wake_fd;
  LiveIndexPrinter printer(err, program, command.progress);
  // The saved searches' alerts come from the commits a live index makes.
  AlertObserver alerts(command.index.db_path, &printer, err);
  IndexReport report = run_live_index(config, &alerts);
  alerts.finish();
  printer.clear_progress();
  report.cancelled = false;
  IndexSummaryPrinter(err, program, command.quiet).print(report);
  return exit_status_of(report);
}

}  // namespace

int run_index_command(const IndexCommand& command, std::string_view program, std::ostream& err) {
  if (!command.snapshot.empty()) {
    const SnapshotConfig config{.db_path = command.index.db_path, .dest = command.snapshot};
    print_snapshot_summary(err, program, config, take_snapshot(config), command.quiet);
    return kExitSuccess;
  }
  // Xapian 1.4 reads how many changesets to keep from the environment
  // alone, as each database is opened for writing.
  if (command.changesets > 0) {
    setenv("XAPIAN_MAX_CHANGESETS", std::to_string(command.changesets).c_str(), 1);
  }
  if (command.watch || command.read_stdin) return run_live(command, program, err);
  IndexProgressPrinter progress(err, program, command.progress);
  const IndexReport report = index_paths(command.index, command.paths, &progress);
  progress.clear_progress();
  IndexSummaryPrinter(err, program, command.quiet).print(report);
  if (report.cancelled) return kExitFailure;
  return exit_status_of(report);
}

}  // namespace quarry
