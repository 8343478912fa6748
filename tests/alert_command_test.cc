// quarry alert add, list and remove: saved searches kept with the index,
// checked before they are saved, and found by every program that opens it.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "app/common/saved_searches.h"
#include "quarry/text/utf8.h"
#include "tests/child_process.h"
#include "tests/test_util.h"

namespace quarry {
namespace {

namespace fs = std::filesystem;
using testing::ChildOptions;
using testing::ChildProcess;
using testing::lines_of;
using testing::read_file;
using testing::run_program;
using testing::RunResult;
using testing::TempDir;

class AlertCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    const RunResult built = run_program(QUARRY_INDEX_BIN, {"-q", "--db", db(), QUARRY_CORPUS_DIR});
    ASSERT_EQ(built.exit_code, 0) << built.err;
  }

  std::string db() const { return (dir_ / "index").string(); }

  RunResult alert(std::vector<std::string> args) const {
    args.insert(args.begin(), "alert");
    return run_program(QUARRY_BIN, args);
  }

  TempDir dir_;
};

TEST_F(AlertCommand, SavedSearchesAreListedAsTheyWouldBeTypedAgainAndRemovedByName) {
  ASSERT_EQ(alert({"add", "--db", db(), "opec", "OPEC", "quota", "--match", "any"}).exit_code, 0);
  const RunResult second =
      alert({"add", "--db", db(), "spring budget", "title:budget", "--language", "en"});
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_NE(second.out.find("saved search 'spring budget'"), std::string::npos) << second.out;

  const RunResult listed = alert({"list", "--db", db()});
  EXPECT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_EQ(lines_of(listed.out),
            (std::vector<std::string>{"opec 'OPEC quota' --match any",
                                      "'spring budget' title:budget --language en"}));

  // Kept with the index, where the live indexer reads them.
  const std::vector<SavedSearchEntry> kept = SavedSearchFile(db()).read();
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0], (SavedSearchEntry{"opec", "OPEC quota", {{"match", "any"}}}));

  const RunResult removed = alert({"remove", "--db", db(), "opec"});
  EXPECT_EQ(removed.exit_code, 0) << removed.err;
  EXPECT_EQ(lines_of(alert({"list", "--db", db(), "--json"}).out),
            (std::vector<std::string>{R"({"name":"spring budget","options":{"language":"en"},)"
                                      R"("query":"title:budget"})"}));
}

TEST_F(AlertCommand, SavingUnderANameAgainReplacesTheSearchInItsPlace) {
  ASSERT_EQ(alert({"add", "--db", db(), "a", "first"}).exit_code, 0);
  ASSERT_EQ(alert({"add", "--db", db(), "b", "second"}).exit_code, 0);
  const RunResult again = alert({"add", "--db", db(), "a", "third"});
  EXPECT_NE(again.out.find("replaced"), std::string::npos) << again.out;
  EXPECT_EQ(lines_of(alert({"list", "--db", db()}).out),
            (std::vector<std::string>{"a third", "b second"}));
}

TEST_F(AlertCommand, WhatCannotBeSavedIsAUsageErrorAndNothingIsSaved) {
  const std::vector<std::vector<std::string>> refused{
      {"add", "--db", db(), "dots", "..."},                           // no word
      {"add", "--db", db(), "bad", "word", "--language", "klingon"},  // no such language
      {"add", "--db", db(), "", "word"},                              // no name
      {"add", "--db", db(), "ranked", "word", "--sort", "newest"},    // not a filter's option
      {"remove", "--db", db(), "never-saved"},
  };
  for (const std::vector<std::string>& args : refused) {
    const RunResult result = alert(args);
    EXPECT_EQ(result.exit_code, 2) << args[3] << ": " << result.err;
    EXPECT_EQ(lines_of(result.err).size(), 1u) << result.err;
  }
  EXPECT_EQ(alert({"list", "--db", db()}).out, "");
  EXPECT_FALSE(fs::exists(dir_ / "index" / kSavedSearchesFile));
}

