#include "quarry/search/snippet.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "lib/search/query_parser.h"
#include "quarry/text/analyzer.h"

namespace quarry {
namespace {

// Terms as the real query pipeline makes them, so that these tests see what
// a user's query would highlight.
HighlightTerms terms_for(const Analyzer& analyzer, std::string_view query) {
  return detail::QueryParser(analyzer).parse(query).highlight;
}

// The byte where code point `index` of `text` starts (text.size() past the
// end); bytes that cannot start a code point belong to the one before.
std::size_t byte_of(std::string_view text, std::size_t index) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (seen++ == index) return i;
  }
  return text.size();
}

// text[begin, end) counted in code points, as Highlight counts.
std::string code_point_substr(std::string_view text, std::size_t begin, std::size_t end) {
  const std::size_t first = byte_of(text, begin);
  return std::string(text.substr(first, byte_of(text, end) - first));
}

std::vector<std::string> highlighted(const Snippet& snippet) {
  std::vector<std::string> out;
  for (const Highlight& h : snippet.highlights) {
    out.push_back(code_point_substr(snippet.text, h.begin, h.end));
  }
  return out;
}

std::size_t word_count(std::string_view text) {
  std::size_t words = 0;
  bool in_word = false;
  for (char c : text) {
    if (c == ' ') {
      in_word = false;
    } else if (!in_word) {
      in_word = true;
      ++words;
    }
  }
  return words;
}

constexpr std::string_view kEllipsis = "\u2026";

// `count` words of filler with `inserts` put in place of the words at the
// given indexes.
std::string filler(std::size_t count,
                   const std::vector<std::pair<std::size_t, std::string>>& inserts) {
  static const char* const kWords[] = {"the",     "match", "ended", "after", "ninety",
                                       "minutes", "of",    "tense", "play",  "tonight"};
  std::vector<std::string> words;
  for (std::size_t i = 0; i < count; ++i) words.push_back(kWords[i % std::size(kWords)]);
  for (const auto& [at, word] : inserts) words[at] = word;
  std::string out;
  for (const std::string& word : words) out += (out.empty() ? "" : " ") + word;
  return out;
}

struct HighlightCase {
  std::string name;
  std::string query;
  std::string text;
  std::vector<std::string> expected;  // highlighted words, as written in the text
};

TEST(SnippetTest, ShortTextIsWholeWithEveryMatchHighlighted) {
  const Analyzer analyzer;
  const std::vector<HighlightCase> cases = {
      {"every occurrence, any case",
       "united",
       "United beat City. united fans cheered: UNITED!",
       {"United", "united", "UNITED"}},
      {"stemmed match",
       "penalties",
       "He missed a penalty, then saved two penalties.",
       {"penalty", "penalties"}},
      {"folded match, NFC and NFD",
       "CAFÉ",
       "café or Café or cafe\u0301, not cafeteria",
       {"café", "Café", "cafe\u0301"}},
      {"typed apostrophe, curly in text",
       "Guardiola's",
       "Guardiola’s men and Guardiola's side",
       {"Guardiola’s", "Guardiola's"}},
      {"curly apostrophe, typed in text",
       "Guardiola’s",
       "Guardiola’s men and Guardiola's side",
       {"Guardiola’s", "Guardiola's"}},
      {"hyphenated query",
       "dressing-room",
       "a row in the dressing room, then a dressing-room leak",
       {"dressing", "room", "dressing", "room"}},
      {"quoted phrase", "\"red devils\"", "The Red Devils lost.", {"Red", "Devils"}},
      {"punctuation around the word", "trafford", "at (Old Trafford).", {"Trafford"}},
      {"negative word is not highlighted", "coffee -milk", "coffee with milk", {"coffee"}},
      {"NOT operand is not highlighted", "coffee NOT milk", "coffee with milk", {"coffee"}},
      {"numbers", "79th", "in the 79th minute", {"79th"}},
      {"CJK", "比赛", "曼联输了比赛，球迷很失望。", {"比赛"}},
      {"CJK word inside a longer one", "北京", "我住在北京市中心", {"北京"}},
      {"Thai word inside a longer one", "ตก", "ฝนตกหนักในกรุงเทพฯ ตกใจ", {"ตก", "ตก"}},
      {"Thai phrase across dictionary words", "\"ฝนตก\"", "ฝนตกหนัก", {"ฝนตก"}},
      {"Thai character spelt two ways", "ทําให้", "ทำให้น้ำท่วม", {"ทำให้"}},
      {"no match", "chelsea", "Arsenal won.", {}},
  };
  for (const HighlightCase& c : cases) {
    const Snippet snippet = make_snippet(analyzer, c.text, terms_for(analyzer, c.query));
    EXPECT_EQ(snippet.text, c.text) << c.name;
    EXPECT_EQ(snippet.text.find(kEllipsis), std::string::npos) << c.name;
    EXPECT_EQ(highlighted(snippet), c.expected) << c.name;
  }
}

