// The saved searches of an index, kept beside it in one file,
// saved-searches.json in the index's folder (a shard set's folder for a
// shard set: one list for all its shards), so that they live as long as the
// index and reach every program that opens it. Each search keeps its query
// and the options that say which articles match, by their /api/search
// parameter names, as text: read back through the option table, they mean
// what they meant when saved.
#ifndef QUARRY_APP_COMMON_SAVED_SEARCHES_H_
#define QUARRY_APP_COMMON_SAVED_SEARCHES_H_

#include <string>
#include <utility>
#include <vector>

#include "quarry/search/saved_search.h"

namespace quarry {

struct SavedSearchEntry {
  std::string name;
  std::string query;
  // The options given, as /api/search parameters: {"match", "all"}.
  std::vector<std::pair<std::string, std::string>> parameters;

  bool operator==(const SavedSearchEntry&) const = default;
};

// The file's name in the index's folder.
inline constexpr char kSavedSearchesFile[] = "saved-searches.json";

class SavedSearchFile {
 public:
  explicit SavedSearchFile(const std::string& index_path);

  const std::string& path() const { return path_; }

  // The searches, in the order saved; none when there is no file. Throws
  // InputError naming the file when it cannot be read or is not a list of
  // searches.
  std::vector<SavedSearchEntry> read() const;

  // Saves `entry`, replacing a search of the same name in its place.
  // Returns whether one was replaced. Writes a new file and moves it into
  // place under a lock, so that readers see the old list or the new one
  // and two writers lose neither's search; when it cannot be written, the
  // new file is removed. Throws InputError as read() does, ConfigError when
  // `entry` holds text that is not UTF-8, IndexError when the file cannot be
  // written.
  bool save(const SavedSearchEntry& entry);

  // Removes the search of that name; false when there is none.
  bool remove(const std::string& name);

 private:
  // Writes the list as `change` leaves it, unless it says it left it as
  // it was. Returns whether it wrote.
  template <class Change>
  bool rewrite(Change change);

  std::string folder_;
  std::string path_;
};

// The entry as saved-searches.json keeps it, one JSON object:
// {"name", "query", "options": {parameter: value}}.
std::string saved_search_json(const SavedSearchEntry& entry);

// Why `name` cannot name a saved search (empty, too long, not UTF-8, or
// holding control characters), or empty when it can.
std::string saved_search_name_problem(const std::string& name);

// The search an entry describes, its options read as /api/search reads
// them. Throws ConfigError naming the search for a parameter the option
// table refuses.
SavedSearch saved_search_of(const SavedSearchEntry& entry);

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_SAVED_SEARCHES_H_
