#include "lib/input/text_file_reader.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>
#include <utility>

#include "lib/input/article_file.h"
#include "lib/input/article_limits.h"
#include "lib/input/text_article.h"
#include "lib/text/utf8_repair.h"

namespace quarry::detail {
namespace {

std::string error_message(int error) { return std::generic_category().message(error); }

// Reads the rest of `fd`, but no more than `max_bytes`, into *contents;
// returns why it cannot, or "".
std::string read_all(int fd, std::size_t max_bytes, std::string* contents) {
  struct stat status;
  if (fstat(fd, &status) == 0 && status.st_size > 0) {
    contents->reserve(std::min(static_cast<std::size_t>(status.st_size), max_bytes));
  }
  char buffer[64 * 1024];
  while (contents->size() < max_bytes) {
    const ssize_t count = read(fd, buffer, std::min(sizeof buffer, max_bytes - contents->size()));
    if (count == 0) return "";
    if (count > 0) {
      contents->append(buffer, static_cast<std::size_t>(count));
    } else if (errno != EINTR) {
      return "cannot read: " + error_message(errno);
    }
  }
  return "";
}

// Enough of a long .txt file for a title line and a body of kMaxBodyBytes.
constexpr std::size_t kMaxTextFileBytes = kMaxBodyBytes + 64 * 1024;

}  // namespace

void read_text_file(int fd, const std::string& where, std::string id, ArticleSink& sink) {
  if (std::string reason = refuse_long_id(id); !reason.empty()) {
    report_problem(sink, where, std::move(reason));
    return;
  }
  std::string contents;
  // One byte more than is kept tells a file that long from a longer one.
  if (std::string error = read_all(fd, kMaxTextFileBytes + 1, &contents); !error.empty()) {
    report_problem(sink, where, std::move(error));
    return;
  }
  std::size_t file_bytes = contents.size();
  if (contents.size() > kMaxTextFileBytes) {
    struct stat status;
    if (fstat(fd, &status) == 0) file_bytes = static_cast<std::size_t>(status.st_size);
    // Cut where a sequence ends, or the cut would read as invalid UTF-8.
    contents.resize(utf8_prefix(contents, kMaxTextFileBytes).size());
  }
  TextArticle text = parse_text_article(std::move(id), std::move(contents));
  switch (text.kind) {
    case TextKind::kBinary:
      report_problem(sink, where, "binary file");
      return;
    case TextKind::kNotUtf8:
      report_problem(sink, where, "not UTF-8 text");
      return;
    case TextKind::kEmpty:
      report_problem(sink, where, "empty article", true, true);
      return;
    case TextKind::kArticle:
      break;
  }
  if (text.repaired_bytes > 0) {
    report_problem(sink, where,
                   "invalid UTF-8 repaired (" + std::to_string(text.repaired_bytes) + " bytes)",
                   false);
  }
  for (std::string& problem : text.header_problems)
    report_problem(sink, where, std::move(problem), false);
  for (std::string& note : cut_long_fields(&text.article)) {
    report_problem(sink, where, std::move(note), false);
  }
  if (cut_long_body(&text.article.body) || file_bytes > kMaxTextFileBytes) {
    report_problem(sink, where, long_article_note(file_bytes), false);
  }
  sink.on_article(std::move(text.article), {where, 0});
}

}  // namespace quarry::detail
