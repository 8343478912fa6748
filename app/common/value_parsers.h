// The one parser of each kind of number an option or a command takes, so
// that the command line, the HTTP API and the prompt read "10", "-1",
// "1e400" or "0x10" alike. Each reads the whole text and nothing else: no
// spaces, no sign on a whole number, no trailing unit.
#ifndef QUARRY_APP_COMMON_VALUE_PARSERS_H_
#define QUARRY_APP_COMMON_VALUE_PARSERS_H_

#include <cstddef>
#include <optional>
#include <string_view>

namespace quarry {

// A whole number: digits alone, up to std::size_t's largest; nothing for
// any other text, "-1" and one past the largest included.
std::optional<std::size_t> parse_whole_number(std::string_view text);

// Whether `text` is digits alone, however many: a whole number too large
// to read is one, for messages that say so.
bool is_digits(std::string_view text);

// A decimal number as std::from_chars reads it ("2", "-0.5", "1e3", and
// "nan" and "inf" too: callers bound it); nothing for other text.
std::optional<double> parse_decimal(std::string_view text);

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_VALUE_PARSERS_H_
