#include "query/option_cli.h"

#include <string>
#include <type_traits>
#include <vector>

#include "app/common/option_reader.h"
#include "app/common/option_rules.h"
#include "app/common/table_subcommands.h"

namespace quarry {
namespace {

std::string names_of(const SearchOption& option) {
  const std::string short_flag = option.short_flag();
  return short_flag.empty() ? option.long_flag() : short_flag + "," + option.long_flag();
}

// Reads each value through the table's checker and sets the row's value:
// CLI11 takes every value as text, so that none is read any other way.
template <class Given>
std::function<void(const Given&)> setter(const SearchOption& option, QuarryOptions& options) {
  return [&option, &options](const Given& given) {
    try {
      if constexpr (std::is_same_v<Given, bool>) {
        set_option(option, given, options, kCommandLineNaming);
      } else if constexpr (std::is_same_v<Given, std::string>) {
        set_option(option, read_option_value(option, given, kCommandLineNaming), options,
                   kCommandLineNaming);
      } else {
        std::vector<std::string> paths;
        for (const std::string& path : given) {
          paths.push_back(
              std::get<std::string>(read_option_value(option, path, kCommandLineNaming)));
        }
        set_option(option, paths, options, kCommandLineNaming);
      }
    } catch (const OptionError& error) {
      throw CLI::ValidationError(error.what());
    }
  };
}

CLI::Option* add_row(CLI::App& app, Command command, const SearchOption& option,
                     QuarryOptions& options) {
  const std::string names = names_of(option);
  const std::string& help = option.help_in(command);
  switch (option.kind) {
    case ValueKind::kFlag:
      return app.add_flag_callback(
          names, [&option, &options] { setter<bool>(option, options)(true); }, help);
    case ValueKind::kPaths:
      // One path per --db, so that the query may follow it.
      return app
          .add_option_function<std::vector<std::string>>(
              names, setter<std::vector<std::string>>(option, options), help)
          ->allow_extra_args(false);
    default:
      return app.add_option_function<std::string>(names, setter<std::string>(option, options),
                                                  help);
  }
}

}  // namespace

void add_table_options(CLI::App& app, Command command, QuarryOptions& options) {
  for (const SearchOption& option : search_option_table()) {
    if (!option.belongs_to(command)) continue;
    CLI::Option* added = add_row(app, command, option, options);
    // CLI11 would name the value by its C++ type and its checks
    // ("UINT:INT in [0 - 1048576]"); the help names it as the table does.
    added->option_text(value_name_of(option));
    const std::string shown = default_of(option);
    if (!shown.empty()) {
      added->default_str(shown);
      added->description(option.help_in(command) + " (default: " + shown + ")");
    }
  }
}

CLI::App* add_table_subcommand(CLI::App& app, Command command, QuarryOptions& options) {
  const TableSubcommand& subcommand = table_subcommand(command);
  CLI::App* added = app.add_subcommand(std::string(subcommand.name), subcommand.summary);
  add_table_options(*added, command, options);
  added->footer(subcommand.footer);
  return added;
}

void take_options_given_before(const CLI::App& parent, CLI::App& sub) {
  for (const CLI::Option* given : parent.get_options()) {
    if (given->count() == 0) continue;
    CLI::Option* taken = sub.get_option_no_throw(given->get_name());
    if (taken == nullptr) {
      // "alert list", from the subcommand up to the program's.
      std::string path = sub.get_name();
      for (const CLI::App* up = sub.get_parent(); up && up->get_parent(); up = up->get_parent()) {
        path = up->get_name() + " " + path;
      }
      throw CLI::ValidationError(path + " does not take " + given->get_name());
    }
    if (taken->count() > 0) continue;
    for (const std::string& result : given->results()) taken->add_result(result);
    taken->run_callback();
  }
}

void resolve_command_line(QuarryOptions& options, bool input_is_terminal) {
  try {
    resolve_quarry(options, input_is_terminal);
  } catch (const OptionError& error) {
    throw CLI::ValidationError(error.what());
  }
}

}  // namespace quarry
