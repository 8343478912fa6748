#include "app/common/http_query.h"

#include <algorithm>

#include "app/common/option_reader.h"
#include "app/common/option_rules.h"
#include "app/common/value_parsers.h"
#include "quarry/text/utf8.h"

namespace quarry {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
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
  // The engine would repair such text; a client that sends it has a bug
  // worth telling it about.
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
      if (known.empty()) throw HttpError(400, "unknown parameter " + name + " (this takes none)");
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
  const std::optional<std::size_t> value = parse_whole_number(*text);
  if (!value || *value < min || *value > max) {
    throw HttpError(400, "parameter " + std::string(name) + " must be a whole number from " +
                             std::to_string(min) + " to " + std::to_string(max));
  }
  return *value;
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
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> all{"q"};
    for (const SearchOption& option : search_option_table()) {
      if (!option.http.empty()) all.push_back(option.http);
    }
    return all;
  }();
  return names;
}

namespace {

// The option's value as the parameter gives it: a flag's parameter may say
// the opposite (snippets=false for --no-snippets).
OptionValue parameter_value(const SearchOption& option, std::string_view text) {
  OptionValue value = read_option_value(option, text, kHttpNaming);
  if (option.kind == ValueKind::kFlag) return std::get<bool>(value) != option.http_negated;
  return value;
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
  QuarryOptions options;
  try {
    for (const SearchOption& option : search_option_table()) {
      if (option.http.empty()) continue;
      const std::optional<std::string_view> text = parameters.get(option.http);
      if (!text) continue;
      set_option(option, parameter_value(option, *text), options, kHttpNaming);
    }
    resolve_search(options, kHttpNaming);
  } catch (const OptionError& error) {
    throw HttpError(400, error.what());
  }
  request.options = std::move(options.session.search);
  return request;
}

SearchRequest parse_search_request(const HttpTarget& target) {
  return search_request_from(Parameters(target.parameters, search_parameter_names()));
}

}  // namespace quarry