TEST(SnippetTest, HighlightOffsetsCountCodePointsNotBytes) {
  const Analyzer analyzer;
  struct Case {
    std::string text;
    std::string query;
    std::vector<Highlight> expected;
  };
  const std::vector<Case> cases = {
      {"goal", "goal", {{0, 4}}},
      {"é £ 東京 😀 goal", "goal", {{9, 13}}},
      {"Café £5 東京 😀 Mourinho’s goal", "mourinho", {{13, 23}}},
      {"😀😀 café", "cafe", {{3, 7}}},
      {"cafe\u0301 goal", "goal", {{6, 10}}},
  };
  for (const Case& c : cases) {
    const Snippet snippet = make_snippet(analyzer, c.text, terms_for(analyzer, c.query));
    EXPECT_EQ(snippet.text, c.text) << c.text;
    EXPECT_EQ(snippet.highlights, c.expected) << c.text;
  }
}

TEST(SnippetTest, HighlightsMatchTheWordsInALongSnippet) {
  const Analyzer analyzer;
  const std::string text = filler(200, {{118, "Café"},
                                        {120, "£5"},
                                        {121, "東京"},
                                        {122, "😀"},
                                        {124, "Mourinho’s"},
                                        {126, "penalties"}});
  const Snippet snippet =
      make_snippet(analyzer, text, terms_for(analyzer, "mourinho penalty cafe"));
  EXPECT_EQ(highlighted(snippet), (std::vector<std::string>{"Café", "Mourinho’s", "penalties"}));
}

TEST(SnippetTest, LongTextIsCutAroundTheQueryWords) {
  const Analyzer analyzer;
  const std::string text = filler(200, {{120, "Mourinho"}, {123, "Pogba"}});
  const Snippet snippet = make_snippet(analyzer, text, terms_for(analyzer, "mourinho pogba"));
  EXPECT_TRUE(snippet.text.starts_with(kEllipsis)) << snippet.text;
  EXPECT_TRUE(snippet.text.ends_with(kEllipsis)) << snippet.text;
  EXPECT_LE(word_count(snippet.text), 32u) << snippet.text;
  EXPECT_GE(word_count(snippet.text), 25u) << snippet.text;
  EXPECT_EQ(highlighted(snippet), (std::vector<std::string>{"Mourinho", "Pogba"}));
  // Cut at word boundaries: every word of the snippet is a word of the text.
  std::string inner =
      snippet.text.substr(kEllipsis.size(), snippet.text.size() - 2 * kEllipsis.size());
  EXPECT_NE((" " + text + " ").find(" " + inner + " "), std::string::npos) << snippet.text;
}

TEST(SnippetTest, EllipsisOnlyWhereTextWasLeftOut) {
  const Analyzer analyzer;
  struct Case {
    std::string name;
    std::string text;
    std::string query;
    bool cut_before;
    bool cut_after;
    std::string first_word;  // of the snippet, after any "…"
  };
  const std::vector<Case> cases = {
      {"match at the start", filler(200, {{0, "Mourinho"}}), "mourinho", false, true, "Mourinho"},
      {"match at the end", filler(200, {{199, "Mourinho"}}), "mourinho", true, false, ""},
      {"no match starts at the beginning", filler(200, {}), "mourinho", false, true, "the"},
      {"no query starts at the beginning", filler(200, {}), "", false, true, "the"},
      {"exactly the window", filler(30, {{15, "Mourinho"}}), "mourinho", false, false, "the"},
  };
  for (const Case& c : cases) {
    const Snippet snippet = make_snippet(analyzer, c.text, terms_for(analyzer, c.query));
    EXPECT_EQ(snippet.text.starts_with(kEllipsis), c.cut_before) << c.name << ": " << snippet.text;
    EXPECT_EQ(snippet.text.ends_with(kEllipsis), c.cut_after) << c.name << ": " << snippet.text;
    EXPECT_LE(word_count(snippet.text), 32u) << c.name;
    if (!c.first_word.empty()) {
      EXPECT_TRUE(snippet.text.starts_with(c.first_word + " ")) << c.name << ": " << snippet.text;
    }
  }
}

