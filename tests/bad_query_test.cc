// Bad queries to the searcher: each ends in results or a one-line
// explanation, without a crash or a hang.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "quarry/error.h"
#include "quarry/search/searcher.h"
#include "tests/fault_util.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

using nlohmann::json;
using namespace std::string_literals;

class BadQueryTest : public SharedIndexTest {
 protected:
  static void SetUpTestSuite() {
    std::vector<Article> articles;
    // Many words starting with "a", for wildcards that match too much.
    for (int i = 0; i < 3000; ++i) {
      const std::string n = std::to_string(i);
      articles.push_back({"doc" + n, "Title " + n, "a" + n + "x apple about " + n, "", "", ""});
    }
    index_suite_articles(articles);
  }

  static std::string db() { return db_path(); }

  // Searches, accepting results or a QueryError with a one-line message.
  static void search_survives(Searcher& searcher, const std::string& query,
                              const SearchOptions& options = {}) {
    try {
      const SearchResult result = searcher.search(query, options);
      EXPECT_LE(result.hits.size(), options.limit);
    } catch (const QueryError& error) {
      EXPECT_EQ(std::string(error.what()).find('\n'), std::string::npos) << error.what();
    }
  }
};

TEST_F(BadQueryTest, RandomBytesAndInvalidUtf8EndInResultsOrAnExplanation) {
  const std::uint32_t seed = test_seed();
  std::cout << "seed " << seed << " (set QUARRY_TEST_SEED to replay)\n";
  std::mt19937 random(seed);
  Searcher searcher(db());
  const std::string alphabet = "aA0 \"()*+-:/.\\\xC3\xA9\xFF\xED\xA0\x80\x00\tNEARADJORXOT"s;
  for (int i = 0; i < 2000; ++i) {
    std::string query;
    const int length = std::uniform_int_distribution<int>(0, 40)(random);
    for (int k = 0; k < length; ++k) {
      query += i % 2 ? static_cast<char>(random()) : alphabet[random() % alphabet.size()];
    }
    SCOPED_TRACE(::testing::PrintToString(query));
    search_survives(searcher, query);
    SearchOptions plain;
    plain.parse = ParseMode::kPlain;
    EXPECT_NO_THROW(searcher.search(query, plain));
  }
  for (const std::string& query : {"\xFF\xFE"s, "caf\xE9"s, "\xED\xA0\x80"s, "\xC0\xAF*"s, "a\0b"s,
                                   "title:\xFF"s, "\"\xF0\x9F\""s}) {
    search_survives(searcher, query);
  }
}

TEST_F(BadQueryTest, HugeQueriesAnswerQuickly) {
  Searcher searcher(db());
  std::string many_words;
  std::string many_known;
  for (int i = 0; i < 10000; ++i) {
    many_words += "w" + std::to_string(i) + "q ";
    many_known += "a" + std::to_string(i % 3000) + "x ";
  }
  const struct {
    std::string name;
    std::string query;
  } kCases[] = {
      {"10,000 unknown words", many_words},
      {"10,000 known words", many_known},
      {"10,000 ORs",
       [] {
         std::string q = "apple";
         for (int i = 0; i < 10000; ++i) q += " OR a" + std::to_string(i) + "x";
         return q;
       }()},
      {"100,000 open parentheses", std::string(100000, '(') + "apple"},
      {"a wildcard matching 3,000 words", "a*"},
      {"10,000 wildcards",
       [] {
         std::string q;
         for (int i = 0; i < 10000; ++i) q += "a* ";
         return q;
       }()},
      {"a 1 MB word", std::string(1 << 20, 'x')},
      {"a 1 MB phrase", "\"" + many_known + many_known + "\""},
  };
  for (const auto& c : kCases) {
    for (const bool plain : {false, true}) {
      SearchOptions options;
      options.parse = plain ? ParseMode::kPlain : ParseMode::kQueryOrPlain;
      const auto start = std::chrono::steady_clock::now();
      search_survives(searcher, c.query, options);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      EXPECT_LT(seconds, time_allowed(std::chrono::seconds(10)).count())
          << c.name << (plain ? " (plain)" : "");
    }
  }
  // A wildcard expands to at most max_wildcard_terms words: "a1*" matches
  // 1,111 words, each in one article.
  EXPECT_EQ(searcher.search("a1*").total, 500u);
}

TEST_F(BadQueryTest, AbsurdLimitsAndOffsetsAnswerOrAreUsageErrors) {
  const struct {
    std::vector<std::string> args;
    int exit_code;
  } kCases[] = {
      {{"-n", "0", "apple"}, 0},
      {{"-n", "1000000000", "apple"}, 0},
      {{"-n", "18446744073709551615", "apple"}, 0},
      {{"--offset", "18446744073709551615", "apple"}, 0},
      {{"--offset", "4294967295", "-n", "4294967295", "apple"}, 0},
      // Out of range, negative or not a whole number: refused, not wrapped.
      {{"-n", "18446744073709551616", "apple"}, 2},
      {{"-n", "-1", "apple"}, 2},
      {{"--offset", "-5", "apple"}, 2},
      {{"-n", "1e9", "apple"}, 2},
      {{"-n", "many", "apple"}, 2},
  };
  for (const auto& c : kCases) {
    std::vector<std::string> args{"--db", db(), "--format", "json", "--no-snippets"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto start = std::chrono::steady_clock::now();
    const RunResult result = run_program(QUARRY_BIN, args);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    SCOPED_TRACE(::testing::PrintToString(c.args));
    EXPECT_EQ(result.exit_code, c.exit_code) << result.err;
    EXPECT_LT(seconds, time_allowed(std::chrono::seconds(10)).count());
    if (result.exit_code == 0) {
      EXPECT_EQ(result.err, "");
      const json answer = json::parse(result.out);
      EXPECT_EQ(answer.at("total"), 3000);
    } else {
      EXPECT_EQ(result.out, "");
      EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
      EXPECT_TRUE(result.err.starts_with("quarry: ")) << result.err;
    }
  }
}

}  // namespace
}  // namespace quarry::testing
