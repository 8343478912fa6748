#include "quarry/text/analyzer.h"

#include <gtest/gtest.h>

#include "quarry/error.h"

namespace quarry {
namespace {

std::vector<std::string> terms_of(const Analyzer& analyzer, std::string_view text) {
  std::vector<std::string> terms;
  for (const Token& token : analyzer.tokenize(text)) terms.push_back(token.term);
  return terms;
}

struct TermsCase {
  const char* name;
  std::string text;
  std::vector<std::string> terms;
};

class AnalyzerTerms : public ::testing::TestWithParam<TermsCase> {};

TEST_P(AnalyzerTerms, TokenizesAndNormalizes) {
  Analyzer analyzer;
  EXPECT_EQ(terms_of(analyzer, GetParam().text), GetParam().terms) << GetParam().text;
}

INSTANTIATE_TEST_SUITE_P(
    Table, AnalyzerTerms,
    ::testing::Values(
        TermsCase{"Empty", "", {}}, TermsCase{"OnlyPunctuation", " ,.;!?— … ", {}},
        TermsCase{"CaseFolded", "Café CAFE café", {"cafe", "cafe", "cafe"}},
        TermsCase{"NfdEqualsNfc", "cafe\u0301 caf\u00e9", {"cafe", "cafe"}},
        TermsCase{"FullWidthFolded", "\uFF28\uFF45\uFF4C\uFF4C\uFF4F", {"hello"}},
        TermsCase{"LigatureFolded", "\uFB01nal", {"final"}},
        TermsCase{"SharpS", "Straße", {"strasse"}},
        TermsCase{"ApostrophesAreOne", "Guardiola's Guardiola’s", {"guardiola's", "guardiola's"}},
        TermsCase{"TrailingApostropheDropped", "players' kit", {"players", "kit"}},
        TermsCase{"HyphenSplits", "dressing-room", {"dressing", "room"}},
        TermsCase{"Score", "2-1", {"2", "1"}}, TermsCase{"Currency", "£10million", {"10million"}},
        TermsCase{"Ordinal", "79th minute", {"79th", "minute"}},
        TermsCase{"DecimalNumber", "5.93 mln", {"5.93", "mln"}},
        TermsCase{"Emoji", "goal \U0001F600 scored", {"goal", "scored"}},
        TermsCase{"CjkIdeographsOneByOne", "曼联输了", {"曼", "联", "输", "了"}},
        TermsCase{"Kana", "サッカー", {"サ", "ッ", "カ", "ー"}},
        TermsCase{"Greek", "Ελλάδα", {"ελλαδα"}},
        TermsCase{"IndicVowelSignsKept", "हिन्दी", {"हिन्दी"}},
        TermsCase{"InvalidUtf8",
                  "bad\xff\xfe"
                  "byte ok",
                  {"bad", "byte", "ok"}},
        TermsCase{"OverlongWordDropped", std::string(80, 'a') + " short", {"short"}}),
    [](const auto& info) { return info.param.name; });

TEST(Analyzer, OffsetsPointAtTheWordsInTheOriginalText) {
  Analyzer analyzer;
  const std::string text = "“Café” – Guardiola’s men";
  for (const Token& token : analyzer.tokenize(text)) {
    EXPECT_EQ(analyzer.normalize(text.substr(token.begin, token.end - token.begin)), token.term);
  }
  ASSERT_EQ(analyzer.tokenize(text).size(), 3u);
  EXPECT_EQ(text.substr(analyzer.tokenize(text)[1].begin,
                        analyzer.tokenize(text)[1].end - analyzer.tokenize(text)[1].begin),
            "Guardiola’s");
}

struct StemCase {
  std::string word;
  std::string stem;
};

TEST(Analyzer, StemsEnglishByDefault) {
  Analyzer analyzer;
  for (const StemCase& c : std::vector<StemCase>{{"penalties", "penalti"},
                                                 {"penalty", "penalti"},
                                                 {"guardiola's", "guardiola"},
                                                 {"running", "run"},
                                                 {"79th", "79th"}}) {
    EXPECT_EQ(analyzer.stem(c.word), c.stem) << c.word;
  }
}

TEST(Analyzer, StemsOtherLanguagesAndNone) {
  EXPECT_EQ(Analyzer(AnalyzerConfig{"french"}).stem("continuellement"), "continuel");
  EXPECT_EQ(Analyzer(AnalyzerConfig{"none"}).stem("penalties"), "penalties");
}

TEST(Analyzer, WritesWordsInTheCaseTyped) {
  const struct {
    std::string typed, word, expected;
  } cases[] = {
      // Completions: what was typed, then the rest.
      {"Bla", "blair", "Blair"},
      {"bla", "blair", "blair"},
      {"MANCH", "manchester", "MANCHESTER"},
      {"HErr", "herrera", "HErrera"},
      {"P", "portuguese", "Portuguese"},
      {"Guardiola’", "guardiola's", "Guardiola’s"},
      {"Caf", "cafe", "Cafe"},
      {"CAFÉ", "cafeteria", "CAFÉTERIA"},
      // Corrections: the word, capitalized as typed.
      {"Beckam", "beckham", "Beckham"},
      {"beckam", "beckham", "beckham"},
      {"BECKAM", "beckham", "BECKHAM"},
      {"Édersen", "ederson", "Ederson"},
      {"édersen", "élysée", "élysée"},
      {"Élisee", "élysée", "Élysée"},
      {"ÉLISEE", "élysée", "ÉLYSÉE"},
      {"", "word", "word"},
      {"2018", "2017", "2017"},
  };
  const Analyzer analyzer;
  for (const auto& c : cases) {
    EXPECT_EQ(analyzer.in_typed_case(c.typed, c.word), c.expected) << c.typed << " " << c.word;
  }
}

TEST(Analyzer, UnknownLanguageIsAConfigError) {
  EXPECT_THROW(Analyzer(AnalyzerConfig{"klingon"}), ConfigError);
}

// Snippets read a long article only as far as they need: the first words
// must be those of the whole text, CJK characters counted one by one.
TEST(Analyzer, TokenizesOnlyTheFirstWordsAsked) {
  const Analyzer analyzer;
  const std::string text = "Pep's men 曼联输了 won 2-1, said Ederson.";
  const std::vector<Token> all = analyzer.tokenize(text);
  ASSERT_GT(all.size(), 8u);
  for (std::size_t n = 0; n <= all.size() + 1; ++n) {
    const std::vector<Token> first = analyzer.tokenize(text, n);
    ASSERT_EQ(first.size(), std::min(n, all.size()));
    for (std::size_t i = 0; i < first.size(); ++i) {
      EXPECT_EQ(first[i].term, all[i].term);
      EXPECT_EQ(first[i].begin, all[i].begin);
    }
  }
}

}  // namespace
}  // namespace quarry