TEST(SnippetTest, LastWordKeepsItsPunctuationBeforeTheEllipsis) {
  const Analyzer analyzer;
  // A match near the start keeps the window at words 0-29.
  const std::string text = filler(200, {{2, "Mourinho"}, {29, "Trafford,"}});
  const Snippet snippet = make_snippet(analyzer, text, terms_for(analyzer, "mourinho"));
  EXPECT_TRUE(snippet.text.ends_with(" Trafford,\u2026")) << snippet.text;
}

TEST(SnippetTest, WindowWithMoreDistinctQueryWordsWins) {
  const Analyzer analyzer;
  std::vector<std::pair<std::size_t, std::string>> inserts;
  for (std::size_t at = 20; at < 36; at += 2) inserts.push_back({at, "goal"});
  inserts.push_back({150, "goal"});
  inserts.push_back({153, "Rashford"});
  const std::string text = filler(200, inserts);
  const Snippet snippet = make_snippet(analyzer, text, terms_for(analyzer, "goal rashford"));
  EXPECT_EQ(highlighted(snippet), (std::vector<std::string>{"goal", "Rashford"})) << snippet.text;
}

TEST(SnippetTest, MoreMatchesWinAmongEquallyDistinctWindows) {
  const Analyzer analyzer;
  const std::string text = filler(200, {{20, "goal"}, {150, "goal"}, {152, "goal"}, {154, "goal"}});
  const Snippet snippet = make_snippet(analyzer, text, terms_for(analyzer, "goal"));
  EXPECT_EQ(highlighted(snippet), (std::vector<std::string>{"goal", "goal", "goal"}))
      << snippet.text;
}

TEST(SnippetTest, WhiteSpaceRunsBecomeOneSpace) {
  const Analyzer analyzer;
  struct Case {
    std::string text;
    std::string expected;
    std::vector<Highlight> highlights;
  };
  const std::vector<Case> cases = {
      {"alpha\n\n\tbeta \r\n gamma", "alpha beta gamma", {{6, 10}}},
      {"  \n beta\t\t", "beta", {{0, 4}}},
      {"alpha\vbeta\fgamma", "alpha beta gamma", {{6, 10}}},
      {"", "", {}},
      {" \n\t ", "", {}},
      {"\n", "", {}},
  };
  for (const Case& c : cases) {
    const Snippet snippet = make_snippet(analyzer, c.text, terms_for(analyzer, "beta"));
    EXPECT_EQ(snippet.text, c.expected) << '"' << c.text << '"';
    EXPECT_EQ(snippet.highlights, c.highlights) << '"' << c.text << '"';
    EXPECT_EQ(snippet.text.find('\n'), std::string::npos);
  }
}

TEST(SnippetTest, LongTextIsOneLine) {
  const Analyzer analyzer;
  std::string text = filler(200, {{100, "Mourinho"}});
  for (std::size_t i = 0; i < text.size(); i += 37) {
    if (text[i] == ' ') text.replace(i, 1, "\n\t  ");
  }
  const Snippet snippet = make_snippet(analyzer, text, terms_for(analyzer, "mourinho"));
  EXPECT_EQ(snippet.text.find_first_of("\n\t"), std::string::npos) << snippet.text;
  EXPECT_EQ(snippet.text.find("  "), std::string::npos) << snippet.text;
  EXPECT_EQ(highlighted(snippet), std::vector<std::string>{"Mourinho"});
}

TEST(SnippetTest, InvalidUtf8DoesNotThrowAndStillHighlights) {
  const Analyzer analyzer;
  const std::vector<std::string> texts = {"caf\xff goal", "\xc3 goal", "\x80\x80 goal",
                                          "goal \xed\xa0\x80"};
  for (const std::string& text : texts) {
    Snippet snippet;
    ASSERT_NO_THROW(snippet = make_snippet(analyzer, text, terms_for(analyzer, "goal")));
    EXPECT_EQ(highlighted(snippet), std::vector<std::string>{"goal"});
  }
}

