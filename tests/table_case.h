// The row of a table-driven test: what goes in, and what must come out.
// A test loops over its table, naming each row's input on failure, so
// that every row can fail on its own.
#ifndef QUARRY_TESTS_TABLE_CASE_H_
#define QUARRY_TESTS_TABLE_CASE_H_

#include <string>

namespace quarry::testing {

template <typename Input, typename Expected = Input>
struct Case {
  Input input;
  Expected expected;
};

// Text in, text out: the commonest table.
using TextCase = Case<std::string>;

// Text and one setting of what is done with it in (a flag, a width), and
// what must come out.
template <typename Setting, typename Expected = std::string>
struct SettingCase {
  std::string input;
  Setting setting;
  Expected expected;
};

}  // namespace quarry::testing

#endif  // QUARRY_TESTS_TABLE_CASE_H_
