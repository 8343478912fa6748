#include "app/output.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/ansi.h"
#include "quarry/text/utf8.h"

namespace quarry {
namespace {

// Byte offset of the code point at `index`.
std::size_t byte_of(std::string_view text, std::size_t index) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (starts_code_point(text[i])) {
      if (seen == index) return i;
      ++seen;
    }
  }
  return text.size();
}

// The code point starting at text[*at], moving *at past it. Bytes that are
// not UTF-8 are taken one at a time, as U+FFFD.
char32_t next_code_point(std::string_view text, std::size_t* at) {
  const auto lead = static_cast<unsigned char>(text[(*at)++]);
  const int more = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0;
  if (lead >= 0x80 && more == 0) return 0xFFFD;
  char32_t code = more == 0 ? lead : lead & (0x3F >> more);
  for (int i = 0; i < more; ++i) {
    if (*at >= text.size() || starts_code_point(text[*at])) return 0xFFFD;
    code = (code << 6) | (static_cast<unsigned char>(text[(*at)++]) & 0x3F);
  }
  return code;
}

// East Asian Wide and Fullwidth characters and emoji (Unicode's UAX #11, in
// its main blocks), which terminals draw two columns wide.
bool is_wide(char32_t c) {
  return (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0x303E) ||
         (c >= 0x3041 && c <= 0x33FF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xA000 && c <= 0xA4CF) ||
         (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
         (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1F64F) ||
         (c >= 0x1F900 && c <= 0x1F9FF) || (c >= 0x20000 && c <= 0x3FFFD);
}

bool is_zero_width(char32_t c) {
  return c < 0x20 || (c >= 0x7F && c < 0xA0) || (c >= 0x300 && c <= 0x36F) || c == 0x200B ||
         c == 0x200D || (c >= 0xFE00 && c <= 0xFE0F);
}

}  // namespace

std::size_t display_width(std::string_view text) {
  std::size_t width = 0;
  for (std::size_t at = 0; at < text.size();) {
    if (text[at] == '\x1b' && at + 1 < text.size() && text[at + 1] == '[') {
      // A control sequence ends with its final byte, @ to ~.
      at += 2;
      while (at < text.size() && !(text[at] >= '@' && text[at] <= '~')) ++at;
      ++at;
      continue;
    }
    const char32_t c = next_code_point(text, &at);
    width += is_zero_width(c) ? 0 : is_wide(c) ? 2 : 1;
  }
  return width;
}

std::size_t screen_rows(std::string_view text, std::size_t columns) {
  std::size_t rows = 0;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::size_t width = display_width(text.substr(start, end - start));
    rows += columns == 0 || width == 0 ? 1 : (width + columns - 1) / columns;
    if (end == text.size()) break;
    start = end + 1;
  }
  return rows;
}

std::string wrap(std::string_view line, std::size_t width, std::string_view indent) {
  if (width == 0 || display_width(line) <= width) return std::string(line);
  std::string wrapped;
  std::size_t used = 0;  // columns of the line being filled
  bool line_has_word = false;
  for (std::size_t start = 0; start < line.size();) {
    const std::size_t space = std::min(line.find(' ', start), line.size());
    const std::string_view word = line.substr(start, space - start);
    const std::size_t word_width = display_width(word);
    if (line_has_word && used + 1 + word_width > width) {
      wrapped += '\n';
      wrapped += indent;
      used = display_width(indent);
      line_has_word = false;
    } else if (start > 0) {
      wrapped += ' ';
      ++used;
    }
    wrapped += word;
    used += word_width;
    // Leading spaces (an indent) are words of no width, not the start of a line's words.
    line_has_word = line_has_word || word_width > 0;
    start = space + 1;
  }
  return wrapped;
}

void write_highlighted(std::ostream& out, const Snippet& snippet, const TextStyle& style,
                       std::string_view style_around) {
  if (!style.color) {
    out << snippet.text;
    return;
  }
  std::size_t at = 0;
  for (const Highlight& highlight : snippet.highlights) {
    const std::size_t begin = byte_of(snippet.text, highlight.begin);
    const std::size_t end = byte_of(snippet.text, highlight.end);
    if (begin < at || end < begin) continue;
    out << std::string_view(snippet.text).substr(at, begin - at) << ansi::kMatch
        << std::string_view(snippet.text).substr(begin, end - begin) << ansi::kReset
        << style_around;
    at = end;
  }
  out << std::string_view(snippet.text).substr(at);
}

