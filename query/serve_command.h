// `quarry serve`: its options, as a subcommand of quarry's, and what it
// runs once they are parsed.
#ifndef QUARRY_QUERY_SERVE_COMMAND_H_
#define QUARRY_QUERY_SERVE_COMMAND_H_

#include <CLI/CLI.hpp>
#include <string_view>

#include "app/common/search_option_table.h"

namespace quarry {

// Adds the subcommand "serve" to `app`; its options fill `options`, which
// must outlive the parse.
CLI::App* add_serve_command(CLI::App& app, QuarryOptions& options);

// Serves until SIGINT or SIGTERM, then returns the exit code (0). Throws
// CLI::ValidationError when `app`'s own options were given before "serve"
// (they would be ignored), and what serve() throws.
int run_serve(const CLI::App& app, const QuarryOptions& options, std::string_view program);

}  // namespace quarry

#endif  // QUARRY_QUERY_SERVE_COMMAND_H_
