// A TREC run is for evaluation: it ranks 1,000 articles a query unless -n
// says otherwise, through the real quarry.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/child_process.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

class TrecRunDepth : public SharedIndexTest {
 protected:
  static void SetUpTestSuite() {
    std::vector<Article> articles;
    for (int n = 0; n < 25; ++n) {
      articles.push_back({"keeper-" + std::to_string(n), "Log " + std::to_string(n),
                          "The lighthouse keeper wrote entry " + std::to_string(n) + ".",
                          "2017-01-01", "", ""});
    }
    index_suite_articles(articles);
  }

  static std::size_t lines_of_run(const std::vector<std::string>& more) {
    std::vector<std::string> args{"--db", db_path(), "--batch", "-", "--format", "trec"};
    args.insert(args.end(), more.begin(), more.end());
    const RunResult run = run_program(QUARRY_BIN, args, "1\tlighthouse\n");
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return lines_of(run.out).size();
  }
};

TEST_F(TrecRunDepth, RanksEveryMatchUpToAThousandUnlessAsked) {
  EXPECT_EQ(lines_of_run({}), 25u);
  EXPECT_EQ(lines_of_run({"-n", "10"}), 10u);
}

}  // namespace
}  // namespace quarry::testing
