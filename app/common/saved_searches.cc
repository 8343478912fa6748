#include "app/common/saved_searches.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/common/http_query.h"
#include "quarry/error.h"
#include "quarry/json_text.h"
#include "quarry/text/utf8.h"

namespace quarry {
namespace {

using Json = nlohmann::json;

// A name is typed at a shell and shown in every alert: one line, short.
constexpr std::size_t kMaxNameBytes = 100;

Json to_json(const SavedSearchEntry& entry) {
  Json options = Json::object();
  for (const auto& [parameter, value] : entry.parameters) options[parameter] = value;
  return {{"name", entry.name}, {"query", entry.query}, {"options", options}};
}

SavedSearchEntry entry_of(const Json& json) {
  SavedSearchEntry entry;
  entry.name = json.at("name").get<std::string>();
  entry.query = json.at("query").get<std::string>();
  if (json.contains("options")) {
    for (const auto& [parameter, value] : json.at("options").items()) {
      entry.parameters.emplace_back(parameter, value.get<std::string>());
    }
  }
  return entry;
}

// Holds an exclusive lock on `path` (created if missing) while it lives.
class FileLock {
 public:
  explicit FileLock(const std::string& path)
      : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ < 0 || ::flock(fd_, LOCK_EX) != 0) {
      throw IndexError("cannot lock " + path + ": " + std::strerror(errno));
    }
  }
  ~FileLock() { ::close(fd_); }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

// Writes `text` to `path` through a new file beside it moved into place, so
// that readers find the old file or the new one, never part of one; when it
// cannot, the new file goes too.
void replace_file(const std::string& path, const std::string& text) {
  const std::string fresh = path + ".new";
  std::ofstream out(fresh, std::ios::trunc);
  out << text;
  out.close();
  std::error_code error;
  if (out) std::filesystem::rename(fresh, path, error);
  if (!out || error) {
    const std::string reason = !out ? std::strerror(errno) : error.message();
    std::error_code ignored;
    std::filesystem::remove(fresh, ignored);
    throw IndexError("cannot write " + path + ": " + reason);
  }
}

}  // namespace

SavedSearchFile::SavedSearchFile(const std::string& index_path)
    : folder_(index_path),
      path_((std::filesystem::path(index_path) / kSavedSearchesFile).string()) {}

std::vector<SavedSearchEntry> SavedSearchFile::read() const {
  std::ifstream in(path_);
  if (!in) {
    if (errno == ENOENT) return {};
    throw InputError(path_ + ": cannot be read: " + std::strerror(errno));
  }
  std::ostringstream text;
  text << in.rdbuf();
  std::vector<SavedSearchEntry> entries;
  try {
    const Json json = Json::parse(text.str());
    for (const Json& search : json.at("searches")) entries.push_back(entry_of(search));
  } catch (const Json::exception& error) {
    throw InputError(path_ + ": not a list of saved searches (" + error.what() + ")");
  }
  return entries;
}

template <class Change>
bool SavedSearchFile::rewrite(Change change) {
  const FileLock lock((std::filesystem::path(folder_) / ".saved-searches.lock").string());
  std::vector<SavedSearchEntry> entries = read();
  if (!change(entries)) return false;
  Json searches = Json::array();
  for (const SavedSearchEntry& entry : entries) searches.push_back(to_json(entry));
  // The text is whole before the new file is begun: a search that cannot be
  // written as JSON leaves no file behind.
  std::string text;
  try {
    text = Json{{"searches", searches}}.dump(2) + '\n';
  } catch (const Json::type_error&) {
    throw ConfigError(path_ + ": a saved search's name, query or option is not valid UTF-8");
  }
  replace_file(path_, text);
  return true;
}

bool SavedSearchFile::save(const SavedSearchEntry& entry) {
  bool replaced = false;
  rewrite([&](std::vector<SavedSearchEntry>& entries) {
    for (SavedSearchEntry& kept : entries) {
      if (kept.name == entry.name) {
        kept = entry;
        replaced = true;
        return true;
      }
    }
    entries.push_back(entry);
    return true;
  });
  return replaced;
}

bool SavedSearchFile::remove(const std::string& name) {
  return rewrite([&](std::vector<SavedSearchEntry>& entries) {
    return std::erase_if(entries, [&](const SavedSearchEntry& kept) { return kept.name == name; }) >
           0;
  });
}

std::string saved_search_json(const SavedSearchEntry& entry) { return json_text(to_json(entry)); }

std::string saved_search_name_problem(const std::string& name) {
  if (name.empty()) return "a saved search needs a name";
  if (!is_valid_utf8(name)) return "a saved search's name is not valid UTF-8";
  if (name.size() > kMaxNameBytes) {
    return "a saved search's name is at most " + std::to_string(kMaxNameBytes) + " bytes";
  }
  for (char c : name) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
      return "a saved search's name is one line of printable characters";
    }
  }
  return "";
}

SavedSearch saved_search_of(const SavedSearchEntry& entry) {
  std::vector<std::pair<std::string, std::string>> parameters = entry.parameters;
  parameters.emplace_back("q", entry.query);
  try {
    SearchRequest request =
        search_request_from(Parameters(std::move(parameters), search_parameter_names()));
    return {entry.name, std::move(request.query), std::move(request.options)};
  } catch (const HttpError& error) {
    throw ConfigError("saved search '" + entry.name + "': " + error.what());
  }
}

}  // namespace quarry
