#include "app/common/saved_search_commands.h"

#include "app/common/search_option_table.h"
#include "quarry/error.h"
#include "quarry/search/query_warnings.h"
#include "quarry/search/saved_search.h"
#include "quarry/search/searcher.h"
#include "quarry/text/utf8.h"

namespace quarry {
namespace {

// Why `entry` cannot be written to saved-searches.json, which holds text:
// a query or an option value that is not UTF-8.
std::string entry_text_problem(const SavedSearchEntry& entry) {
  if (!is_valid_utf8(entry.query)) {
    return "saved search '" + entry.name + "': its query is not valid UTF-8";
  }
  for (const auto& [parameter, value] : entry.parameters) {
    if (!is_valid_utf8(value)) {
      return "saved search '" + entry.name + "': its --" + parameter + " is not valid UTF-8";
    }
  }
  return "";
}

// An alert fires on what its query matches as read: one read otherwise
// than written (as plain words, say) would fire on what no one asked for.
void refuse_warnings(const SavedSearchEntry& entry, const std::vector<std::string>& warnings) {
  if (warnings.empty()) return;
  std::string message =
      "saved search '" + entry.name + "' is not saved, as a search would warn: " + warnings.front();
  if (warnings.size() > 1) {
    message += " (and " + std::to_string(warnings.size() - 1) + " more warning" +
               (warnings.size() > 2 ? "s" : "") + ")";
  }
  throw ConfigError(message);
}

}  // namespace

std::string save_search(const std::string& index_path, const SavedSearchEntry& entry) {
  for (const std::string& problem :
       {saved_search_name_problem(entry.name), entry_text_problem(entry)}) {
    if (!problem.empty()) throw ConfigError(problem);
  }
  Searcher searcher(index_path);
  const SavedSearch search = saved_search_of(entry);
  refuse_warnings(entry, query_warnings(searcher, search.query, search.options));
  SavedSearchMatcher matcher(searcher);
  matcher.set_searches({search});
  const bool replaced = SavedSearchFile(index_path).save(entry);
  return (replaced ? "replaced saved search '" : "saved search '") + entry.name +
         "': alerts come from quarry-index --watch or - as articles arrive";
}

std::string remove_search(const std::string& index_path, const std::string& name) {
  // No search is saved under a name that could not be saved.
  const std::string problem = saved_search_name_problem(name);
  if (!problem.empty()) throw ConfigError(problem);
  if (!SavedSearchFile(index_path).remove(name)) {
    throw ConfigError("no saved search is named '" + name + "' (quarry alert list lists them)");
  }
  return "removed saved search '" + name + "'";
}

namespace {

// A value as a shell reads it back: quoted when it holds more than a word.
std::string shell_word(const std::string& text) {
  if (!text.empty() && text.find_first_of(" \t'\"\\$`!*?;&|<>()") == std::string::npos) {
    return text;
  }
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// The option as typed: "--match all", or "--strict" for a flag given.
std::string typed_option(const std::string& parameter, const std::string& value) {
  const SearchOption* option = option_of_parameter(parameter);
  const std::string flag = option ? option->long_flag() : "--" + parameter;
  if (option && !option->takes_value()) return value == "true" || value == "1" ? flag : "";
  return flag + " " + shell_word(value);
}

}  // namespace

void print_saved_searches(const std::vector<SavedSearchEntry>& entries, bool json,
                          std::ostream& out) {
  for (const SavedSearchEntry& entry : entries) {
    if (json) {
      out << saved_search_json(entry) << '\n';
      continue;
    }
    out << shell_word(entry.name) << ' ' << shell_word(entry.query);
    for (const auto& [parameter, value] : entry.parameters) {
      const std::string typed = typed_option(parameter, value);
      if (!typed.empty()) out << ' ' << typed;
    }
    out << '\n';
  }
}

}  // namespace quarry
