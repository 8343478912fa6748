#include "app/index_command.h"

#include "app/exit_status.h"
#include "app/index_printer.h"

namespace quarry {

int run_index_command(const IndexCommand& command, std::string_view program, std::ostream& err) {
  IndexProgressPrinter progress(err, program, command.progress);
  const IndexReport report = index_paths(command.index, command.paths, &progress);
  progress.clear_progress();
  IndexSummaryPrinter(err, program, command.quiet).print(report);
  if (report.cancelled) return kExitFailure;
  return report.skipped > 0 ? kExitPartial : kExitSuccess;
}

}  // namespace quarry
