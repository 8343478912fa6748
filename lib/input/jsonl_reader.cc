#include "lib/input/jsonl_reader.h"

#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "lib/input/article_limits.h"
#include "lib/input/text_article.h"
#include "lib/text/utf8_repair.h"
#include "quarry/input/title.h"

namespace quarry::detail {

namespace {

using nlohmann::json;

constexpr std::size_t kChunkBytes = 256 * 1024;
// zlib's own default buffer size.
constexpr std::size_t kMinChunkBytes = 8 * 1024;

// Parser messages are cut to this length for a one-line reason.
constexpr std::size_t kMaxMessageBytes = 160;

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

struct GzCloser {
  void operator()(gzFile file) const { gzclose(file); }
};
using GzFile = std::unique_ptr<gzFile_s, GzCloser>;

// Built field by field: GCC 12 warns of uninitialized strings in a braced
// temporary ReadProblem at -O2.
void report(ArticleSink& sink, const SourceLocation& where, std::string reason,
            bool skipped = true) {
  ReadProblem problem;
  problem.where = where;
  problem.reason = std::move(reason);
  problem.skipped = skipped;
  sink.on_problem(problem);
}

std::string describe_gz_error(int code) {
  switch (code) {
    case Z_BUF_ERROR:
      return "truncated gzip stream";
    case Z_DATA_ERROR:
      return "corrupt gzip stream";
    case Z_MEM_ERROR:
      return "out of memory while decompressing";
    case Z_ERRNO:
      return "cannot read: " + std::generic_category().message(errno);
    default:
      return "cannot read: zlib error " + std::to_string(code);
  }
}

// How much to read at a time from `fd`: kChunkBytes, or less for a smaller
// file, so that a corpus of a few lines (tests and fuzzing read thousands)
// does not allocate and clear buffers of a quarter megabyte each. It sets
// only how much a read asks for, never what is read.
std::size_t chunk_bytes_for(int fd) {
  struct stat status;
  if (fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) return kChunkBytes;
  return std::clamp(static_cast<std::size_t>(status.st_size), kMinChunkBytes, kChunkBytes);
}

// Splits a stream into lines of any length, reading it in chunks.
class LineReader {
 public:
  LineReader(gzFile file, std::size_t chunk_bytes) : file_(file), buffer_(chunk_bytes) {}

  // Reads the next line, without its line break, into *line. Returns false
  // at the end of the stream and when reading fails (see error()); a last
  // line without a line break counts only if the stream ended cleanly.
  // Sets *too_long (and leaves *line empty) for a line over kMaxLineBytes.
  bool next(std::string* line, bool* too_long);

  // Why reading stopped before the end, or empty.
  const std::string& error() const { return error_; }

 private:
  bool fill();

