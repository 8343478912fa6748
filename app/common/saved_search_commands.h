// What `quarry alert add`, `list` and `remove` do to an index's saved
// searches (saved_searches.h), apart from reading the command line.
#ifndef QUARRY_APP_COMMON_SAVED_SEARCH_COMMANDS_H_
#define QUARRY_APP_COMMON_SAVED_SEARCH_COMMANDS_H_

#include <ostream>
#include <string>
#include <vector>

#include "app/common/saved_searches.h"

namespace quarry {

// Saves `entry` with the index at `index_path`, once its name, options and
// query are known good: text (UTF-8), and the query read against the index
// as an alert will read it, with nothing a search would warn of
// (query_warnings). Returns what was done, as one line for the user.
// Throws ConfigError (a bad name or option, text that is not UTF-8, a query
// a search would warn of), QueryError (a query the index cannot read, or
// one with no word to search for), IndexNotFoundError (no index there),
// IndexError.
std::string save_search(const std::string& index_path, const SavedSearchEntry& entry);

// Removes the saved search `name`; throws ConfigError when there is none
// or `name` could name none.
std::string remove_search(const std::string& index_path, const std::string& name);

// The saved searches, one a line: the name, the query and the options as
// they would be typed again; as JSON Lines with `json`, each as
// saved-searches.json keeps it.
void print_saved_searches(const std::vector<SavedSearchEntry>& entries, bool json,
                          std::ostream& out);

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_SAVED_SEARCH_COMMANDS_H_
