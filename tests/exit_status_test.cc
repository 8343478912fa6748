// The one mapping from what a program's run lets out to the line it says
// and the exit code its help documents, for exceptions that are not
// Quarry's: each ends the program with one line, not std::terminate.
#include "app/common/exit_status.h"

#include <gtest/gtest.h>
#include <xapian.h>

#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>

namespace quarry::testing {
namespace {

struct ForeignCase {
  std::string name;
  std::function<int()> body;
  std::string said;
};

TEST(ExitStatusTest, AForeignExceptionEndsWithOneLineAndExitCodeOne) {
  const ForeignCase cases[] = {
      {"bad_alloc", []() -> int { throw std::bad_alloc(); }, "prog: out of memory\n"},
      {"standard", []() -> int { throw std::logic_error("a broken invariant"); },
       "prog: unexpected error: a broken invariant\n"},
      {"xapian", []() -> int { throw Xapian::DatabaseCorruptError("a table ends early"); },
       "prog: unexpected error: DatabaseCorruptError: a table ends early\n"},
      {"unknown", []() -> int { throw 42; },
       "prog: unexpected error: an exception of a type Quarry does not know\n"},
  };
  for (const ForeignCase& c : cases) {
    std::ostringstream err;
    EXPECT_EQ(run_reporting_errors("prog", err, InputErrorIs::kUsage, c.body), kExitFailure)
        << c.name;
    EXPECT_EQ(err.str(), c.said) << c.name;
  }
}

}  // namespace
}  // namespace quarry::testing
