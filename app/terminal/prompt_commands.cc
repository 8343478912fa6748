// The prompt's commands as :help lists them and Tab completes them: its own,
// and those the option table gives options (:limit, :recency …), read from
// the table so that none is left out of either.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "app/common/search_option_table.h"
#include "app/common/terminal_text.h"
#include "app/terminal/prompt.h"

namespace quarry {
namespace {

struct CommandHelp {
  std::vector<std::string_view> names;  // listed together, as ":next, :prev"
  std::string argument;
  std::string help;
};

// :help lists the prompt's own commands around the options' commands.
const std::vector<CommandHelp> kBeforeOptions = {
    {{":next", ":prev"}, "", "next or previous page of hits"},
    {{":show"},
     "N|ID",
     "the whole article N of the last results, or the article whose id is ID (as :story lists "
     "them)"},
    {{":story"},
     "N",
     "the other reports of hit N's story (listed under it as \"+2 more reports\")"},
    {{":like"}, "N [QUERY]", "articles like hit N (that match QUERY)"},
};
const std::vector<CommandHelp> kAfterOptions = {
    {{":accept"}, "", "search the spelling suggestion (\"did you mean\")"},
    {{":facets"},
     "[FIELDS]",
     "count the last query's matches by source, category, language, date (or by the FIELDS "
     "given, such as :facets category)"},
    {{":stats"}, "", "what the index holds"},
    {{":help"}, "", "this list"},
    {{":quit"}, "", "leave (Ctrl-D does too)"},
};

// How the options' commands read at the prompt, where that is not as on
// the command line: a row of the table with a prompt command and no entry
// here is listed with its option's VALUE and help.
const std::vector<CommandHelp> kOptionCommands = {
    {{":limit"}, "N", "hits per page"},
    {{":format"}, "text|json", "how hits are written"},
    {{":language"},
     "[LANG]",
     "search in one language only, such as :language fr (alone: every language)"},
    {{":recency"},
     "DURATION|off",
     "rank newer articles higher: relevance halves with every DURATION of an article's age, "
     "such as :recency 7d (off: by relevance alone)"},
    {{":as-of"},
     "[DATE]",
     "count :recency's ages from this ISO 8601 date, such as :as-of 2024-05-01 (alone: from "
     "now)"},
    {{":time-limit"},
     "SECONDS",
     "the time a search may take; then it shows the best hits found by then (0: no limit)"},
};

// The widest a line of :help is, on any screen wider.
constexpr std::size_t kHelpWidth = 78;

std::vector<CommandHelp> every_command() {
  std::vector<CommandHelp> commands = kBeforeOptions;
  for (const SearchOption& option : search_option_table()) {
    if (option.prompt.empty()) continue;
    const auto own = std::find_if(
        kOptionCommands.begin(), kOptionCommands.end(),
        [&](const CommandHelp& command) { return command.names.front() == option.prompt; });
    if (own != kOptionCommands.end()) {
      commands.push_back(*own);
    } else {
      commands.push_back({{option.prompt}, value_name_of(option), option.help});
    }
  }
  commands.insert(commands.end(), kAfterOptions.begin(), kAfterOptions.end());
  return commands;
}

// "  :show N|ID"
std::string usage_of(const CommandHelp& command) {
  std::string usage = "  ";
  for (std::string_view name : command.names) {
    if (usage.size() > 2) usage += ", ";
    usage += name;
  }
  if (!command.argument.empty()) usage += " " + command.argument;
  return usage;
}

}  // namespace

const std::vector<std::string>& PromptSession::commands() {
  static const std::vector<std::string> kCommands = [] {
    std::vector<std::string> names;
    for (const CommandHelp& command : every_command()) {
      for (std::string_view name : command.names) names.emplace_back(name);
    }
    return names;
  }();
  return kCommands;
}

void PromptSession::help() {
  const std::vector<CommandHelp> commands = every_command();
  std::size_t column = 0;
  for (const CommandHelp& command : commands) {
    column = std::max(column, display_width(usage_of(command)) + 2);
  }
  const std::size_t width =
      config_.screen_columns == 0 ? kHelpWidth : std::min(config_.screen_columns, kHelpWidth);
  const std::string indent(column, ' ');
  out_ << "Type a query to search, or a command:\n";
  for (const CommandHelp& command : commands) {
    const std::string usage = usage_of(command);
    out_ << usage << std::string(column - display_width(usage), ' ');
    const std::string text = wrap_lines(command.help, width > column + 20 ? width - column : 20);
    for (const char c : text) {
      out_ << c;
      if (c == '\n') out_ << indent;
    }
    out_ << '\n';
  }
  out_ << '\n';
  out_.flush();
}

}  // namespace quarry
