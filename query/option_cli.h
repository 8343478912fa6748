// quarry's options on the command line: the rows of the option table
// (app/common/search_option_table.h) as CLI11 options.
#ifndef QUARRY_QUERY_OPTION_CLI_H_
#define QUARRY_QUERY_OPTION_CLI_H_

#include <CLI/CLI.hpp>

#include "app/common/search_option_table.h"

namespace quarry {

// Adds the options of `command` to `app`, in the table's order; parsing
// sets them in `options`, which must outlive the parse. A value an option
// refuses is a CLI::ValidationError naming it.
void add_table_options(CLI::App& app, Command command, QuarryOptions& options);

// Adds the subcommand of `command` (table_subcommands()) to `app`, with
// its options, help and footer; as add_table_options for `options`.
CLI::App* add_table_subcommand(CLI::App& app, Command command, QuarryOptions& options);

// The options given to `parent` before the subcommand `sub` that `sub`
// takes too, given to `sub` as if written after it ("quarry --db X alert
// list" as "quarry alert list --db X"), as git and cargo take them; one it
// already has from after it is kept. Throws CLI::ValidationError naming
// an option given before that `sub` does not take.
void take_options_given_before(const CLI::App& parent, CLI::App& sub);

// resolve_quarry, its OptionError a CLI::ValidationError: the rules
// between options are reported as the options' own errors are.
void resolve_command_line(QuarryOptions& options, bool input_is_terminal);

}  // namespace quarry

#endif  // QUARRY_QUERY_OPTION_CLI_H_