TEST(SnippetTest, ConfiguredWindowSize) {
  const Analyzer analyzer;
  const std::string text = filler(200, {{100, "Mourinho"}});
  SnippetConfig config;
  config.window_words = 10;
  const Snippet snippet = make_snippet(analyzer, text, terms_for(analyzer, "mourinho"), config);
  EXPECT_LE(word_count(snippet.text), 11u) << snippet.text;
  EXPECT_EQ(highlighted(snippet), std::vector<std::string>{"Mourinho"});
}

TEST(SnippetTest, HighlightAllKeepsTheWholeText) {
  const Analyzer analyzer;
  const std::string text = filler(200, {{3, "Mourinho"}, {100, "mourinho"}, {197, "MOURINHO"}});
  const Snippet snippet = highlight_all(analyzer, text, terms_for(analyzer, "mourinho"));
  EXPECT_EQ(snippet.text, text);
  EXPECT_EQ(highlighted(snippet), (std::vector<std::string>{"Mourinho", "mourinho", "MOURINHO"}));
}

// Words of phrases, NEAR and ADJ are marked where their group occurs. In
// each text "mobile" and "phones" are scattered early, more often than the
// group occurs later, so that counting matches alone would show them.
struct GroupCase {
  std::string name;
  std::string query;
  std::vector<std::pair<std::size_t, std::string>> inserts;  // into 200 words of filler
  std::vector<std::string> expected;                         // highlighted, as written
  std::string shown;  // a passage the snippet must hold, when not empty
};

const std::vector<std::pair<std::size_t, std::string>> kScattered = {
    {5, "mobile"}, {15, "phones"}, {25, "mobiles"}};

std::vector<std::pair<std::size_t, std::string>> scattered_and(
    std::vector<std::pair<std::size_t, std::string>> inserts) {
  inserts.insert(inserts.begin(), kScattered.begin(), kScattered.end());
  return inserts;
}

const std::vector<GroupCase>& group_cases() {
  static const std::vector<GroupCase> cases = {
      {"phrase",
       "\"mobile phone\"",
       scattered_and({{150, "mobile"}, {151, "phone"}}),
       {"mobile", "phone"},
       "mobile phone"},
      {"phrase of a hyphenated word",
       "mobile-phone",
       scattered_and({{150, "mobile"}, {151, "phone"}}),
       {"mobile", "phone"},
       "mobile phone"},
      {"phrase of stems",
       "\"mobile phones\"",
       scattered_and({{150, "Mobile"}, {151, "phone."}}),
       {"Mobile", "phone"},
       "Mobile phone."},
      {"every occurrence of the phrase",
       "\"mobile phone\"",
       scattered_and({{150, "mobile"}, {151, "phone"}, {153, "mobile"}, {154, "phones"}}),
       {"mobile", "phone", "mobile", "phones"},
       ""},
      {"reversed is no phrase",
       "\"mobile phone\"",
       scattered_and({{100, "phone"}, {101, "mobile"}, {150, "mobile"}, {151, "phone"}}),
       {"mobile", "phone"},
       "mobile phone"},
      {"NEAR within its window",
       "mobile NEAR/3 phone",
       scattered_and({{150, "phone"}, {151, "and"}, {152, "a"}, {153, "mobile"}}),
       {"phone", "mobile"},
       "phone and a mobile"},
      {"NEAR beyond its window marks the free word",
       "mobile NEAR/3 phone tablet",
       scattered_and({{60, "tablet"}, {150, "phone"}, {154, "mobile"}}),
       {"tablet"},
       ""},
      {"NEAR of three, any order",
       "mobile NEAR/2 phone NEAR/2 tablet",
       scattered_and({{150, "tablet"}, {151, "phone"}, {153, "mobile"}, {158, "mobile"}}),
       {"tablet", "phone", "mobile"},
       ""},
      {"ADJ in order",
       "mobile ADJ/3 phone",
       scattered_and({{100, "phone"}, {101, "mobile"}, {150, "mobile"}, {153, "phone"}}),
       {"mobile", "phone"},
       "mobile match ended phone"},
      {"NEAR in either order",
       "mobile NEAR/3 phone",
       scattered_and({{100, "phone"}, {101, "mobile"}, {190, "mobile"}, {193, "phone"}}),
       {"phone", "mobile"},
       "phone mobile"},
      {"free word beside the phrase",
       "\"mobile phone\" mobile",
       scattered_and({{140, "mobile"}, {145, "phones"}, {150, "mobile"}, {151, "phone"}}),
       {"mobile", "mobile", "phone"},
       "phones"},
      {"wildcard beside the phrase",
       "\"mobile phone\" phon*",
       scattered_and({{145, "phones"}, {150, "mobile"}, {151, "phone"}}),
       {"phones", "mobile", "phone"},
       "mobile phone"},
      {"no phrase: every match, as without groups",
       "\"mobile phone\"",
       kScattered,
       {"mobile", "phones", "mobiles"},
       ""},
      {"no phrase but a free word: the free word",
       "\"mobile phone\" tablet",
       scattered_and({{150, "tablet"}}),
       {"tablet"},
       ""},
  };
  return cases;
}

