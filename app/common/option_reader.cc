#include "app/common/option_reader.h"

#include <cmath>
#include <iomanip>
#include <sstream>
#include <vector>

#include "app/common/value_parsers.h"

namespace quarry {
namespace {

std::size_t most_count(const SearchOption& option, FrontEnd front_end) {
  return front_end == FrontEnd::kHttp ? std::min(option.most, option.http_most) : option.most;
}

const std::vector<std::string_view>& choices(const SearchOption& option, FrontEnd front_end) {
  if (front_end == FrontEnd::kPrompt && !option.prompt_values.empty()) return option.prompt_values;
  return option.values;
}

// "text or json"; "one of relevance, date, -date".
std::string choices_text(const std::vector<std::string_view>& values) {
  if (values.size() == 2) return std::string(values[0]) + " or " + std::string(values[1]);
  std::string text = "one of ";
  for (std::size_t i = 0; i < values.size(); ++i) {
    text += (i == 0 ? "" : ", ") + std::string(values[i]);
  }
  return text;
}

// A whole number too large to read says the largest, bounded or not.
std::string counts_taken(const SearchOption& option, FrontEnd front_end, bool too_large) {
  const std::size_t most = most_count(option, front_end);
  if (most == SIZE_MAX && !too_large) {
    return "a whole number of " + std::to_string(option.least) + " or more";
  }
  return "a whole number from " + std::to_string(option.least) + " to " + std::to_string(most);
}

std::string numbers_taken(const SearchOption& option) {
  if (option.largest == kNoLargest) return "a number of 0 or more";
  // Written out, as a reader would type it: 1000000, not 1e+06.
  std::ostringstream largest;
  largest << std::fixed << std::setprecision(0) << option.largest;
  return "a number from 0 to " + largest.str();
}

// Nothing when `text` is not what the option takes.
std::optional<OptionValue> read(const SearchOption& option, std::string_view text,
                                FrontEnd front_end) {
  switch (option.kind) {
    case ValueKind::kFlag:
      if (text == "true" || text == "1") return true;
      if (text == "false" || text == "0") return false;
      return std::nullopt;
    case ValueKind::kCount: {
      const std::optional<std::size_t> count = parse_whole_number(text);
      if (!count || *count < option.least || *count > most_count(option, front_end)) return {};
      return *count;
    }
    case ValueKind::kNumber: {
      const std::optional<double> number = parse_decimal(text);
      // Written so that NaN fails too.
      if (!number || !std::isfinite(*number) || !(*number >= 0 && *number <= option.largest)) {
        return std::nullopt;
      }
      return *number;
    }
    case ValueKind::kChoice:
      for (std::string_view choice : choices(option, front_end)) {
        if (choice == text) return std::string(text);
      }
      return std::nullopt;
    case ValueKind::kList:
    case ValueKind::kText:
    case ValueKind::kPath:
    case ValueKind::kPaths:
      return std::string(text);
  }
  return std::nullopt;
}

}  // namespace

std::string values_taken(const SearchOption& option, FrontEnd front_end) {
  switch (option.kind) {
    case ValueKind::kFlag:
      return "true or false";
    case ValueKind::kCount:
      return counts_taken(option, front_end, false);
    case ValueKind::kNumber:
      return numbers_taken(option);
    case ValueKind::kChoice:
      return choices_text(choices(option, front_end));
    default:
      return "";
  }
}

OptionValue read_option_value(const SearchOption& option, std::string_view text,
                              const OptionNaming& naming) {
  if (option.check) {
    const std::string why = option.check(text);
    if (!why.empty()) throw OptionError(naming.subject(option) + ": " + why);
  }
  if (std::optional<OptionValue> value = read(option, text, naming.front_end)) return *value;
  const std::optional<std::size_t> count = parse_whole_number(text);
  const bool too_large = is_digits(text) && (!count || *count > option.most);
  const std::string taken = option.kind == ValueKind::kCount
                                ? counts_taken(option, naming.front_end, too_large)
                                : values_taken(option, naming.front_end);
  throw OptionError(naming.subject(option) + " must be " + taken + ", not '" + std::string(text) +
                    "'");
}

}  // namespace quarry
