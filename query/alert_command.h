// `quarry alert add|list|remove`: an index's saved searches, as a
// subcommand of quarry's.
#ifndef QUARRY_QUERY_ALERT_COMMAND_H_
#define QUARRY_QUERY_ALERT_COMMAND_H_

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "app/common/search_option_table.h"

namespace quarry {

// What the subcommands were given; must outlive the parse.
struct AlertCommand {
  CLI::App* alert = nullptr;
  CLI::App* add = nullptr;
  CLI::App* list = nullptr;
  CLI::App* remove = nullptr;
  QuarryOptions options;
  std::string name;
  std::vector<std::string> query_words;
  bool json = false;
};

// Adds the subcommand "alert", with its own three, to `app`.
void add_alert_command(CLI::App& app, AlertCommand& command);

// Runs the subcommand given; returns the exit code. `app`'s options given
// before "alert" are first given to the subcommand (take_options_given_before),
// which writes them into `command`. Throws what the commands of
// app/common/saved_search_commands.h throw, and CLI::ValidationError for
// more than one --db or for an option before "alert" its subcommand does
// not take.
int run_alert(const CLI::App& app, AlertCommand& command, std::ostream& out);

}  // namespace quarry

#endif  // QUARRY_QUERY_ALERT_COMMAND_H_
