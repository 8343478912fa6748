#include "lib/input/input_size.h"

#include <array>
#include <filesystem>
#include <fstream>

#include "quarry/input/article_reader.h"

namespace quarry::detail {
namespace {

namespace fs = std::filesystem;

bool is_gzip(const fs::path& path) {
  std::string name = path.filename().string();
  for (char& c : name) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return name.ends_with(".gz");
}

// A gzip stream ends with its uncompressed size modulo 2^32, little-endian.
// Past 4 GiB that wraps; the compressed size is then the better floor.
std::uintmax_t gzip_size(const fs::path& path, std::uintmax_t compressed) {
  std::ifstream in(path, std::ios::binary);
  if (compressed < 4 || !in.seekg(-4, std::ios::end)) return compressed;
  std::array<unsigned char, 4> trailer{};
  if (!in.read(reinterpret_cast<char*>(trailer.data()), trailer.size())) return compressed;
  const std::uintmax_t size = trailer[0] | trailer[1] << 8 | trailer[2] << 16 |
                              static_cast<std::uintmax_t>(trailer[3]) << 24;
  return size < compressed ? compressed : size;
}

std::uintmax_t file_bytes(const fs::path& path) {
  std::error_code error;
  const std::uintmax_t size = fs::file_size(path, error);
  if (error) return 0;
  return is_gzip(path) ? gzip_size(path, size) : size;
}

}  // namespace

namespace {

// Calls `on_file` with each article file read_articles would read of
// `path`, roughly (the walk only paces a progress line and tells an empty
// folder), until it returns false.
template <typename OnFile>
void for_each_article_file(const std::string& path, OnFile on_file) {
  std::error_code error;
  if (!fs::is_directory(path, error)) {
    on_file(fs::path(path));
    return;
  }
  for (auto it = fs::recursive_directory_iterator(
           path, fs::directory_options::skip_permission_denied, error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (it->path().filename().string().starts_with(".")) {
      if (it->is_directory(error)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(error) && is_article_file(it->path()) && !on_file(it->path())) return;
  }
}

}  // namespace

std::uintmax_t estimated_input_bytes(const std::vector<std::string>& paths) {
  std::uintmax_t total = 0;
  for (const std::string& path : paths) {
    for_each_article_file(path, [&](const fs::path& file) {
      total += file_bytes(file);
      return true;
    });
  }
  return total;
}

bool holds_article_file(const std::string& path) {
  bool found = false;
  for_each_article_file(path, [&](const fs::path&) {
    found = true;
    return false;
  });
  return found;
}

}  // namespace quarry::detail
