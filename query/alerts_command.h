// `quarry alerts`: its options, as a subcommand of quarry's, and what it
// runs once they are parsed.
#ifndef QUARRY_QUERY_ALERTS_COMMAND_H_
#define QUARRY_QUERY_ALERTS_COMMAND_H_

#include <CLI/CLI.hpp>
#include <string_view>

#include "app/common/search_option_table.h"

namespace quarry {

// Adds the subcommand "alerts" to `app`; its options fill options.alerts,
// which must outlive the parse.
CLI::App* add_alerts_command(CLI::App& app, QuarryOptions& options);

// Prints the alerts as `config` says and returns the exit code. Throws
// CLI::ValidationError when `app`'s own options were given before
// "alerts", and what run_alerts throws.
int run_alerts_command(const CLI::App& app, const AlertsConfig& config, std::string_view program);

}  // namespace quarry

#endif  // QUARRY_QUERY_ALERTS_COMMAND_H_