// saved-searches.json holds text: a name, query or option value that is
// not UTF-8 is refused before anything is written, and said on one line of
// text.
TEST_F(AlertCommand, WhatIsNotUtf8IsAUsageErrorAndNothingIsWritten) {
  ASSERT_EQ(alert({"add", "--db", db(), "opec", "OPEC"}).exit_code, 0);
  const std::string kept = read_file(dir_ / "index" / kSavedSearchesFile);
  const std::vector<std::vector<std::string>> refused{
      {"add", "--db", db(), "\xFF", "oil"},     {"add", "--db", db(), "caf\xE9", "oil"},
      {"add", "--db", db(), "oil", "oil \xFF"}, {"add", "--db", db(), "oil", "\xC0\xAF"},
      {"remove", "--db", db(), "\xFF"},
  };
  for (const std::vector<std::string>& args : refused) {
    const RunResult result = alert(args);
    const std::string what = ::testing::PrintToString(args);
    EXPECT_EQ(result.exit_code, 2) << what << ": " << result.err;
    EXPECT_EQ(lines_of(result.err).size(), 1u) << what << ": " << result.err;
    EXPECT_TRUE(is_valid_utf8(result.err)) << what << ": " << result.err;
    EXPECT_NE(result.err.find("not valid UTF-8"), std::string::npos) << what << ": " << result.err;
  }
  EXPECT_EQ(read_file(dir_ / "index" / kSavedSearchesFile), kept);
  EXPECT_FALSE(fs::exists(dir_ / "index" / (std::string(kSavedSearchesFile) + ".new")));
}

// What `quarry QUERY` warns of, `quarry alert add` refuses with that
// warning: an alert on a query read otherwise than written (as plain
// words) would fire on what no one asked for.
TEST_F(AlertCommand, AQueryASearchWouldWarnOfIsRefusedWithItsWarning) {
  for (const std::string query : {"oil AND", "oil NEAR/999999999 gas", "site:reuters oil"}) {
    const RunResult searched = run_program(QUARRY_BIN, {"--db", db(), "-n", "0", query});
    std::vector<std::string> warnings;
    for (const std::string& line : lines_of(searched.err)) {
      if (line.starts_with("quarry: warning: ")) warnings.push_back(line.substr(17));
    }
    ASSERT_EQ(warnings.size(), 1u) << query << ": " << searched.err;
    const RunResult refused = alert({"add", "--db", db(), "watch", query});
    EXPECT_EQ(refused.exit_code, 2) << query << ": " << refused.err;
    EXPECT_EQ(refused.err, "quarry: saved search 'watch' is not saved, as a search would warn: " +
                               warnings.front() + "\n")
        << query;
  }
  const RunResult two = alert({"add", "--db", db(), "watch", "site:x foo:y oil"});
  EXPECT_EQ(two.exit_code, 2) << two.err;
  EXPECT_TRUE(two.err.ends_with(" (and 1 more warning)\n")) << two.err;
  EXPECT_FALSE(fs::exists(dir_ / "index" / kSavedSearchesFile));

  // A query a search refuses (a filter that names what cannot be) is
  // refused as the search refuses it.
  for (const std::string query : {"after:garbage", "date:2017-99-99", "lang:xx oil"}) {
    const RunResult searched = run_program(QUARRY_BIN, {"--db", db(), "-n", "0", query});
    EXPECT_EQ(searched.exit_code, 2) << query;
    const RunResult refused = alert({"add", "--db", db(), "watch", query});
    EXPECT_EQ(refused.exit_code, 2) << query << ": " << refused.err;
    EXPECT_EQ(refused.err, searched.err) << query;
  }
  EXPECT_FALSE(fs::exists(dir_ / "index" / kSavedSearchesFile));

  // A query a search reads as written is saved.
  const RunResult searched = run_program(QUARRY_BIN, {"--db", db(), "-n", "0", "oil NEAR/5 gas"});
  EXPECT_EQ(searched.err, "");
  const RunResult saved = alert({"add", "--db", db(), "watch", "oil NEAR/5 gas"});
  EXPECT_EQ(saved.exit_code, 0) << saved.err;
}

// A file that cannot be written whole (here a file size limit, as a full
// disk would) leaves the saved searches as they were, and no new file
// beside them.
TEST_F(AlertCommand, AFileThatCannotBeWrittenLeavesNoNewFileBehind) {
  ASSERT_EQ(alert({"add", "--db", db(), "opec", "OPEC"}).exit_code, 0);
  const std::string kept = read_file(dir_ / "index" / kSavedSearchesFile);
  ChildOptions options;
  options.file_size_limit = kept.size();
  ChildProcess adding(QUARRY_BIN, {"alert", "add", "--db", db(), "oil", "oil"}, dir_.path(),
                      options);
  EXPECT_EQ(adding.wait(), std::optional<int>(1)) << adding.err();
  EXPECT_NE(adding.err().find("cannot write " + db() + "/" + kSavedSearchesFile + ": "),
            std::string::npos)
      << adding.err();
  EXPECT_EQ(read_file(dir_ / "index" / kSavedSearchesFile), kept);
  EXPECT_FALSE(fs::exists(dir_ / "index" / (std::string(kSavedSearchesFile) + ".new")));
}

TEST_F(AlertCommand, AnIndexThatIsNotThereIsAFailure) {
  const RunResult result = alert({"add", "--db", (dir_ / "nowhere").string(), "opec", "OPEC"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("nowhere"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace quarry
