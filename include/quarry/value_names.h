// Names given to the values of an enum, as a table: options, JSON and
// messages read a value's name from one array, and a name's value back
// from the same array, so that neither direction is written twice.
#ifndef QUARRY_VALUE_NAMES_H_
#define QUARRY_VALUE_NAMES_H_

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace quarry {

// A value of an enum and the name it is given.
template <class Enum>
struct ValueName {
  Enum value;
  std::string_view name;
};

// The name of `value` in `names` (empty when it has none).
template <class Enum, std::size_t N>
constexpr std::string_view name_of(const ValueName<Enum> (&names)[N], Enum value) {
  for (const ValueName<Enum>& entry : names) {
    if (entry.value == value) return entry.name;
  }
  return {};
}

// The value named `name`, or nothing.
template <class Enum, std::size_t N>
constexpr std::optional<Enum> value_named(const ValueName<Enum> (&names)[N],
                                          std::string_view name) {
  for (const ValueName<Enum>& entry : names) {
    if (entry.name == name) return entry.value;
  }
  return std::nullopt;
}

// Every name, in order.
template <class Enum, std::size_t N>
std::vector<std::string_view> names_of(const ValueName<Enum> (&names)[N]) {
  std::vector<std::string_view> all;
  for (const ValueName<Enum>& entry : names) all.push_back(entry.name);
  return all;
}

}  // namespace quarry

#endif  // QUARRY_VALUE_NAMES_H_
