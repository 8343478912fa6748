#include "quarry/text/analyzer.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "quarry/error.h"
#include "tests/test_util.h"

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
        TermsCase{"ThaiLettersWithTheirMarks", "ฝนตกหนัก", {"ฝ", "น", "ต", "ก", "ห", "นั", "ก"}},
        TermsCase{"KhmerSubscriptsWithTheirLetter", "ភ្លៀង", {"ភ្", "លៀ", "ង"}},
        TermsCase{"ThaiSaraAmEitherWay", "ทำ ทํา", {"ทํ", "า", "ทํ", "า"}},
        TermsCase{"LaoHoNoEitherWay", "ໜັກ ຫນັກ", {"ຫ", "ນັ", "ກ", "ຫ", "ນັ", "ກ"}},
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

// A word of a language written without spaces, typed alone, must read as
// the same terms as where the sentence holds it, and those terms' offsets
// must cover the word, however the dictionary cuts the sentence.
TEST(Analyzer, WordsTypedAloneAreRunsOfTheSentencesTerms) {
  const Analyzer analyzer;
  for (const testing::ScriptSample& sample : testing::script_samples()) {
    const std::vector<Token> sentence = analyzer.tokenize(sample.sentence);
    std::vector<std::string> words = sample.words;
    words.push_back(sample.phrase);
    for (const std::string& word : words) {
      const std::vector<std::string> terms = terms_of(analyzer, word);
      ASSERT_FALSE(terms.empty()) << word;
      const std::size_t at = sample.sentence.find(word);
      ASSERT_NE(at, std::string::npos) << word;
      auto first = std::find_if(sentence.begin(), sentence.end(),
                                [&](const Token& token) { return token.begin == at; });
      ASSERT_NE(first, sentence.end()) << sample.language << ": " << word;
      ASSERT_LE(terms.size(), static_cast<std::size_t>(sentence.end() - first)) << word;
      std::vector<std::string> run;
      for (auto it = first; it != first + static_cast<std::ptrdiff_t>(terms.size()); ++it) {
        run.push_back(it->term);
      }
      EXPECT_EQ(run, terms) << sample.language << ": " << word;
      EXPECT_EQ((first + static_cast<std::ptrdiff_t>(terms.size()) - 1)->end, at + word.size())
          << sample.language << ": " << word;
    }
  }
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
// must be those of the whole text, CJK and Thai characters counted one by
// one, and the terms a character folds into (ทำ) too.
TEST(Analyzer, TokenizesOnlyTheFirstWordsAsked) {
  const Analyzer analyzer;
  const std::string text = "Pep's men 曼联输了 won 2-1, ฝนตกหนัก ทำ said Ederson.";
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
