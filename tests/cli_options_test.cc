// The programs' options: every error is one line named after the program,
// exit 2, nothing on standard output; a missing index names where it was
// looked for and how to build it; QUARRY_DB stands in for --db.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_fixture.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Weights that are not finite, or out of their range, would rank every
// match NaN and print an empty page: they are usage errors, on one line.
TEST_F(CliCorpusTest, WeightingParametersMustBeFiniteAndInRange) {
  std::vector<UsageErrorCase> cases = {
      {{"--bm25", "k1=nan,b=nan"}, "--bm25: ranking scheme bm25: b must be a number from 0 to 1"},
      {{"--bm25", "k1=1e308"}, "--bm25: ranking scheme bm25: k1 must be a number from 0 to 1000"},
      {{"--bm25", "k1=inf"}, "k1 must be a number from 0 to 1000"},
      {{"--bm25", "k1=-1"}, "k1 must be a number from 0 to 1000"},
      {{"--bm25", "b=1.5"}, "b must be a number from 0 to 1"},
      {{"--title-weight", "nan"}, "--title-weight"},
      {{"--title-weight", "inf"}, "--title-weight"},
      {{"--title-weight", "-1"}, "--title-weight"},
      {{"--feedback", "on,weight=nan"}, "--feedback"},
      {{"--feedback", "on,power=inf"}, "--feedback"},
  };
  for (UsageErrorCase& c : cases) c.args.push_back("penalty");
  for (const RunResult& result : expect_usage_errors(db(), cases)) {
    EXPECT_EQ(lines_of(result.err).size(), 1u) << result.err;
  }
  EXPECT_EQ(run_quarry(db(), {"--bm25", "k1=1000,b=1", "penalty"}).exit_code, 0);
  EXPECT_EQ(run_quarry(db(), {"--title-weight", "0.5", "penalty"}).exit_code, 0);
}

