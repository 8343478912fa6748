// A query that cannot be parsed is searched as plain words, with one line
// saying why; with --strict it is a usage error, explained in one line. A
// query too long, or one that reads as options, is refused saying how to
// write it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/cli_fixture.h"

namespace quarry::testing {
namespace {

using nlohmann::json;

TEST_F(CliCorpusTest, BadQueryIsSearchedAsPlainWords) {
  RunResult text = run_quarry(db(), {"(penalty"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(text.out.starts_with("3 articles match\n1. ")) << text.out;
  EXPECT_EQ(text.err, "quarry: warning: '(' is never closed (column 1); searched as plain words\n");

  const json result = search_json("Mourinho AND");
  EXPECT_EQ(id_set(result), kAllArticles);
  EXPECT_EQ(result.at("warnings"),
            json::parse(R"(["AND needs words on both sides (column 10); searched without it"])"));
}

// Queries people typed into another search box, that Xapian's QueryParser
// reads: each finds something or nothing, with one line at most.
TEST_F(CliCorpusTest, QueriesFromOtherSearchBoxesAreAnswered) {
  for (const std::string query :
       {"mkdir() failed (File exists) php", "windows update werkt niet (windows se",
        "java :) als icon", "+-dvd", "wget domein --http-user",
        "kraan NEAR (Elektrisch OR Electrisch)", "Mourinho NEAR (milk OR water)", "+-Kompany",
        "site:example.org Mourinho", "\"unclosed phrase", "->", "NOT", "c++ -c#"}) {
    RunResult result = run_quarry(db(), {"--", query});
    EXPECT_EQ(result.exit_code, 0) << query << ": " << result.err;
    EXPECT_LE(lines_of(result.err).size(), 1u) << query << ": " << result.err;
    EXPECT_TRUE(result.out.find("match") != std::string::npos) << query << ": " << result.out;
  }
  // A group beside NEAR: either word.
  Ids either = id_set(search_json("Mourinho NEAR/3 milk"));
  either.merge(id_set(search_json("Mourinho NEAR/3 water")));
  EXPECT_FALSE(either.empty());
  EXPECT_EQ(id_set(search_json("Mourinho NEAR/3 (milk OR water)")), either);
}

TEST_F(CliCorpusTest, StrictBadQueryIsUsageError) {
  for (const std::string query : {"Mourinho AND", "(penalty", "AND"}) {
    for (const std::string format : {"text", "json"}) {
      RunResult result = run_quarry(db(), {"--strict", "--format", format, query});
      EXPECT_EQ(result.exit_code, 2) << query;
      EXPECT_EQ(result.out, "") << query;
      std::vector<std::string> lines = lines_of(result.err);
      ASSERT_EQ(lines.size(), 1u) << query << ": " << result.err;
      EXPECT_TRUE(lines[0].starts_with("quarry: ")) << lines[0];
      EXPECT_NE(lines[0].find(query), std::string::npos) << lines[0];
    }
  }
}

// A query of more than 1,024 words is refused, however it is read and
// wherever it is typed, rather than searched as plain words that lose its
// operators: usage errors, exit 2, one line naming the limit.
TEST_F(CliCorpusTest, QueriesOfMoreWordsThanTheMostAreUsageErrors) {
  std::string query = "w1";
  for (int i = 2; i <= 1100; ++i) query += " AND w" + std::to_string(i);
  const std::string reason = "more than 1024 words, the most a query may hold";
  for (const std::vector<std::string>& options :
       {std::vector<std::string>{}, {"--format", "json"}, {"--plain"}, {"--count"}}) {
    SCOPED_TRACE(::testing::PrintToString(options));
    std::vector<std::string> args = options;
    args.push_back(query);
    const RunResult result = run_quarry(db(), args);
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(result.out, "");
    const std::vector<std::string> lines = lines_of(result.err);
    ASSERT_EQ(lines.size(), 1u) << result.err.substr(0, 300);
    EXPECT_TRUE(lines[0].starts_with("quarry: query \"w1 AND w2 AND")) << lines[0].substr(0, 300);
    EXPECT_NE(lines[0].find(reason), std::string::npos) << lines[0].substr(0, 300);
  }
  // Piped, the query is an error of its own among the others' answers.
  const RunResult piped =
      run_quarry(db(), {"--format", "json", "-n", "1"}, "penalty\n" + query + "\nHerrera\n");
  EXPECT_EQ(piped.exit_code, 2);
  const std::vector<std::string> records = lines_of(piped.out);
  ASSERT_EQ(records.size(), 3u) << piped.out.substr(0, 300);
  EXPECT_NE(json::parse(records[1]).at("error").get<std::string>().find(reason), std::string::npos);
  EXPECT_EQ(json::parse(records[2]).at("total"), 3);
  EXPECT_NE(piped.err.find("quarry: qid 2: query \"w1 AND"), std::string::npos)
      << piped.err.substr(0, 300);
  // At the prompt, it is said, and the prompt goes on.
  const RunResult prompt =
      run_quarry(db(), {"-i", "--format", "json", "-n", "1"}, query + "\npenalty\n");
  EXPECT_NE(prompt.err.find(reason), std::string::npos) << prompt.err.substr(0, 300);
  ASSERT_EQ(lines_of(prompt.out).size(), 1u) << prompt.out.substr(0, 300);
  EXPECT_EQ(json::parse(prompt.out).at("total"), 3);
}

// A NEAR distance out of range is a warning, and with --strict an error.
TEST_F(CliCorpusTest, NearDistanceOutOfRangeIsWarnedOfOrRefused) {
  for (const std::string query :
       {"Mourinho NEAR/0 milk", "Mourinho NEAR/-5 milk", "Mourinho NEAR/4294967296 milk"}) {
    const std::string near = query.substr(9, query.find(' ', 9) - 9);
    RunResult strict = run_quarry(db(), {"--strict", query});
    EXPECT_EQ(strict.exit_code, 2) << query << ": " << strict.err;
    EXPECT_EQ(strict.out, "");
    EXPECT_EQ(lines_of(strict.err).size(), 1u) << strict.err;
    EXPECT_NE(strict.err.find(near + ": the distance must be a whole number from 1 to 1000"),
              std::string::npos)
        << strict.err;
    RunResult forgiving = run_quarry(db(), {query});
    EXPECT_EQ(forgiving.exit_code, 0) << query << ": " << forgiving.err;
    EXPECT_NE(forgiving.err.find(near + ": the distance must be a whole number from 1 to 1000 "
                                        "(column 10); searched as plain words"),
              std::string::npos)
        << forgiving.err;
  }
}

// A query that starts with '-' reads as options: the error says how to
// write it.
TEST_F(CliCorpusTest, QueryStartingWithADashIsShownAfterDoubleDash) {
  RunResult result = run_quarry(db(), {"-site:x", "mail"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  const std::vector<std::string> lines = lines_of(result.err);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back(), "quarry: a query that starts with '-' goes after '--': quarry --db " +
                              db().string() + " --collapse none -- -site:x mail")
      << result.err;

  RunResult quoted = run_quarry(db(), {"-n", "3", "-Kompany Mourinho"});
  EXPECT_EQ(quoted.exit_code, 2);
  EXPECT_TRUE(quoted.err.ends_with(" -n 3 -- '-Kompany Mourinho'\n")) << quoted.err;

  RunResult after = run_quarry(db(), {"--format", "json", "--", "-Kompany", "Mourinho"});
  EXPECT_EQ(after.exit_code, 0) << after.err;
  EXPECT_EQ(id_set(json::parse(after.out)), Ids({kRaucous, kAmazon}));

  // Other option errors get no such line.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--bogus", "x"}, std::vector<std::string>{"-n", "many", "x"},
        std::vector<std::string>{"-n5", "--format", "xml"}}) {
    RunResult other = run_quarry(db(), args);
    EXPECT_EQ(other.exit_code, 2);
    EXPECT_EQ(other.err.find("goes after '--'"), std::string::npos) << other.err;
  }
}

}  // namespace
}  // namespace quarry::testing
