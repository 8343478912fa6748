#include "lib/input/article_limits.h"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <string_view>
#include <tuple>
#include <utility>

#include "lib/text/utf8_repair.h"
#include "quarry/input/article_reader.h"
#include "quarry/text/language_identifier.h"

namespace quarry::detail {
namespace {

int number(std::string_view digits) {
  int value = -1;
  std::from_chars(digits.data(), digits.data() + digits.size(), value);
  return value;
}

// "2017-12-10", or that followed by a time ("2017-12-10T15:01:01"), of a
// day that exists.
bool is_iso_date(std::string_view date) {
  if (date.size() < 10 || (date.size() > 10 && date[10] != 'T' && date[10] != ' ')) return false;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (date[i] < '0' || date[i] > '9') return false;
  }
  if (date[4] != '-' || date[7] != '-') return false;
  const std::chrono::year_month_day day{std::chrono::year{number(date.substr(0, 4))},
                                        std::chrono::month(number(date.substr(5, 2))),
                                        std::chrono::day(number(date.substr(8, 2)))};
  return day.ok();
}

// How far back from the limit a word boundary is looked for: longer than
// any word, short enough that little text is lost.
constexpr std::size_t kBoundarySearchBytes = 1024;

// How far back from a title's limit a space is looked for.
constexpr std::size_t kTitleBoundarySearchBytes = 128;

constexpr std::string_view kWhiteSpace = " \t\n";

bool is_ascii_space(char c) { return kWhiteSpace.find(c) != std::string_view::npos; }

// Cuts *value, the field `name`, to `max_bytes` where a character ends, or
// at the last space within `boundary_search` bytes before that. Returns
// the note for the cut, or "".
std::string cut_field(std::string_view name, std::size_t max_bytes, std::size_t boundary_search,
                      std::string* value) {
  if (value->size() <= max_bytes) return "";
  const std::size_t original_bytes = value->size();
  std::string_view kept = utf8_prefix(*value, max_bytes);
  const bool at_word_end = is_ascii_space((*value)[kept.size()]);
  const std::size_t space = kept.find_last_of(kWhiteSpace);
  if (!at_word_end && space != std::string_view::npos && space > 0 &&
      kept.size() - space <= boundary_search) {
    kept = kept.substr(0, space);
  }
  value->resize(kept.size());
  value->shrink_to_fit();
  return std::string(name) + " of " + std::to_string(original_bytes) + " bytes is longer than " +
         std::to_string(max_bytes) + ": only its first " + std::to_string(value->size()) +
         " bytes are kept";
}

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

std::string quote_value(std::string_view value) {
  const std::string_view quoted = utf8_prefix(value, kMaxQuotedBytes);
  return "'" + std::string(quoted) + (quoted.size() < value.size() ? "…'" : "'");
}

std::string refuse_long_id(std::string_view id) {
  if (id.size() <= kMaxIdBytes) return "";
  return "id " + quote_value(id) + " is " + std::to_string(id.size()) +
         " bytes long; an id may be " + std::to_string(kMaxIdBytes) + " bytes at most";
}

std::vector<std::string> cut_long_fields(Article* article) {
  std::vector<std::string> notes;
  for (auto [name, max_bytes, boundary_search, value] :
       {std::tuple{"title", kMaxTitleBytes, kTitleBoundarySearchBytes, &article->title},
        std::tuple{"category", kMaxLabelBytes, std::size_t{0}, &article->category},
        std::tuple{"source", kMaxLabelBytes, std::size_t{0}, &article->source}}) {
    if (std::string note = cut_field(name, max_bytes, boundary_search, value); !note.empty()) {
      notes.push_back(std::move(note));
    }
  }
  return notes;
}

std::string drop_bad_date(std::string* date) {
  if (date->empty() || (date->size() <= kMaxDateBytes && is_iso_date(*date))) return "";
  std::string note = "date " + quote_value(*date) +
                     " is not an ISO 8601 date (YYYY-MM-DD): the article is kept without it";
  date->clear();
  return note;
}

std::string normalize_language(std::string* language) {
  if (language->empty()) return "";
  std::string stemmer = stemmer_language(*language);
  if (!stemmer.empty()) {
    *language = std::move(stemmer);
    return "";
  }
  std::string note = "language " + quote_value(*language) +
                     " is not one Quarry can stem: the article's language is told from its text";
  language->clear();
  return note;
}

}  // namespace quarry::detail