TEST(SnippetGroupTest, GroupWordsAreMarkedWhereTheGroupOccurs) {
  const Analyzer analyzer;
  for (const GroupCase& c : group_cases()) {
    const Snippet snippet =
        make_snippet(analyzer, filler(200, c.inserts), terms_for(analyzer, c.query));
    EXPECT_EQ(highlighted(snippet), c.expected) << c.name << ": " << snippet.text;
    EXPECT_NE(snippet.text.find(c.shown), std::string::npos) << c.name << ": " << snippet.text;
  }
}

// Where the stems occur, as a search reads them from the index.
StemWords stem_words_of(const Analyzer& analyzer, std::string_view text,
                        const HighlightTerms& terms) {
  StemWords places(terms.stems.size());
  const std::vector<Token> tokens = analyzer.tokenize(text);
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    for (std::size_t k = 0; k < terms.stems.size(); ++k) {
      if (analyzer.stem(tokens[i].term) == terms.stems[k]) places[k].push_back(i);
    }
  }
  return places;
}

TEST(SnippetGroupTest, PlacesFromTheIndexMarkWhatStemmingMarks) {
  const Analyzer analyzer;
  for (const GroupCase& c : group_cases()) {
    const std::string text = filler(200, c.inserts);
    const HighlightTerms terms = terms_for(analyzer, c.query);
    const Snippet stemmed = make_snippet(analyzer, text, terms);
    const Snippet placed =
        make_snippet(analyzer, text, terms, stem_words_of(analyzer, text, terms));
    EXPECT_EQ(placed.text, stemmed.text) << c.name;
    EXPECT_EQ(placed.highlights, stemmed.highlights) << c.name;
  }
}

TEST(SnippetGroupTest, HighlightAllMarksWhereTheGroupOccurs) {
  const Analyzer analyzer;
  const std::string text = filler(200, scattered_and({{150, "mobile"}, {151, "phone"}}));
  struct Case {
    std::string query;
    std::vector<std::string> expected;
  };
  const std::vector<Case> cases = {
      {"\"mobile phone\"", {"mobile", "phone"}},
      {"mobile NEAR/1 phone", {"mobile", "phone"}},
      {"phone ADJ/1 mobile", {"mobile", "phones", "mobiles", "mobile", "phone"}},
      {"\"mobile phone\" mobile", {"mobile", "mobiles", "mobile", "phone"}},
  };
  for (const Case& c : cases) {
    const Snippet snippet = highlight_all(analyzer, text, terms_for(analyzer, c.query));
    EXPECT_EQ(snippet.text, text) << c.query;
    EXPECT_EQ(highlighted(snippet), c.expected) << c.query;
  }
}

