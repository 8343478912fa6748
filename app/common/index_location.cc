#include "app/common/index_location.h"

#include <cstdlib>

namespace quarry {
namespace {

const char* non_empty_env(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? value : nullptr;
}

}  // namespace

std::string default_index_path() {
  if (const char* db = non_empty_env("QUARRY_DB")) return db;
  if (const char* data = non_empty_env("XDG_DATA_HOME")) return std::string(data) + "/quarry/index";
  if (const char* home = non_empty_env("HOME"))
    return std::string(home) + "/.local/share/quarry/index";
  return ".quarry/index";
}

}  // namespace quarry
