#include "app/http_query.h"

#include <algorithm>
#include <charconv>

#include "quarry/search/facet.h"
#include "quarry/search/feedback.h"
#include "quarry/search/ranking.h"

namespace quarry {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Well-formed UTF-8 as Unicode defines it: no overlong forms, no encoded
// surrogates, nothing past U+10FFFF. The engine would repair such text;
// a client that sends it has a bug worth telling it about.
bool is_valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t length = 0;
    char32_t code = 0;
    if (lead < 0x80) {
      ++i;
      continue;
    } else if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
      code = lead & 0x1F;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      code = lead & 0x0F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      code = lead & 0x07;
    } else {
      return false;
    }
    if (i + length > text.size()) return false;
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80) return false;
      code = (code << 6) | (next & 0x3F);
    }
    const char32_t smallest = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000;
    if (code < smallest || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return false;
    i += length;
  }
  return true;
}

}  // namespace

std::string percent_decode(std::string_view text, std::string_view what, bool plus_is_space) {
  std::string decoded;
  decoded.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%') {
      const bool complete = i + 2 < text.size();
      const int high = complete ? hex_value(text[i + 1]) : -1;
      const int low = complete ? hex_value(text[i + 2]) : -1;
      if (high < 0 || low < 0) {
        throw HttpError(400, std::string(what) + " has a malformed %-escape");
      }
      decoded += static_cast<char>(high * 16 + low);
      i += 2;
    } else if (text[i] == '+' && plus_is_space) {
      decoded += ' ';
    } else {
      decoded += text[i];
    }
  }
  if (!is_valid_utf8(decoded)) throw HttpError(400, std::string(what) + " is not valid UTF-8");
  if (decoded.find('\0') != std::string::npos) {
    throw HttpError(400, std::string(what) + " holds a NUL character");
  }
  return decoded;
}

HttpTarget parse_target(std::string_view target) {
  HttpTarget parsed;
  const std::size_t question = target.find('?');
  parsed.path = std::string(target.substr(0, question));
  if (question == std::string_view::npos) return parsed;
  std::string_view query = target.substr(question + 1);
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t equals = pair.find('=');
    std::string name = percent_decode(pair.substr(0, equals), "a parameter name", true);
    const std::string_view raw_value =
        equals == std::string_view::npos ? std::string_view() : pair.substr(equals + 1);
    std::string value = percent_decode(raw_value, "parameter " + name, true);
    parsed.parameters.emplace_back(std::move(name), std::move(value));
  }
  return parsed;
}

Parameters::Parameters(std::vector<std::pair<std::string, std::string>> parameters,
                       const std::vector<std::string_view>& known)
    : parameters_(std::move(parameters)) {
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    const std::string& name = parameters_[i].first;
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string names;
      for (std::string_view k : known) names += (names.empty() ? "" : ", ") + std::string(k);
      throw HttpError(400, "unknown parameter " + name + " (known: " + names + ")");
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (parameters_[j].first == name) throw HttpError(400, "parameter " + name + " given twice");
    }
  }
}

std::optional<std::string_view> Parameters::get(std::string_view name) const {
  for (const auto& [key, value] : parameters_) {
    if (key == name) return value;
  }
  return std::nullopt;
}

std::size_t Parameters::number(std::string_view name, std::size_t fallback, std::size_t min,
                               std::size_t max) const {
  const std::optional<std::string_view> text = get(name);
  if (!text) return fallback;
  std::size_t value = 0;
  const char* end = text->data() + text->size();
  const auto [at, error] = std::from_chars(text->data(), end, value);
  if (text->empty() || error != std::errc() || at != end || value < min || value > max) {
    throw HttpError(400, "parameter " + std::string(name) + " must be a whole number from " +
                             std::to_string(min) + " to " + std::to_string(max));
  }
  return value;
}

bool Parameters::flag(std::string_view name) const {
  const std::optional<std::string_view> text = get(name);
  if (!text) return false;
  if (*text == "true" || *text == "1") return true;
  if (*text == "false" || *text == "0") return false;
  throw HttpError(400, "parameter " + std::string(name) + " must be true or false");
}

std::string_view Parameters::choice(std::string_view name,
                                    const std::vector<std::string_view>& choices,
                                    std::string_view fallback) const {
  const std::optional<std::string_view> text = get(name);
  if (!text) return fallback;
  for (std::string_view choice : choices) {
    if (*text == choice) return choice;
  }
  std::string names;
  for (std::string_view c : choices) names += (names.empty() ? "" : ", ") + std::string(c);
  throw HttpError(400, "parameter " + std::string(name) + " must be one of " + names);
}

