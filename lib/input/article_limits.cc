#include "lib/input/article_limits.h"

#include <cstdio>
#include <string_view>

#include "lib/text/utf8_repair.h"
#include "quarry/input/article_reader.h"

namespace quarry::detail {
namespace {

// How far back from the limit a word boundary is looked for: longer than
// any word, short enough that little text is lost.
constexpr std::size_t kBoundarySearchBytes = 1024;

std::string mebibytes(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return text;
}

}  // namespace

bool cut_long_body(std::string* body) {
  if (body->size() <= kMaxBodyBytes) return false;
  const std::string_view kept = utf8_prefix(*body, kMaxBodyBytes);
  const std::size_t boundary = kept.find_last_of(" \n", kept.size());
  const bool near =
      boundary != std::string_view::npos && kept.size() - boundary <= kBoundarySearchBytes;
  body->resize(near ? boundary : kept.size());
  body->shrink_to_fit();
  return true;
}

std::string long_article_note(std::size_t original_bytes) {
  return "article of " + mebibytes(original_bytes) + ": only its first " +
         mebibytes(kMaxBodyBytes) + " are indexed";
}

}  // namespace quarry::detail
