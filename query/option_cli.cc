#include "query/option_cli.h"

#include <string>
#include <vector>

#include "app/common/option_rules.h"
#include "app/common/table_subcommands.h"
#include "query/whole_number.h"

namespace quarry {
namespace {

std::string names_of(const SearchOption& option) {
  const std::string short_flag = option.short_flag();
  return short_flag.empty() ? option.long_flag() : short_flag + "," + option.long_flag();
}

// Sets the row's value as it was given.
template <class Value>
std::function<void(const Value&)> setter(const SearchOption& option, QuarryOptions& options) {
  return [&option, &options](const Value& value) {
    try {
      set_option(option, value, options, kCommandLineNaming);
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
    case ValueKind::kCount: {
      CLI::Option* added =
          app.add_option_function<std::size_t>(names, setter<std::size_t>(option, options), help);
      if (option.most == SIZE_MAX) return added->check(whole_number(option.least));
      return added->check(CLI::Range(option.least, option.most).description("N"));
    }
    case ValueKind::kNumber:
      return app.add_option_function<double>(names, setter<double>(option, options), help)
          ->check(finite_number());
    case ValueKind::kPaths:
      // One path per --db, so that the query may follow it.
      return app
          .add_option_function<std::vector<std::string>>(
              names, setter<std::vector<std::string>>(option, options), help)
          ->allow_extra_args(false)
          ->check(CLI::Validator(
              [](const std::string& path) {
                return path.empty() ? std::string("an empty path names no index") : std::string();
              },
              "PATH"));
    case ValueKind::kChoice:
    case ValueKind::kList:
    case ValueKind::kText:
    case ValueKind::kPath:
      break;
  }
  CLI::Option* added =
      app.add_option_function<std::string>(names, setter<std::string>(option, options), help);
  if (option.kind == ValueKind::kChoice) {
    added->check(
        CLI::IsMember(std::vector<std::string>(option.values.begin(), option.values.end())));
  }
  if (option.check) {
    added->check(CLI::Validator([&option](const std::string& value) { return option.check(value); },
                                std::string(option.value_name)));
  }
  return added;
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

void resolve_command_line(QuarryOptions& options, bool input_is_terminal) {
  try {
    resolve_quarry(options, input_is_terminal);
  } catch (const OptionError& error) {
    throw CLI::ValidationError(error.what());
  }
}

}  // namespace quarry