const std::vector<std::string_view>& search_parameter_names() {
  static const std::vector<std::string_view> names{
      "q",       "n",      "offset",       "sort",     "match",    "plain",
      "correct", "strict", "explain",      "snippets", "facets",   "count_limit",
      "weight",  "bm25",   "title_weight", "collapse", "feedback", "like"};
  return names;
}

namespace {

double parse_weight(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [at, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || at != end || !(value >= 0) || value > 1e6) {
    throw HttpError(400, "parameter title_weight must be a number from 0 to 1000000");
  }
  return value;
}

// Settles the ranking parameters as quarry's options do: --bm25 goes with
// a BM25 scheme, and the scheme must be one Xapian has.
void set_ranking(const Parameters& parameters, RankingConfig* ranking) {
  if (auto weight = parameters.get("weight")) ranking->scheme = std::string(*weight);
  if (auto bm25 = parameters.get("bm25")) {
    if (ranking->scheme != "bm25" && ranking->scheme != "bm25+") {
      throw HttpError(400, "parameter bm25 goes with weight bm25 or bm25+");
    }
    try {
      parse_ranking_parameters(*bm25, ranking);
    } catch (const ConfigError& error) {
      throw HttpError(400, std::string("parameter bm25: ") + error.what());
    }
  }
  try {
    check_ranking(*ranking);
  } catch (const ConfigError& error) {
    const char* name = parameters.get("bm25") ? "bm25" : "weight";
    throw HttpError(400, "parameter " + std::string(name) + ": " + error.what());
  }
}

}  // namespace

SearchRequest search_request_from(const Parameters& parameters) {
  SearchRequest request;
  const std::optional<std::string_view> like = parameters.get("like");
  const std::optional<std::string_view> query =
      like ? parameters.get("q").value_or("") : parameters.get("q");
  if (!query) throw HttpError(400, "parameter q (the query) is missing");
  if (query->size() > kMaxQueryBytes) {
    throw HttpError(400, "parameter q is longer than " + std::to_string(kMaxQueryBytes) + " bytes");
  }
  request.query = std::string(*query);
  SearchOptions& options = request.options;
  options.limit = parameters.number("n", options.limit, 0, kMaxHitsPerPage);
  options.offset = parameters.number("offset", options.offset, 0, kMaxOffset);
  const std::string_view sort = parameters.choice("sort", {"relevance", "date", "-date"}, "");
  options.sort = sort_named(sort).value_or(SortOrder::kRelevance);
  options.parser.match = parameters.choice("match", {"any", "all"}, "any") == "all"
                             ? MatchMode::kAll
                             : MatchMode::kAny;
  const bool plain = parameters.flag("plain");
  const std::string_view correct =
      parameters.choice("correct", {"never", "auto", "always"}, "auto");
  options.spelling.correct = correct == "never"    ? Correction::kNever
                             : correct == "always" ? Correction::kAlways
                                                   : Correction::kAuto;
  const std::string_view collapse =
      parameters.choice("collapse", {"story", "duplicates", "none"}, "story");
  options.collapse.by = collapse_named(collapse).value_or(Collapse::kStory);
  // As quarry's: plain-words runs are for evaluation, which never collapses.
  if (plain) options.collapse.by = Collapse::kNone;
  const bool strict = parameters.flag("strict");
  options.parse = plain    ? ParseMode::kPlain
                  : strict ? ParseMode::kStrict
                           : ParseMode::kQueryOrPlain;
  options.explain.enabled = parameters.flag("explain");
  options.snippets.enabled = !parameters.get("snippets") || parameters.flag("snippets");
  options.count_limit =
      parameters.number("count_limit", options.count_limit, 1, static_cast<std::size_t>(-1));
  if (auto facets = parameters.get("facets")) {
    try {
      options.facets.fields = parse_facet_fields(*facets);
    } catch (const ConfigError& error) {
      throw HttpError(400, std::string("parameter facets: ") + error.what());
    }
  }
  if (auto title_weight = parameters.get("title_weight")) {
    options.parser.title_weight = parse_weight(*title_weight);
  }
  set_ranking(parameters, &options.ranking);
  if (auto feedback = parameters.get("feedback")) {
    try {
      parse_feedback(*feedback, &options.feedback);
    } catch (const ConfigError& error) {
      throw HttpError(400, std::string("parameter feedback: ") + error.what());
    }
  }
  if (like) options.like.id = std::string(*like);
  return request;
}

SearchRequest parse_search_request(const HttpTarget& target) {
  return search_request_from(Parameters(target.parameters, search_parameter_names()));
}

}  // namespace quarry