// Groups occur where Xapian's OP_PHRASE and OP_NEAR match: the words of
// NEAR/n and ADJ/n span at most n + (their number - 1) words, so two words
// are at most n - 1 words apart; a word of the text plays one part.
TEST(SnippetGroupTest, OccurrencesFollowTheSpan) {
  const Analyzer analyzer;
  const std::vector<HighlightCase> cases = {
      {"NEAR/2 at its limit",
       "mobile NEAR/2 phone tablet",
       "phone a mobile tablet",
       {"phone", "mobile", "tablet"}},
      {"NEAR/2 one word too far",
       "mobile NEAR/2 phone tablet",
       "mobile a b phone tablet",
       {"tablet"}},
      {"ADJ/2 at its limit",
       "mobile ADJ/2 phone tablet",
       "mobile a phone tablet",
       {"mobile", "phone", "tablet"}},
      {"ADJ/2 reversed", "mobile ADJ/2 phone tablet", "phone a mobile tablet", {"tablet"}},
      {"NEAR of three at its limit",
       "a NEAR/2 b NEAR/2 c tablet",
       "c b x a tablet",
       {"c", "b", "a", "tablet"}},
      {"every word that plays a part",
       "mobile NEAR/1 phone tablet",
       "mobile x mobile phone mobile x mobile tablet",
       {"mobile", "phone", "mobile", "tablet"}},
      {"one word cannot play twice", "\"the the\" tablet", "match the tablet", {"tablet"}},
      {"nor twice in NEAR", "the NEAR/1 the tablet", "match the tablet", {"tablet"}},
      {"a repeated word, twice",
       "\"the the\" tablet",
       "match the the tablet",
       {"the", "the", "tablet"}},
      {"phrase of three", "\"a b c\" tablet", "a b d c a b c tablet", {"a", "b", "c", "tablet"}},
  };
  for (const HighlightCase& c : cases) {
    const Snippet snippet = make_snippet(analyzer, c.text, terms_for(analyzer, c.query));
    EXPECT_EQ(highlighted(snippet), c.expected) << c.name;
  }
}

// The words of `text` (one letter each, one space apart) that some
// occurrence of the group uses, trying every choice of distinct words; all
// the group's words when none occurs, as nothing else would be marked.
std::vector<std::size_t> words_in_occurrences(const std::vector<std::string>& text,
                                              const std::vector<std::string>& group,
                                              std::size_t span, bool ordered) {
  std::vector<bool> used(text.size(), false), marked(text.size(), false);
  std::vector<std::size_t> chosen;
  auto choose = [&](auto&& self) -> void {
    if (chosen.size() == group.size()) {
      const auto [low, high] = std::minmax_element(chosen.begin(), chosen.end());
      if (*high - *low < span) {
        for (std::size_t word : chosen) marked[word] = true;
      }
      return;
    }
    for (std::size_t w = 0; w < text.size(); ++w) {
      if (used[w] || text[w] != group[chosen.size()]) continue;
      if (ordered && !chosen.empty() && w < chosen.back()) continue;
      used[w] = true;
      chosen.push_back(w);
      self(self);
      chosen.pop_back();
      used[w] = false;
    }
  };
  choose(choose);
  const bool none = std::find(marked.begin(), marked.end(), true) == marked.end();
  std::vector<std::size_t> words;
  for (std::size_t w = 0; w < text.size(); ++w) {
    const bool in_group = std::find(group.begin(), group.end(), text[w]) != group.end();
    if (marked[w] || (none && in_group)) words.push_back(w);
  }
  return words;
}

TEST(SnippetGroupTest, MarksWhatTryingEveryChoiceOfWordsMarks) {
  const Analyzer analyzer;
  std::mt19937 random(20171210);
  auto pick = [&](std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(random);
  };
  const std::vector<std::string> letters = {"a", "b", "c", "x"};
  for (int round = 0; round < 3000; ++round) {
    std::vector<std::string> group(2 + pick(2));
    for (std::string& word : group) word = letters[pick(3)];
    const int form = static_cast<int>(pick(3));  // phrase, ADJ, NEAR
    const std::size_t window = 1 + pick(4);
    std::string query = form == 0 ? "\"" : "";
    for (std::size_t i = 0; i < group.size(); ++i) {
      if (i > 0)
        query += form == 0   ? " "
                 : form == 1 ? " ADJ/" + std::to_string(window) + " "
                             : " NEAR/" + std::to_string(window) + " ";
      query += group[i];
    }
    if (form == 0) query += "\"";
    const std::size_t span = form == 0 ? group.size() : window + group.size() - 1;

    std::vector<std::string> words(4 + pick(9));
    std::string text;
    for (std::string& word : words) {
      word = letters[pick(4)];
      text += (text.empty() ? "" : " ") + word;
    }
    std::vector<std::size_t> marked;
    for (const Highlight& h :
         highlight_all(analyzer, text, terms_for(analyzer, query)).highlights) {
      marked.push_back(h.begin / 2);
    }
    EXPECT_EQ(marked, words_in_occurrences(words, group, span, form != 2))
        << query << " in \"" << text << '"';
  }
}

}  // namespace
}  // namespace quarry
