// The table a parallel build reads words through: it must give the stems
// the analyzer gives, and count each article once per word it holds.
#include "lib/index/word_table.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "lib/index/schema.h"
#include "quarry/text/analyzer.h"

namespace quarry::detail {
namespace {

using Counts = std::map<std::string, Xapian::doccount>;

Counts counts_of(const WordTable& table) {
  Counts counts;
  table.for_each_word(
      [&](const std::string& word, Xapian::doccount articles) { counts[word] = articles; });
  return counts;
}

// Reads each article's words through `table`, as make_document does.
void read(WordTable& table, const std::vector<std::vector<std::string>>& articles) {
  for (const auto& words : articles) {
    table.next_article();
    for (const std::string& word : words) table.stem_term(word);
  }
}

TEST(WordTable, GivesTheAnalyzersStemsPrefixed) {
  const Analyzer analyzer;
  WordTable table(analyzer.config().language);
  table.next_article();
  for (const std::string word : {"penalties", "running", "derby", "mourinho's", "été"}) {
    EXPECT_EQ(table.stem_term(word), kStemPrefix + analyzer.stem(word)) << word;
    EXPECT_EQ(table.stem_term(word), kStemPrefix + analyzer.stem(word)) << word << ", cached";
  }
}

TEST(WordTable, CountsEachArticleOncePerWord) {
  WordTable table(kDefaultLanguage);
  read(table, {{"milk", "milk", "derby"}, {"milk"}, {"penalty", "penalty", "penalty"}});
  table.next_article();
  table.count("milk");  // counted without stemming, as an adopted build reads back
  table.count("milk");
  EXPECT_EQ(counts_of(table), (Counts{{"derby", 1}, {"milk", 3}, {"penalty", 1}}));
}

TEST(WordTable, ForgottenArticlesLeaveTheCounts) {
  WordTable table(kDefaultLanguage);
  read(table, {{"milk", "derby"}, {"milk", "carton"}});
  table.forget({"milk", "carton"});
  table.forget({"never", "seen"});
  EXPECT_EQ(counts_of(table), (Counts{{"derby", 1}, {"milk", 1}}));
}

TEST(WordTable, AbsorbingAnotherTableAddsItsCounts) {
  WordTable first(kDefaultLanguage);
  WordTable second(kDefaultLanguage);
  read(first, {{"milk", "derby"}, {"milk"}});
  read(second, {{"milk", "carton"}, {"stairs"}});
  second.forget({"stairs"});
  first.absorb(std::move(second));
  EXPECT_EQ(counts_of(first), (Counts{{"carton", 1}, {"derby", 1}, {"milk", 3}}));
  EXPECT_TRUE(counts_of(second).empty());
}

}  // namespace
}  // namespace quarry::detail
