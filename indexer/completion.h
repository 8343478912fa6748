// quarry-index's shell completion, written from the options its command
// line defines, as quarry writes its own from its option table: the build
// runs `quarry-index --generate complete-bash|complete-zsh` and installs what
// it writes, so that completion always knows every option the program takes.
#ifndef QUARRY_INDEXER_COMPLETION_H_
#define QUARRY_INDEXER_COMPLETION_H_

#include <CLI/CLI.hpp>
#include <ostream>
#include <string_view>

namespace quarry {

// Writes the completion of `kind` ("complete-bash" or "complete-zsh") for
// the options of `app` to `out` and returns 0; for another kind, names the
// known ones on `err` and returns 2 (exit statuses).
int write_index_completion(const CLI::App& app, std::string_view kind, std::ostream& out,
                           std::ostream& err, std::string_view program);

}  // namespace quarry

#endif  // QUARRY_INDEXER_COMPLETION_H_
