// quarry-index's run, behind its options: index the paths, tell the user
// how it goes, and say how it ended as an exit status.
#ifndef QUARRY_APP_INDEXING_INDEX_COMMAND_H_
#define QUARRY_APP_INDEXING_INDEX_COMMAND_H_

#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/index/index_writer.h"

namespace quarry {

struct IndexCommand {
  IndexConfig index;
  std::vector<std::string> paths;
  // A progress line rewritten in place: for a terminal (the caller checks).
  bool progress = false;
  // No summary unless the run is interrupted; problems are still shown.
  bool quiet = false;
  // A live index (see run_live_index): keep the paths' articles up to date
  // as they change, until interrupted.
  bool watch = false;
  // Read JSON Lines from standard input as they arrive, to its end.
  bool read_stdin = false;
  std::chrono::duration<double> commit_interval{1};
  // Not 0: keep the changes of each database's last N commits for
  // replication (XAPIAN_MAX_CHANGESETS); 0: as the environment says.
  std::size_t changesets = 0;
  // Readable when index.cancel turns true (see LiveConfig::wake_fd).
  int wake_fd = -1;
  // Not empty: write a snapshot of the index there (see take_snapshot)
  // instead of indexing; paths is empty.
  std::string snapshot;
};

// Indexes command.paths (see index_paths), runs a live index with `watch`
// or `read_stdin` (see run_live_index), or takes a snapshot (see
// take_snapshot), writing problems, progress and the summary to `err`,
// each line prefixed with `program`. Returns
// kExitSuccess, kExitPartial when an input was skipped, or kExitFailure
// when a run (not a live index, which ends so) was interrupted
// (app/common/exit_status.h); throws what index_paths and run_live_index throw.
int run_index_command(const IndexCommand& command, std::string_view program, std::ostream& err);

}  // namespace quarry

#endif  // QUARRY_APP_INDEXING_INDEX_COMMAND_H_
