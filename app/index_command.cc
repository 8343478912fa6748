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
  // What an earlier run reported already failed that run: a run that meets
  // nothing new succeeds, so that a nightly run on unchanged input does.
  return report.skipped > report.skipped_as_before ? kExitPartial : kExitSuccess;
}

}  // namespace quarry
