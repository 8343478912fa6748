// Options common to quarry and its subcommands may be given before the
// subcommand or after it, as git and cargo take them, through the real
// program; one the subcommand does not take is named.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/child_process.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

class SubcommandOptions : public SharedIndexTest {
 protected:
  static void SetUpTestSuite() {
    index_suite_articles({{"oil.txt", "Oil", "OPEC raised its oil quota.", "1987-03-01", "", ""}});
  }
  static RunResult quarry(const std::vector<std::string>& args) {
    return run_program(QUARRY_BIN, args);
  }
};

TEST_F(SubcommandOptions, CommonOptionsGoBeforeOrAfterTheSubcommand) {
  const RunResult added = quarry({"--db", db_path(), "alert", "add", "opec", "OPEC"});
  ASSERT_EQ(added.exit_code, 0) << added.err;
  const RunResult before = quarry({"--db", db_path(), "alert", "list"});
  EXPECT_EQ(before.exit_code, 0) << before.err;
  EXPECT_EQ(before.out, "opec OPEC\n");
  EXPECT_EQ(quarry({"alert", "list", "--db", db_path()}).out, before.out);
  // quarry alerts reads the index named before it, not the default one.
  const RunResult alerts = quarry({"--db", db_path(), "alerts"});
  EXPECT_EQ(alerts.exit_code, 0) << alerts.err;
  EXPECT_EQ(alerts.err, "");
  const RunResult removed = quarry({"--db", db_path(), "alert", "remove", "opec"});
  EXPECT_EQ(removed.exit_code, 0) << removed.err;
  EXPECT_EQ(quarry({"alert", "list", "--db", db_path()}).out, "");
}

TEST_F(SubcommandOptions, AnOptionTheSubcommandDoesNotTakeIsNamed) {
  const RunResult result = quarry({"-n", "5", "alert", "list", "--db", db_path()});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err,
            "quarry: alert list does not take --limit (quarry --help lists the options)\n");
}

}  // namespace
}  // namespace quarry::testing
