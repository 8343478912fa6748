#include "lib/index/index_folder.h"

#include <filesystem>

#include "lib/index/parallel_build.h"
#include "lib/index/shard_set.h"
#include "quarry/error.h"

namespace quarry::detail {

IndexConfig with_plain_db_path(IndexConfig config) {
  std::filesystem::path path = std::filesystem::path(config.db_path).lexically_normal();
  if (!path.has_filename() && path.has_relative_path()) path = path.parent_path();
  config.db_path = path.string();
  return config;
}

namespace {

// Why an index cannot be written at `db_path`, or "".
std::string unusable_index_folder(const std::string& db_path) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (!fs::exists(db_path, error)) return "";
  if (!fs::is_directory(db_path, error)) return "is a file";
  if (index_absent(db_path) || holds_index(db_path)) return "";
  return "holds files that are not an index";
}

}  // namespace

bool holds_index(const std::string& db_path) {
  std::error_code error;
  return is_shard_set(db_path) ||
         std::filesystem::exists(std::filesystem::path(db_path) / kGlassVersionFile, error);
}

void check_index_folder(const std::string& db_path) {
  // An empty path would put the lock and the build's files in the current folder.
  if (db_path.empty()) throw ConfigError("the index path is empty; name a folder for the index");
  if (std::string problem = unusable_index_folder(db_path); !problem.empty()) {
    throw ConfigError("index " + db_path + " " + problem + "; choose an empty or new folder");
  }
}

std::string no_index_message(const std::string& db_path) {
  const std::string problem = unusable_index_folder(db_path);
  if (problem.empty()) {
    return "no index at " + db_path + "; build one with: quarry-index --db " + db_path + " FOLDER";
  }
  return "no index at " + db_path + ", which " + problem +
         "; build one in an empty or new folder with: quarry-index --db NEW-FOLDER FOLDER";
}

bool is_shard_set_config(const IndexConfig& config) {
  return config.shards != 0 || is_shard_set(config.db_path);
}

}  // namespace quarry::detail
