#include "query/alert_command.h"

#include "app/common/saved_search_commands.h"
#include "app/common/saved_searches.h"
#include "query/option_cli.h"

namespace quarry {
namespace {

constexpr char kAlertSummary[] =
    "Saved searches that alert: each article quarry-index --watch (or quarry-index -) adds or "
    "changes is matched against them, and each match is an alert (quarry alerts --follow, "
    "/api/alerts). They are kept with the index, in saved-searches.json.";

constexpr char kAddSummary[] =
    "Save a search, or replace the one of that name. Its free words must all match unless "
    "--match any is given or OR joins them; fields, dates (after:, before:, date:) and "
    "language: are written in the query, as in any search.";

constexpr char kAlertFooter[] = R"(Examples:
  quarry alert add opec 'OPEC quota'
  quarry alert add transfer 'Mourinho AND Ederson' --language en
  quarry alert add spring 'title:budget after:2026-03-01'
  quarry alert list
  quarry alert remove opec

Exit codes:
  0  done
  1  the index could not be read, or its saved searches not written
  2  usage error: a bad name or option, text that is not UTF-8, a query the
     index cannot read, with no word to search for or that a search would
     warn of, or no saved search of that name
)";

constexpr char kIndexHelp[] =
    "Index folder, or a shard set's folder (default: $QUARRY_DB, else "
    "$XDG_DATA_HOME/quarry/index)";

// The one index the saved searches are kept with.
std::string index_path_of(const QuarryOptions& options) {
  if (options.db_paths.size() != 1) {
    throw CLI::ValidationError("--db", "saved searches are kept with one index: give --db once");
  }
  return options.db_paths.front();
}

// The options given to `add`, as /api/search parameters, in the table's
// order.
std::vector<std::pair<std::string, std::string>> given_parameters(const CLI::App& add) {
  std::vector<std::pair<std::string, std::string>> parameters;
  for (const SearchOption& option : search_option_table()) {
    if (!option.belongs_to(kAlertCommand) || option.http.empty()) continue;
    const CLI::Option* given = add.get_option_no_throw(option.long_flag());
    if (given == nullptr || given->count() == 0) continue;
    parameters.emplace_back(option.http, option.takes_value() ? given->as<std::string>() : "true");
  }
  return parameters;
}

}  // namespace

void add_alert_command(CLI::App& app, AlertCommand& command) {
  command.alert = app.add_subcommand("alert", kAlertSummary);
  command.alert->require_subcommand(1);
  command.alert->footer(kAlertFooter);

  command.add = command.alert->add_subcommand("add", kAddSummary);
  command.add->add_option("NAME", command.name, "The search's name, as alerts show it")->required();
  command.add->add_option("QUERY", command.query_words, "The query, in Quarry's query language")
      ->required()
      ->option_text("...");
  add_table_options(*command.add, kAlertCommand, command.options);

  command.list = command.alert->add_subcommand("list", "List the saved searches");
  command.list->add_flag("--json", command.json,
                         "One JSON object a line, as saved-searches.json keeps each");
  command.list->add_option("--db", command.options.db_paths, kIndexHelp)->option_text("PATH");

  command.remove = command.alert->add_subcommand("remove", "Remove a saved search");
  command.remove->add_option("NAME", command.name, "The search's name")->required();
  command.remove->add_option("--db", command.options.db_paths, kIndexHelp)->option_text("PATH");
}

int run_alert(const CLI::App& app, AlertCommand& command, std::ostream& out) {
  for (CLI::App* sub : {command.add, command.list, command.remove}) {
    if (sub->parsed()) take_options_given_before(app, *sub);
  }
  const std::string index = index_path_of(command.options);
  if (command.add->parsed()) {
    std::string query;
    for (const std::string& word : command.query_words) query += (query.empty() ? "" : " ") + word;
    out << save_search(index, {command.name, query, given_parameters(*command.add)}) << '\n';
  } else if (command.list->parsed()) {
    print_saved_searches(SavedSearchFile(index).read(), command.json, out);
  } else {
    out << remove_search(index, command.name) << '\n';
  }
  return 0;
}

}  // namespace quarry
