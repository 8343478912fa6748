// Stories as the quarry program shows them (see story_linker_test.cc for
// how they are formed).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/test_util.h"

namespace quarry {
namespace {

using testing::lines_of;
using testing::run_program;
using testing::RunResult;
using Json = nlohmann::json;

constexpr char kFirst[] = "000_574c536d11495eda.txt";
constexpr char kQuery[] = "penalty Herrera";

class StoryCli : public testing::SharedIndexTest {
 protected:
  static RunResult quarry(std::vector<std::string> args, const std::string& input = "") {
    args.insert(args.begin(), {"--db", db_path(), "--color", "never"});
    return run_program(QUARRY_BIN, args, input);
  }
  static Json json_of(std::vector<std::string> args) {
    args.insert(args.begin(), {"--format", "json"});
    const RunResult run = quarry(args);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return Json::parse(run.out);
  }
};

TEST_F(StoryCli, JsonShowsTheStoryOnceWithItsOtherReports) {
  const Json answer = json_of({kQuery});
  EXPECT_EQ(answer["total"], 3);
  EXPECT_EQ(answer["stories"], 1);
  EXPECT_EQ(answer["stories_relation"], "eq");
  ASSERT_EQ(answer["hits"].size(), 1U);
  const Json& story = answer["hits"][0]["story"];
  EXPECT_EQ(story["id"], kFirst);
  ASSERT_EQ(story["more"].size(), 2U);
  EXPECT_EQ(story["more_count"], 2);
  EXPECT_LT(story["more"][0].get<std::string>(), story["more"][1].get<std::string>());
}

TEST_F(StoryCli, TextListsTheOtherReportsUnderTheHit) {
  const Json answer = json_of({kQuery});
  const Json& more = answer["hits"][0]["story"]["more"];
  const RunResult run = quarry({kQuery});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<std::string> lines = lines_of(run.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "3 articles match, 1 story");
  const std::string expected =
      "   +2 more reports: " + more[0].get<std::string>() + ", " + more[1].get<std::string>();
  EXPECT_NE(std::find(lines.begin(), lines.end(), expected), lines.end()) << run.out;
}

TEST_F(StoryCli, CollapseNoneTrecAndPlainShowEveryArticle) {
  const Json none = json_of({"--collapse", "none", kQuery});
  EXPECT_EQ(none["hits"].size(), 3U);
  EXPECT_EQ(none["stories"], 3);
  for (const Json& hit : none["hits"]) EXPECT_FALSE(hit.contains("story"));
  EXPECT_EQ(json_of({"--plain", kQuery})["hits"].size(), 3U);
  EXPECT_EQ(json_of({"--collapse", "duplicates", kQuery})["hits"].size(), 3U);
  const RunResult trec = quarry({"--batch", "-", "--format", "trec"}, std::string("q1\t") + kQuery);
  ASSERT_EQ(trec.exit_code, 0) << trec.err;
  EXPECT_EQ(lines_of(trec.out).size(), 3U);
  const RunResult text = quarry({"--collapse", "none", kQuery});
  EXPECT_EQ(lines_of(text.out)[0], "3 articles match");
  EXPECT_EQ(text.out.find("more report"), std::string::npos);
}

TEST_F(StoryCli, BadCollapseIsAUsageError) {
  const RunResult run = quarry({"--collapse", "stories", kQuery});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--collapse"), std::string::npos) << run.err;
}

TEST_F(StoryCli, PromptOpensTheOtherReports) {
  const Json answer = json_of({kQuery});
  const RunResult run = quarry({"-i"}, std::string(kQuery) + "\n:story 1\n:story 9\n");
  EXPECT_EQ(run.exit_code, 2) << run.err;  // one bad command
  EXPECT_NE(run.out.find("2 more reports of " + answer["hits"][0]["id"].get<std::string>()),
            std::string::npos)
      << run.out;
  for (const Json& id : answer["hits"][0]["story"]["more"]) {
    EXPECT_NE(run.out.find("    " + id.get<std::string>()), std::string::npos) << run.out;
  }
  EXPECT_NE(run.err.find("no hit 9"), std::string::npos) << run.err;
}

// Three reports of one story, counted to one: an estimate scaled to the
// three would say "1+ articles match, about 2 stories".
TEST_F(StoryCli, PastTheCountLimitTheStoriesAreNoMoreThanTheArticles) {
  const Json answer = json_of({"--count-limit", "1", "-n", "1", kQuery});
  EXPECT_EQ(answer["total"], 1);
  EXPECT_EQ(answer["total_relation"], "gte");
  EXPECT_EQ(answer["stories"], 1);
  EXPECT_EQ(answer["stories_relation"], "about");
  const RunResult run = quarry({"--count-limit", "1", "-n", "0", kQuery});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "1+ articles match\n");
}

TEST_F(StoryCli, PagePastTheLastHitSaysSo) {
  struct Case {
    std::vector<std::string> args;
    std::string said;  // the line after the count; "" for none
  };
  const std::vector<Case> cases = {
      {{"--offset", "5000"}, "No hits here: the page starts at 5,001, past the last of 1 story."},
      {{"--offset", "1"}, "No hits here: the page starts at 2, past the last of 1 story."},
      {{"--offset", "3", "--collapse", "none"},
       "No hits here: the page starts at 4, past the last of 3 articles."},
      {{"--offset", "2", "--collapse", "none"}, "3. "},
      {{"--offset", "2", "--collapse", "none", "-n", "0"}, ""},
      {{"-n", "0"}, ""},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = c.args;
    args.push_back(kQuery);
    const RunResult run = quarry(args);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const std::vector<std::string> lines = lines_of(run.out);
    ASSERT_FALSE(lines.empty());
    if (c.said.empty()) {
      EXPECT_EQ(lines.size(), 1U) << run.out;
    } else {
      ASSERT_GE(lines.size(), 2U) << run.out;
      EXPECT_EQ(lines[1].substr(0, c.said.size()), c.said) << run.out;
    }
  }
}

TEST_F(StoryCli, PromptNextStopsAtTheLastStory) {
  const RunResult run = quarry({"-i"}, std::string(":limit 1\n") + kQuery + "\n:next\n");
  EXPECT_EQ(run.exit_code, 2) << run.err;  // one command refused
  EXPECT_NE(run.err.find("no more hits"), std::string::npos) << run.err;
  EXPECT_EQ(run.out.find("3 articles match"), run.out.rfind("3 articles match")) << run.out;
}

// The sample articles and a lightly edited copy of the first: four
// articles of one story, in three groups of near-duplicates.
class DuplicateCli : public StoryCli {
 protected:
  static void SetUpTestSuite() {
    const std::filesystem::path in = suite_dir() / "in";
    std::filesystem::create_directories(in);
    for (const auto& entry : std::filesystem::directory_iterator(QUARRY_CORPUS_DIR)) {
      std::filesystem::copy_file(entry.path(), in / entry.path().filename());
    }
    std::string copy = testing::read_file(in / kFirst);
    copy.replace(copy.find("reportedly"), 10, "allegedly");
    testing::write_file(in / "003_copy.txt", copy + "\nMore follows.\n");
    index_suite_paths({in.string()});
  }
};

constexpr char kCopiesQuery[] = "Mourinho Ederson";

TEST_F(DuplicateCli, GroupsOfNearDuplicatesAreNotCalledStories) {
  const RunResult text = quarry({"--collapse", "duplicates", "-n", "0", kCopiesQuery});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(lines_of(text.out)[0], "4 articles match, 3 near-duplicate groups");
  const Json groups = json_of({"--collapse", "duplicates", kCopiesQuery});
  EXPECT_EQ(groups["total"], 4);
  EXPECT_EQ(groups["groups"], 3);
  EXPECT_EQ(groups["groups_relation"], "eq");
  EXPECT_FALSE(groups.contains("stories")) << groups;
  EXPECT_EQ(groups["hits"].size(), 3U);

  EXPECT_EQ(lines_of(quarry({"-n", "0", kCopiesQuery}).out)[0], "4 articles match, 1 story");
  const Json stories = json_of({kCopiesQuery});
  EXPECT_EQ(stories["stories"], 1);
  EXPECT_FALSE(stories.contains("groups")) << stories;
}

}  // namespace
}  // namespace quarry
