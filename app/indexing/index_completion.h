// quarry-index's shell completion, written from its option table
// (index_option_table.h) as quarry's is from its own: the build runs
// `quarry-index --generate complete-bash|complete-zsh` and installs what it
// writes, so that completion always knows every option the program takes.
#ifndef QUARRY_APP_INDEXING_INDEX_COMPLETION_H_
#define QUARRY_APP_INDEXING_INDEX_COMPLETION_H_

#include <ostream>
#include <string_view>

namespace quarry {

// Writes the completion of `kind` ("complete-bash" or "complete-zsh") to
// `out` and returns kExitSuccess; for another kind, names the known ones on
// `err` and returns kExitUsage (app/common/exit_status.h).
int write_index_completion(std::string_view kind, std::ostream& out, std::ostream& err,
                           std::string_view program);

}  // namespace quarry

#endif  // QUARRY_APP_INDEXING_INDEX_COMPLETION_H_
