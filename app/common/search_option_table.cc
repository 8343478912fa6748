#include "app/common/search_option_table.h"

#include <sstream>
#include <utility>

#include "app/common/alerts_option_rows.h"
#include "app/common/index_location.h"
#include "app/common/option_rows.h"

namespace quarry {
namespace {

std::vector<SearchOption> make_table() {
  std::vector<SearchOption> table;
  for (std::vector<SearchOption> (*rows)() :
       {index_option_rows, output_option_rows, matching_option_rows, order_option_rows,
        limit_option_rows, query_option_rows, ranking_option_rows, serve_option_rows,
        alerts_option_rows}) {
    for (SearchOption& row : rows()) table.push_back(std::move(row));
  }
  return table;
}

// What the help calls a value of each kind but a choice, whose values it
// lists; a flag takes none.
constexpr ValueName<ValueKind> kKindValueNames[] = {
    {ValueKind::kCount, "N"},   {ValueKind::kNumber, "NUMBER"}, {ValueKind::kList, "LIST"},
    {ValueKind::kText, "TEXT"}, {ValueKind::kPath, "PATH"},     {ValueKind::kPaths, "PATH"}};

}  // namespace

std::string option_value::number_text(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

QuarryOptions::QuarryOptions() : db_paths{default_index_path()} {
  // The programs show each story once unless told otherwise; the library
  // leaves the choice to its caller.
  session.search.collapse.by = Collapse::kStory;
  session.search.time_limit = kSearchTimeLimit;
}

std::string SearchOption::short_flag() const {
  return short_name ? std::string{'-', short_name} : std::string();
}

const std::vector<SearchOption>& search_option_table() {
  static const std::vector<SearchOption> kTable = make_table();
  return kTable;
}

const SearchOption* option_of_parameter(std::string_view parameter) {
  for (const SearchOption& option : search_option_table()) {
    if (!option.http.empty() && option.http == parameter) return &option;
  }
  return nullptr;
}

const SearchOption* option_of_prompt_command(std::string_view command) {
  for (const SearchOption& option : search_option_table()) {
    if (!option.prompt.empty() && option.prompt == command) return &option;
  }
  return nullptr;
}

const SearchOption* option_named(std::string_view name, Command command) {
  for (const SearchOption& option : search_option_table()) {
    if (option.name == name && option.belongs_to(command)) return &option;
  }
  return nullptr;
}

bool takes_plain_words(const QuarryOptions& options) {
  return search(options).parse == ParseMode::kPlain;
}

bool searches_like(const QuarryOptions& options) { return !search(options).like.id.empty(); }

std::string default_of(const SearchOption& option) {
  static const QuarryOptions kDefaults;
  return option.show ? option.show(kDefaults) : std::string();
}

std::string value_name_of(const SearchOption& option) {
  if (!option.value_name.empty()) return std::string(option.value_name);
  if (option.kind != ValueKind::kChoice) return std::string(name_of(kKindValueNames, option.kind));
  std::string names;
  for (std::string_view value : option.values) {
    names += (names.empty() ? "" : "|") + std::string(value);
  }
  return names;
}

}  // namespace quarry
