// quarry-index's option errors, through the real program: one line that
// names the program, the option and what it takes, and how to ask for more.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/child_process.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

constexpr const char* kHint =
    " (usage: quarry-index [OPTIONS] PATH...; quarry-index --help lists the options)\n";

TEST(IndexOptionErrors, SayWhatTheOptionTakesInOneLine) {
  const struct {
    std::vector<std::string> args;
    std::string error;
  } cases[] = {
      {{"--shards", "0", "corpus"}, "--shards must be a whole number of 1 or more, not '0'"},
      {{"--shards", "many", "corpus"}, "--shards must be a whole number of 1 or more, not 'many'"},
      {{"--changesets", "-1", "corpus"},
       "--changesets must be a whole number of 0 or more, not '-1'"},
      {{"--watch", "--wait=-2", "corpus"}, "--wait: a number of 0 or more, not '-2'"},
      {{}, "PATH is required"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(::testing::PrintToString(c.args));
    const RunResult result = run_program(QUARRY_INDEX_BIN, c.args);
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(result.err, "quarry-index: " + c.error + kHint);
  }
}

}  // namespace
}  // namespace quarry::testing
