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

void check_index_folder(const std::string& db_path) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (!fs::exists(db_path, error)) return;
  if (!fs::is_directory(db_path, error)) {
    throw ConfigError("index " + db_path + " is a file; choose an empty or new folder");
  }
  if (index_absent(db_path) || is_shard_set(db_path) ||
      fs::exists(fs::path(db_path) / "iamglass", error)) {
    return;
  }
  throw ConfigError("index " + db_path +
                    " holds files that are not an index; choose an empty or new folder");
}

bool is_shard_set_config(const IndexConfig& config) {
  return config.shards != 0 || is_shard_set(config.db_path);
}

}  // namespace quarry::detail