  gzFile file_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  bool done_ = false;
  std::string error_;
};

bool LineReader::next(std::string* line, bool* too_long) {
  line->clear();
  *too_long = false;
  bool started = false;
  while (begin_ < end_ || fill()) {
    started = true;
    const char* start = buffer_.data() + begin_;
    const std::size_t available = end_ - begin_;
    const auto* newline = static_cast<const char*>(std::memchr(start, '\n', available));
    const std::size_t length = newline != nullptr ? newline - start : available;
    if (!*too_long && line->size() + length > kMaxLineBytes) {
      *too_long = true;
      line->clear();
      line->shrink_to_fit();
    }
    if (!*too_long) line->append(start, length);
    begin_ += length;
    if (newline != nullptr) {
      ++begin_;
      return true;
    }
  }
  return started && error_.empty();
}

bool LineReader::fill() {
  if (done_) return false;
  begin_ = end_ = 0;
  const int count = gzread(file_, buffer_.data(), static_cast<unsigned>(buffer_.size()));
  if (count > 0) {
    end_ = static_cast<std::size_t>(count);
    return true;
  }
  done_ = true;
  // A stream cut short reads as a clean end; only gzerror() tells.
  int code = Z_OK;
  gzerror(file_, &code);
  if (count < 0 || code != Z_OK) error_ = describe_gz_error(code);
  return false;
}

// nlohmann's messages read "[json.exception.parse_error.101] parse error at
// line 1, column 9: syntax error while parsing value - invalid literal; last
// read: '...'". The line is reported apart, and the last token read may be a
// whole article body.
// nlohmann's message without its "[json.exception…]" prefix and the
// context it quotes, after `reason`, at most kMaxMessageBytes of it.
std::string describe_json_error(std::string reason, const json::exception& error) {
  std::string_view message = error.what();
  const std::size_t bracket = message.find("] ");
  if (bracket != std::string_view::npos) message.remove_prefix(bracket + 2);
  const std::size_t colon = message.find(": ");
  if (colon != std::string_view::npos) message.remove_prefix(colon + 2);
  message = message.substr(0, message.find("; last read"));
  const std::string_view shortened = utf8_prefix(message, kMaxMessageBytes);
  reason += shortened;
  if (shortened.size() < message.size()) reason += "…";
  return reason;
}

std::string describe_parse_error(const json::parse_error& error) {
  return describe_json_error("malformed JSON at column " + std::to_string(error.byte) + ": ",
                             error);
}

// Raised apart from syntax errors: a number beyond a double's range.
std::string describe_out_of_range(const json::out_of_range& error) {
  return describe_json_error("malformed JSON: ", error);
}

// Moves the string field `name` of `object` into *value, unless absent or
// null. Returns false when it is there but not a string.
bool take_string(json& object, const char* name, std::string* value) {
  const auto field = object.find(name);
  if (field == object.end() || field->is_null()) return true;
  if (!field->is_string()) return false;
  *value = std::move(field->get_ref<std::string&>());
  return true;
}

std::string must_be_string(const char* name) {
  return std::string("field \"") + name + "\" must be a string";
}

// Fills *article from `object`; returns why it cannot, or "" when it can.
std::string to_article(json& object, Article* article) {
  if (!object.is_object()) return "not a JSON object";
  if (!take_string(object, "id", &article->id) || article->id.empty()) {
    return "field \"id\" must be a non-empty string";
  }
  if (std::string reason = refuse_long_id(article->id); !reason.empty()) return reason;
  const auto body = object.find("body");
  if (body == object.end() || !body->is_string()) return must_be_string("body");
  article->body = std::move(body->get_ref<std::string&>());
  for (const auto& [name, value] :
       {std::pair{"title", &article->title}, std::pair{"date", &article->date},
        std::pair{"category", &article->category}, std::pair{"source", &article->source},
        std::pair{"language", &article->language}}) {
    if (!take_string(object, name, value)) return must_be_string(name);
  }
  if (trim_white_space(article->title).empty()) {
    if (trim_white_space(article->body).empty()) return "empty article";
    // Some corpora leave titles empty; the body stays as given.
    article->title = derive_title(article->body, nullptr);
  }
  return "";
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The UTF-16 code unit of the escape "\uXXXX" at `at`, or -1.
long code_unit_at(std::string_view text, std::size_t at) {
  if (at + 6 > text.size() || text[at] != '\\' || text[at + 1] != 'u') return -1;
  long unit = 0;
  for (std::size_t i = at + 2; i < at + 6; ++i) {
    const int digit = hex_digit(text[i]);
    if (digit < 0) return -1;
    unit = unit * 16 + digit;
  }
  return unit;
}

// Replaces each \u escape of a lone surrogate (a high one not followed by a
// low one, or a low one alone), which nlohmann rejects, by "\ufffd" of the
// same length, so that column numbers stay true. Returns how many. Text
// written by tools that treat strings as UTF-16 (JavaScript, Java) can hold
// them, cut in the middle of an emoji, say.
std::size_t repair_lone_surrogate_escapes(std::string* line) {
  std::size_t repaired = 0;
  for (std::size_t i = line->find('\\'); i != std::string::npos; i = line->find('\\', i)) {
    const long unit = code_unit_at(*line, i);
    if (unit < 0) {
      i += 2;  // some other escape, or "\\"
      continue;
    }
    const bool high = unit >= 0xD800 && unit <= 0xDBFF;
    const bool low = unit >= 0xDC00 && unit <= 0xDFFF;
    if (high) {
      const long next = code_unit_at(*line, i + 6);
      if (next >= 0xDC00 && next <= 0xDFFF) {
        i += 12;
        continue;
      }
    }
    if (high || low) {
      line->replace(i, 6, "\\ufffd");
      ++repaired;
    }
    i += 6;
  }
  return repaired;
}

// Parses one line into *object; returns why it cannot, or "". Counts the
// lone surrogates repaired on the way in *surrogates.
std::string parse_object(std::string& line, json* object, std::size_t* surrogates) {
  try {
    *object = json::parse(line);
    return "";
  } catch (const json::parse_error& error) {
    *surrogates = repair_lone_surrogate_escapes(&line);
    if (*surrogates == 0) return describe_parse_error(error);
  } catch (const json::out_of_range& error) {
    return describe_out_of_range(error);
  }
  try {
    *object = json::parse(line);
    return "";
  } catch (const json::parse_error& error) {
    return describe_parse_error(error);
  } catch (const json::out_of_range& error) {
    return describe_out_of_range(error);
  }
}

}  // namespace

void read_jsonl_line(std::string line, const SourceLocation& where, ArticleSink& sink) {
  if (where.line == 1 && line.starts_with(kByteOrderMark)) line.erase(0, kByteOrderMark.size());
  if (trim_white_space(line).empty()) return;
  // nlohmann rejects invalid UTF-8 inside strings, which would lose the
  // whole article for one stray byte.
  const std::size_t invalid_utf8 = count_invalid_utf8(line);
  if (invalid_utf8 > 0) line = repair_utf8(line);

  json object;
  std::size_t surrogates = 0;
  if (std::string reason = parse_object(line, &object, &surrogates); !reason.empty()) {
    report(sink, where, std::move(reason));
    return;
  }
  line.clear();
  line.shrink_to_fit();

  Article article;
  if (std::string reason = to_article(object, &article); !reason.empty()) {
    report(sink, where, std::move(reason));
    return;
  }
  if (invalid_utf8 > 0) {
    report(sink, where, "invalid UTF-8 repaired (" + std::to_string(invalid_utf8) + " bytes)",
           false);
  }
  if (surrogates > 0) {
    report(sink, where, "lone surrogate escapes repaired (" + std::to_string(surrogates) + ")",
           false);
  }
  if (const std::size_t body_bytes = article.body.size(); cut_long_body(&article.body)) {
    report(sink, where, long_article_note(body_bytes), false);
  }
  if (std::string note = drop_bad_date(&article.date); !note.empty()) {
    report(sink, where, std::move(note), false);
  }
  if (std::string note = normalize_language(&article.language); !note.empty()) {
    report(sink, where, std::move(note), false);
  }
  for (std::string& note : cut_long_fields(&article)) report(sink, where, std::move(note), false);
  sink.on_article(std::move(article), where);
}

void report_too_long_line(const SourceLocation& where, ArticleSink& sink) {
  report(sink, where, "line longer than " + std::to_string(kMaxLineBytes >> 20) + " MiB");
}

void read_jsonl(int fd, const std::string& path, ArticleSink& sink) {
  const std::size_t chunk_bytes = chunk_bytes_for(fd);
  GzFile file(gzdopen(fd, "rb"));
  if (file == nullptr) {
    close(fd);
    report(sink, {path, 0}, "cannot read: out of memory");
    return;
  }
  gzbuffer(file.get(), static_cast<unsigned>(chunk_bytes));
  LineReader reader(file.get(), chunk_bytes);
  std::string line;
  std::size_t line_number = 0;
  bool too_long = false;
  while (!sink.should_stop() && reader.next(&line, &too_long)) {
    ++line_number;
    const SourceLocation where{path, line_number};
    if (too_long) {
      report_too_long_line(where, sink);
      continue;
    }
    read_jsonl_line(std::move(line), where, sink);
  }
  if (!reader.error().empty()) report(sink, {path, line_number + 1}, reader.error());
}

}  // namespace quarry::detail