namespace {

// TREC runs are split on white space: ids and qids must hold none.
std::string without_spaces(std::string text) {
  for (char& c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') c = '_';
  }
  return text;
}

std::string format_score(double score, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, score);
  return buffer;
}

// 12345 → "12,345".
std::string with_thousands(std::size_t number) {
  const std::string digits = std::to_string(number);
  std::string text;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) text += ',';
    text += digits[i];
  }
  return text;
}

}  // namespace

std::string total_text(const SearchResult& result) {
  return with_thousands(result.total) + (result.total_exact ? "" : "+");
}

std::string count_text(const SearchResult& result) {
  if (result.total == 0) return "No articles match.";
  if (result.total == 1 && result.total_exact) return "1 article matches";
  std::string text = total_text(result) + " articles match";
  // Said only when stories group the matches.
  if (result.stories > 0 && result.stories < result.total) text += ", " + stories_text(result);
  return text;
}

std::string stories_text(const SearchResult& result) {
  return (result.stories_exact ? "" : "about ") + with_thousands(result.stories) +
         (result.stories == 1 ? " story" : " stories");
}

std::string more_reports_text(const Hit& hit) {
  if (hit.more_total == 0) return "";
  std::string text = "+" + with_thousands(hit.more_total) +
                     (hit.more_total == 1 ? " more report: " : " more reports: ");
  for (std::size_t i = 0; i < hit.more.size(); ++i) text += (i == 0 ? "" : ", ") + hit.more[i];
  if (hit.more.size() < hit.more_total) text += ", …";
  return text;
}

namespace {

// At most this many values of a facet are written as text; JSON has all.
constexpr std::size_t kFacetValuesShown = 10;

}  // namespace

void write_facets(std::ostream& out, const std::vector<Facet>& facets, const TextStyle& style) {
  for (const Facet& facet : facets) {
    out << "  " << facet_name(facet.field) << ':';
    if (facet.values.empty()) out << " none";
    for (std::size_t i = 0; i < facet.values.size() && i < kFacetValuesShown; ++i) {
      out << (i == 0 ? " " : " · ") << facet.values[i].value << ' ';
      if (style.color) out << ansi::kDim;
      out << with_thousands(facet.values[i].count);
      if (style.color) out << ansi::kReset;
    }
    if (facet.values.size() > kFacetValuesShown) {
      out << " · " << facet.values.size() - kFacetValuesShown << " more";
    }
    out << '\n';
  }
}

namespace {

// "id · date · source · category", as far as the article has them.
void write_origin(std::ostream& out, const Hit& hit, const TextStyle& style) {
  if (style.color) out << ansi::kDim;
  out << hit.id;
  for (const std::string* field : {&hit.date, &hit.source, &hit.category}) {
    if (!field->empty()) out << " · " << *field;
  }
  if (style.color) out << ansi::kReset;
}

void write_title(std::ostream& out, const Hit& hit, const TextStyle& style) {
  if (style.color) out << ansi::kBold;
  if (hit.title.empty()) {
    out << hit.id;
  } else {
    write_highlighted(out, Snippet{hit.title, hit.title_highlights}, style, ansi::kBold);
  }
  if (style.color) out << ansi::kReset;
}

}  // namespace

void write_text(std::ostream& out, const SearchResult& result, const TextStyle& style) {
  // Under a hit, lines start here.
  constexpr std::string_view kIndent = "   ";
  if (result.corrected) {
    out << "Showing results for " << result.suggestion << "; search instead for " << result.query
        << '\n';
  } else if (!result.suggestion.empty()) {
    out << "Did you mean: " << result.suggestion << '\n';
  }
  out << count_text(result) << '\n';
  write_facets(out, result.facets, style);
  for (const Hit& hit : result.hits) {
    std::ostringstream title;
    title << hit.rank << ". ";
    write_title(title, hit, style);
    title << "  [" << format_score(hit.score, 3) << "]";
    out << wrap(std::move(title).str(), style.width, kIndent) << '\n' << kIndent;
    write_origin(out, hit, style);
    out << '\n';
    if (!hit.snippet.text.empty()) {
      std::ostringstream snippet;
      snippet << kIndent;
      write_highlighted(snippet, hit.snippet, style);
      out << wrap(std::move(snippet).str(), style.width, kIndent) << '\n';
    }
    if (hit.more_total > 0) {
      out << "   ";
      if (style.color) out << ansi::kDim;
      out << more_reports_text(hit);
      if (style.color) out << ansi::kReset;
      out << '\n';
    }
    if (!hit.explanation.empty()) {
      out << "   score:";
      for (const Contribution& part : hit.explanation) {
        out << ' ' << part.part << '=' << format_score(part.weight, 3);
      }
      out << '\n';
    }
  }
}

