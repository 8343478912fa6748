#include "indexer/index_command_line.h"

#include <limits>
#include <optional>
#include <string>

#include "app/common/value_parsers.h"
#include "app/common/version_text.h"
#include "app/indexing/index_help.h"
#include "app/indexing/index_option_table.h"

namespace quarry {
namespace {

// The help's option names without the value a flag takes when given alone
// ("--wait[=SECONDS]", not "--wait{3600}"): the description says what it is.
class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_name(const CLI::Option* option, bool is_positional) const override {
    std::string name = CLI::Formatter::make_option_name(option, is_positional);
    for (std::size_t open = name.find('{'); open != std::string::npos; open = name.find('{')) {
      name.erase(open, name.find('}', open) + 1 - open);
    }
    return name;
  }
  // A value that may be left out follows the name: "--wait[=SECONDS]".
  std::string make_option_opts(const CLI::Option* option) const override {
    std::string opts = CLI::Formatter::make_option_opts(option);
    return opts.starts_with(" [=") ? opts.substr(1) : opts;
  }
};

std::string names_of(const IndexOption& option) {
  const std::string short_flag = option.short_flag();
  return short_flag.empty() ? option.long_flag() : short_flag + "," + option.long_flag();
}

// The row as a CLI11 option that parses into `value`.
CLI::Option* add_row(CLI::App& app, const IndexOption& option, OptionValue& value) {
  const std::string names = names_of(option);
  switch (option.role) {
    case IndexRowRole::kHelp:
      return app.set_help_flag(names, option.help);
    case IndexRowRole::kVersion:
      return app.set_version_flag(
          names, [&app] { return version_text(app.get_name()); }, option.help);
    case IndexRowRole::kArguments:
      return app.add_option(names, value.emplace<std::vector<std::string>>(), option.help);
    case IndexRowRole::kOption:
      break;
  }
  switch (option.kind) {
    case ValueKind::kFlag:
      return app.add_flag(names, value.emplace<bool>(), option.help);
    case ValueKind::kCount: {
      std::size_t& count = value.emplace<std::size_t>();
      const std::string most =
          option.most >= static_cast<double>(std::numeric_limits<unsigned>::max())
              ? std::string()
              : std::to_string(static_cast<std::size_t>(option.most));
      const std::string takes =
          " must be a whole number " +
          (most.empty() ? "of " + std::to_string(option.least) + " or more"
                        : "from " + std::to_string(option.least) + " to " + most);
      return app.add_option_function<std::string>(
          names,
          [&count, &option, takes](const std::string& text) {
            const std::optional<std::size_t> read = parse_whole_number(text);
            if (!read || *read < option.least || static_cast<double>(*read) > option.most) {
              throw CLI::ValidationError(option.long_flag() + takes + ", not '" + text + "'");
            }
            count = *read;
          },
          option.help);
    }
    case ValueKind::kNumber: {
      double& number = value.emplace<double>();
      CLI::Option* added = option.value_optional()
                               ? app.add_flag(names + "{" + std::string(option.when_alone) + "}",
                                              number, option.help)
                               : app.add_option(names, number, option.help);
      // CLI::Range would say "Value 0 not in range 0.000000 to 1797…".
      return added->check(
          [&option](const std::string& text) {
            const std::optional<double> read = parse_decimal(text);
            if (read && *read >= 0 && *read <= option.most) return std::string();
            return "a number of 0 or more, not '" + text + "'";
          },
          "NUMBER");
    }
    default:
      break;
  }
  CLI::Option* added = app.add_option(names, value.emplace<std::string>(), option.help);
  if (option.names == IndexValueNames::kExistingFile) added->check(CLI::ExistingFile);
  if (option.check) {
    added->check([&option](const std::string& text) { return option.check(text); });
  }
  return added;
}

}  // namespace

IndexCommandLine::IndexCommandLine(CLI::App& app) : values_(index_option_table().size()) {
  app.description(kIndexSummary);
  for (std::size_t row = 0; row < values_.size(); ++row) {
    const IndexOption& option = index_option_table()[row];
    CLI::Option* added = add_row(app, option, values_[row]);
    if (option.role == IndexRowRole::kOption || option.role == IndexRowRole::kArguments) {
      added->option_text(std::string(option.value_name));
    }
    options_.push_back(added);
  }
  app.formatter(std::make_shared<HelpFormatter>());
  app.get_formatter()->label("Positionals", "Arguments");
  app.footer(kIndexFooter);
}

IndexCommand IndexCommandLine::command() const {
  const std::vector<IndexOption>& table = index_option_table();
  const IndexOption* snapshot = nullptr;
  for (std::size_t row = 0; row < table.size(); ++row) {
    if (table[row].run == IndexRun::kSnapshot && options_[row]->count() > 0) {
      snapshot = &table[row];
    }
  }
  IndexCommand command = default_index_command();
  for (std::size_t row = 0; row < table.size(); ++row) {
    const IndexOption& option = table[row];
    const bool given = options_[row]->count() > 0;
    // Checked here rather than by CLI11's excludes(), which the help would list.
    if (snapshot && given && option.run == IndexRun::kIndexing) {
      throw CLI::ExcludesError(snapshot->long_flag(), option.long_flag());
    }
    if (!snapshot && !given && option.role == IndexRowRole::kArguments) {
      throw CLI::RequiredError(option.long_flag());
    }
    if (given && option.set) option.set(command, values_[row]);
  }
  resolve_index_command(command);
  return command;
}

}  // namespace quarry
