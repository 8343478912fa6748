// The time limit of a search (SearchOptions::time_limit, lib/search/
// deadline.h): forced to pass at once, so that nothing depends on how fast
// the machine is, a search stops with the first hits it found and says it
// timed out; without a limit nothing is cut.
#include "lib/search/deadline.h"

#include <gtest/gtest.h>
#include <xapian.h>

#include <cstdint>
#include <string>
#include <vector>

#include "quarry/search/searcher.h"
#include "tests/test_util.h"

namespace quarry {
namespace {

using testing::index_articles;
using testing::index_path;
using testing::TempDir;

// Far less than any search takes: past before the first check.
constexpr double kNoTime = 1e-9;

// 300 articles of 40 words each, drawn from 260 words, ten for each letter.
void index_of_many_words(const TempDir& dir) {
  std::vector<std::string> words;
  for (char letter = 'a'; letter <= 'z'; ++letter) {
    for (char second = 'a'; second < 'k'; ++second) {
      words.push_back(std::string{letter, second} + "word");
    }
  }
  std::uint32_t seed = 11;
  const auto next = [&seed] { return seed = seed * 1664525u + 1013904223u; };
  std::vector<Article> articles;
  for (int i = 0; i < 300; ++i) {
    std::string body;
    for (int w = 0; w < 40; ++w) body += words[next() % words.size()] + ' ';
    articles.push_back({"t" + std::to_string(i), "Words", body, "", "", ""});
  }
  ASSERT_EQ(index_articles(dir, articles).added, articles.size());
}

// 1,000 wildcards, a* b* … z* a* …, as the longest query allows.
std::string many_wildcards() {
  std::string query;
  for (int i = 0; i < 1000; ++i) query += std::string{static_cast<char>('a' + i % 26), '*', ' '};
  return query;
}

class DeadlineTest : public ::testing::Test {
 protected:
  void SetUp() override { index_of_many_words(dir_); }
  TempDir dir_;
};

TEST_F(DeadlineTest, ASearchPastItsTimeLimitReturnsItsFirstHitsMarkedTimedOut) {
  Searcher searcher(index_path(dir_));
  SearchOptions options;
  options.time_limit = kNoTime;
  const SearchResult result = searcher.search(many_wildcards(), options);
  EXPECT_TRUE(result.timed_out);
  EXPECT_FALSE(result.hits.empty());
  EXPECT_FALSE(result.total_exact);
  ASSERT_FALSE(result.notes.empty());
  EXPECT_TRUE(result.notes.back().starts_with("the search stopped at its time limit of "))
      << result.notes.back();
  // Its first hit keeps its snippet.
  EXPECT_FALSE(result.hits[0].snippet.text.empty());
}

TEST_F(DeadlineTest, WithoutATimeLimitNothingIsCutShort) {
  Searcher searcher(index_path(dir_));
  const SearchResult result = searcher.search(many_wildcards());
  EXPECT_FALSE(result.timed_out);
  EXPECT_TRUE(result.total_exact);
  EXPECT_EQ(result.total, 300u);
}

// The matcher itself stops: a query of many terms bounded by a deadline
// that has passed matches the first few articles, where it would match
// them all. A query of a few terms is left as it is.
TEST_F(DeadlineTest, TheMatchEndsAtTheDeadline) {
  const Xapian::Database db(index_path(dir_));
  std::vector<Xapian::Query> parts{Xapian::Query::MatchAll};
  for (int i = 0; i < 100; ++i) parts.emplace_back("absent" + std::to_string(i));
  const Xapian::Query many(Xapian::Query::OP_OR, parts.begin(), parts.end());
  const auto matches = [&](const detail::Deadline& deadline, const Xapian::Query& query) {
    Xapian::Enquire enquire(db);
    enquire.set_query(detail::deadline_bounded(query, deadline, true));
    return enquire.get_mset(0, db.get_doccount()).size();
  };
  const detail::Deadline none;
  EXPECT_EQ(matches(none, many), db.get_doccount());
  EXPECT_FALSE(none.cut_short());
  const detail::Deadline passed(kNoTime);
  const Xapian::doccount found = matches(passed, many);
  EXPECT_GT(found, 0u);
  EXPECT_LT(found, db.get_doccount());
  EXPECT_TRUE(passed.cut_short());
  EXPECT_EQ(matches(passed, Xapian::Query::MatchAll), db.get_doccount());
}

}  // namespace
}  // namespace quarry