namespace {

using Json = nlohmann::ordered_json;

std::string dump(const Json& json) {
  // Stored text is valid UTF-8; replacing guards against anything that is not.
  return json.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Json to_json(const std::vector<Highlight>& highlights) {
  Json json = Json::array();
  for (const Highlight& highlight : highlights) {
    Json range = Json::array();
    range.push_back(highlight.begin);
    range.push_back(highlight.end);
    json.push_back(std::move(range));
  }
  return json;
}

Json to_json(const std::vector<Facet>& facets) {
  Json json = Json::object();
  for (const Facet& facet : facets) {
    Json values = Json::array();
    for (const FacetValue& value : facet.values) values.push_back({value.value, value.count});
    json[std::string(facet_name(facet.field))] = std::move(values);
  }
  return json;
}

Json to_json(const SearchResult& result, const BatchFields& batch) {
  Json hits = Json::array();
  for (const Hit& hit : result.hits) {
    // Member by member: an initializer list would copy every value once more.
    Json entry = Json::object();
    entry["rank"] = hit.rank;
    entry["id"] = hit.id;
    entry["title"] = hit.title;
    entry["score"] = hit.score;
    entry["snippet"] = hit.snippet.text;
    entry["highlights"] = to_json(hit.snippet.highlights);
    entry["title_highlights"] = to_json(hit.title_highlights);
    if (!hit.date.empty()) entry["date"] = hit.date;
    if (!hit.source.empty()) entry["source"] = hit.source;
    if (!hit.category.empty()) entry["category"] = hit.category;
    if (hit.more_total > 0) {
      Json story = Json::object();
      story["id"] = hit.story;
      story["more"] = hit.more;
      story["more_count"] = hit.more_total;
      entry["story"] = std::move(story);
    }
    if (!hit.explanation.empty()) {
      Json parts = Json::array();
      for (const Contribution& part : hit.explanation) {
        parts.push_back({{"part", part.part}, {"weight", part.weight}});
      }
      entry["explain"] = std::move(parts);
    }
    hits.push_back(std::move(entry));
  }
  Json json = Json::object();
  if (batch.qid) json["qid"] = *batch.qid;
  json["query"] = result.query;
  json["total"] = result.total;
  json["total_relation"] = result.total_exact ? "eq" : "gte";
  json["stories"] = result.stories;
  json["stories_relation"] = result.stories_exact ? "eq" : "about";
  json["hits"] = std::move(hits);
  if (!result.facets.empty()) json["facets"] = to_json(result.facets);
  if (!result.notes.empty()) json["notes"] = result.notes;
  if (!result.warnings.empty()) json["warnings"] = result.warnings;
  if (!result.suggestion.empty()) json["suggestion"] = result.suggestion;
  if (result.corrected) json["corrected"] = true;
  if (batch.took_ms) json["took_ms"] = *batch.took_ms;
  return json;
}

}  // namespace

void write_json(std::ostream& out, const SearchResult& result, const BatchFields& batch) {
  out << dump(to_json(result, batch)) << '\n';
}

void write_json_error(std::ostream& out, const std::string& qid, std::string_view query,
                      std::string_view error) {
  Json json = Json::object();
  json["qid"] = qid;
  json["query"] = query;
  json["error"] = error;
  out << dump(json) << '\n';
}

void write_trec(std::ostream& out, const std::string& qid, const SearchResult& result,
                const std::string& tag) {
  const std::string topic = without_spaces(qid);
  for (const Hit& hit : result.hits) {
    // Evaluation tools rank by score: keep enough digits to keep ties rare.
    out << topic << " Q0 " << without_spaces(hit.id) << ' ' << hit.rank << ' '
        << format_score(hit.score, 6) << ' ' << tag << '\n';
  }
}

}  // namespace quarry
