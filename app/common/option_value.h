// What an option of either program takes, as its row in an option table
// says (quarry's search_option_table.h, quarry-index's
// app/indexing/index_option_table.h), and the value a front end read for it.
#ifndef QUARRY_APP_COMMON_OPTION_VALUE_H_
#define QUARRY_APP_COMMON_OPTION_VALUE_H_

#include <cstddef>
#include <string>
#include <variant>
#include <vector>

namespace quarry {

// What an option's value is.
enum class ValueKind {
  kFlag,    // none: the option is given or not
  kCount,   // a whole number, from `least`
  kNumber,  // a number, 0 or more
  kChoice,  // one of `values`
  kList,    // a comma-separated list (of `values`, or NAME=NUMBER)
  kText,    // a word (`values`, when there are some, are suggestions)
  kPath,    // a file or folder
  kPaths,   // a file or folder, given once for each
};

// A value as a front end read it, already of the option's kind and among
// its values: bool (kFlag), size_t (kCount), double (kNumber), string
// (kChoice, kList, kText, kPath) or strings (kPaths).
using OptionValue = std::variant<bool, std::size_t, double, std::string, std::vector<std::string>>;

// An option's value as the kind its row says it takes, for the rows' set().
namespace option_value {
inline const std::string& text(const OptionValue& value) { return std::get<std::string>(value); }
inline std::size_t count(const OptionValue& value) { return std::get<std::size_t>(value); }
inline double number(const OptionValue& value) { return std::get<double>(value); }
inline bool flag(const OptionValue& value) { return std::get<bool>(value); }
// A default for the help, as CLI11 writes numbers.
std::string number_text(double value);
}  // namespace option_value

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_OPTION_VALUE_H_