TEST_F(CliCorpusTest, CountOptionsAreChecked) {
  expect_usage_errors(db(), {
                                {{"--count"}, "--count"},
                                {{"--count", "--batch", "-", "x"}, "--count"},
                                {{"--count-limit", "0", "penalty"}, "--count-limit"},
                                {{"--facets", "source,author", "penalty"}, "'author'"},
                            });
  RunResult bad = run_quarry(db(), {"--strict", "--count", "Mourinho AND"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.out, "");
  EXPECT_EQ(lines_of(bad.err).size(), 1u) << bad.err;
  // Without --strict, its words are counted, with the warning a search gives.
  RunResult plain = run_quarry(db(), {"--count", "(Portuguese"});
  EXPECT_EQ(plain.out, "2\n");
  EXPECT_EQ(plain.err, run_quarry(db(), {"(Portuguese"}).err);
  EXPECT_EQ(plain.err,
            "quarry: warning: '(' is never closed (column 1); searched as plain words\n");
  EXPECT_EQ(run_quarry(db(), {"--count", "Portuguese"}).err, "");
}

// Every option error is one line named after the program, exit 2, and
// nothing on stdout; no option is accepted and then ignored.
TEST_F(CliCorpusTest, OptionErrorsAreOneLineAndExitTwo) {
  const std::vector<UsageErrorCase> cases = {
      {{"--bogus", "penalty"}, "--bogus"},
      {{"--format", "xml", "penalty"}, "xml"},
      {{"-n", "-1", "penalty"}, "--limit must be a whole number of 0 or more, not '-1'"},
      {{"-n", "18446744073709551616", "penalty"}, "from 0 to 18446744073709551615"},
      {{"-n", "3x", "--", "penalty"}, "3x"},
      {{"--offset", "-1", "penalty"}, "--offset"},
      {{"-j", "-3", "--batch", "-"}, "--threads"},
      {{"--count-limit", "0", "penalty"}, "--count-limit"},
      {{"--batch", "-", "oil"}, "'oil' would be ignored"},
      {{"-i", "oil"}, "'oil' would be ignored"},
      {{"-i", "--batch", "-"}, "-i"},
      {{"--format", "trec", "penalty"}, "--batch"},
      {{"--run-tag", "mine", "penalty"}, "--format trec"},
      {{"--batch", "-", "--run-tag", "mine"}, "--format trec"},
      {{"--batch", "-", "--format", "trec", "--run-tag", "my run"}, "one word"},
      {{"--language", "klingon", "penalty"}, "--language: no language 'klingon'"},
      {{"--recency", "7x", "penalty"}, "--recency: '7x' is not a half-life"},
      {{"--recency", "0d", "penalty"}, "'0d' is not a half-life"},
      {{"--as-of", "yesterday", "penalty"}, "--as-of: 'yesterday' is not a date"},
  };
  for (const RunResult& result : expect_usage_errors(db(), cases, "penalty\n")) {
    const std::vector<std::string> lines = lines_of(result.err);
    ASSERT_EQ(lines.size(), 1u) << result.err;
    EXPECT_TRUE(lines[0].starts_with("quarry: ")) << lines[0];
  }
  // The largest number there is, is a number.
  RunResult largest = run_quarry(db(), {"-n", "18446744073709551615", "-n0", "penalty"});
  EXPECT_EQ(largest.exit_code, 2) << "given twice";
  EXPECT_EQ(run_quarry(db(), {"-n", "18446744073709551615", "--offset", "1", "penalty"}).exit_code,
            0);
}

TEST(CliOptionsTest, BadOptionsAreUsageErrors) {
  TempDir dir;
  const std::string db = (dir / "index").string();
  const struct {
    std::string program;
    std::vector<std::string> args;
  } kCases[] = {
      {QUARRY_BIN, {"--bogus"}},
      {QUARRY_BIN, {"--db", db, "--format", "xml", "Ederson"}},
      {QUARRY_BIN, {"--db", db, "--color", "sometimes", "Ederson"}},
      {QUARRY_BIN, {"--db", db, "--limit", "many", "Ederson"}},
      {QUARRY_INDEX_BIN, {"--bogus", "x"}},
      {QUARRY_INDEX_BIN, {"--db", db}},  // no PATH
      {QUARRY_INDEX_BIN, {"--db", db, "--commit-every", "0", QUARRY_CORPUS_DIR}},
      {QUARRY_INDEX_BIN, {"--db", db, "--language", "klingon", QUARRY_CORPUS_DIR}},
  };
  for (const auto& c : kCases) {
    RunResult result = run_program(c.program, c.args);
    EXPECT_EQ(result.exit_code, 2) << c.program << " " << ::testing::PrintToString(c.args);
    EXPECT_FALSE(result.err.empty()) << c.program;
    EXPECT_EQ(result.out, "") << c.program;
    EXPECT_FALSE(fs::exists(db)) << "a usage error must not create the index: "
                                 << ::testing::PrintToString(c.args);
    fs::remove_all(db);
  }
}

TEST(CliOptionsTest, HelpDocumentsExitCodes) {
  for (const std::string program : {QUARRY_BIN, QUARRY_INDEX_BIN}) {
    RunResult result = run_program(program, {"--help"});
    EXPECT_EQ(result.exit_code, 0) << program;
    EXPECT_NE(result.out.find("Exit codes"), std::string::npos) << result.out;
    EXPECT_EQ(result.err, "") << program;
  }
}

TEST(CliSearchTest, MissingIndexIsRuntimeFailure) {
  TempDir dir;
  fs::create_directories(dir / "empty");
  for (const fs::path& db : {dir / "nowhere", dir / "empty"}) {
    RunResult result = run_quarry(db, {"Ederson"});
    EXPECT_EQ(result.exit_code, 1) << db;
    EXPECT_EQ(result.out, "");
    EXPECT_TRUE(result.err.starts_with("quarry: ")) << result.err;
    EXPECT_NE(result.err.find(db.string()), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("quarry-index"), std::string::npos) << result.err;
  }
}

TEST(CliSearchTest, AMissingIndexSuggestsACommandThatBuildsIt) {
  TempDir dir;
  fs::create_directories(dir / "empty");
  write_file(dir / "others" / "notes.md", "Not an index.");
  for (const fs::path& db : {dir / "nowhere", dir / "empty", dir / "others"}) {
    const RunResult result = run_quarry(db, {"Ederson"});
    EXPECT_EQ(result.exit_code, 1) << db;
    const std::size_t command = result.err.find(": quarry-index --db ");
    ASSERT_NE(command, std::string::npos) << result.err;
    // The suggestion, run as it says: FOLDER the articles, NEW-FOLDER a
    // folder of the user's choosing.
    std::istringstream words(result.err.substr(command + 2));
    std::vector<std::string> args;
    for (std::string word; words >> word;) {
      if (word == "FOLDER") word = QUARRY_CORPUS_DIR;
      if (word == "NEW-FOLDER") word = (dir / "new").string();
      args.push_back(word);
    }
    ASSERT_EQ(args.front(), "quarry-index") << result.err;
    args.erase(args.begin());
    const RunResult built = run_program(QUARRY_INDEX_BIN, args);
    EXPECT_EQ(built.exit_code, 0) << result.err << built.err;
    fs::remove_all(dir / "new");
  }
}

TEST(CliOptionsTest, QuarryDbEnvironmentVariableLocatesTheIndex) {
  TempDir dir;
  const std::string env = "QUARRY_DB=" + (dir / "index").string();
  RunResult indexed = run_program(QUARRY_INDEX_BIN, {QUARRY_CORPUS_DIR}, "", {env});
  ASSERT_EQ(indexed.exit_code, 0) << indexed.err;
  EXPECT_TRUE(fs::is_directory(dir / "index"));

  RunResult result =
      run_program(QUARRY_BIN, {"--collapse", "none", "--format", "json", "Ederson"}, "", {env});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(id_set(json::parse(result.out)), kAllArticles);

  // --db wins over the variable.
  RunResult elsewhere =
      run_program(QUARRY_BIN, {"--db", (dir / "nowhere").string(), "Ederson"}, "", {env});
  EXPECT_EQ(elsewhere.exit_code, 1) << elsewhere.err;
}

TEST_F(CliCorpusTest, AnUnreadableBatchFileIsNamedWithTheReason) {
  TempDir dir;
  const std::string missing = (dir / "nonexist.tsv").string();
  RunResult result = run_quarry(db(), {"--batch", missing});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err, "quarry: cannot read " + missing + ": No such file or directory\n");
  RunResult folder = run_quarry(db(), {"--batch", dir.path().string()});
  EXPECT_EQ(folder.exit_code, 1);
  EXPECT_EQ(folder.err, "quarry: cannot read " + dir.path().string() + ": Is a directory\n");
}

}  // namespace
}  // namespace quarry::testing
