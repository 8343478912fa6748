// quarry-index's run, behind its options: index the paths, tell the user
// how it goes, and say how it ended as an exit status.
#ifndef QUARRY_APP_INDEX_COMMAND_H_
#define QUARRY_APP_INDEX_COMMAND_H_

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
};

// Indexes command.paths (see index_paths), writing problems, progress and
// the summary to `err`, each line prefixed with `program`. Returns
// kExitSuccess, kExitPartial when an input was skipped, or kExitFailure
// when the run was interrupted (app/exit_status.h); throws what
// index_paths throws.
int run_index_command(const IndexCommand& command, std::string_view program, std::ostream& err);

}  // namespace quarry

#endif  // QUARRY_APP_INDEX_COMMAND_H_
