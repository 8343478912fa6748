#include "app/output.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace quarry {
namespace {

Hit make_hit(std::size_t rank, std::string id, std::string title, double score, Snippet snippet) {
  Hit hit;
  hit.rank = rank;
  hit.id = std::move(id);
  hit.title = std::move(title);
  hit.score = score;
  hit.snippet = std::move(snippet);
  return hit;
}

SearchResult two_hits() {
  SearchResult result;
  result.query = "mourinho";
  result.total = 2;
  result.hits.push_back(make_hit(1, "a.txt", "Mourinho leaves", 1.23456,
                                 {"\u2026said Mourinho today\u2026", {{6, 14}}}));
  result.hits.push_back(
      make_hit(2, "b.txt", "Café talk", 0.5, {"le café de 😀 Mourinho", {{3, 7}, {13, 21}}}));
  return result;
}

std::string text_of(const SearchResult& result, bool color) {
  std::ostringstream out;
  write_text(out, result, TextStyle{color});
  return out.str();
}

std::string json_of(const SearchResult& result) {
  std::ostringstream out;
  write_json(out, result);
  return out.str();
}

// Where the ANSI escape "ESC [ digits/; m" starting at `at` ends, or npos.
std::size_t escape_end(const std::string& text, std::size_t at) {
  if (text.compare(at, 2, "\x1b[") != 0) return std::string::npos;
  std::size_t i = at + 2;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == ';')) {
    ++i;
  }
  return i < text.size() && text[i] == 'm' ? i + 1 : std::string::npos;
}

std::string strip_ansi(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t end = escape_end(text, i);
    if (end != std::string::npos) {
      i = end;
    } else {
      out.push_back(text[i++]);
    }
  }
  return out;
}

// The words that follow a colour-starting escape (not a reset).
std::vector<std::string> coloured_words(const std::string& text) {
  std::vector<std::string> words;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const std::size_t end = escape_end(text, i);
    if (end == std::string::npos || text.compare(i, end - i, "\x1b[0m") == 0) continue;
    const std::size_t stop = text.find('\x1b', end);
    words.push_back(text.substr(end, stop - end));
  }
  return words;
}

// The code points [begin, end) of UTF-8 `text`.
std::string code_point_substr(const std::string& text, std::size_t begin, std::size_t end) {
  std::string out;
  std::size_t index = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i > 0 && (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++index;
    if (index >= end) break;
    if (index >= begin) out.push_back(text[i]);
  }
  return out;
}

std::vector<std::string> testing_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(OutputTest, PlainTextHasNoEscapes) {
  EXPECT_EQ(text_of(two_hits(), false),
            "2 articles match\n"
            "1. Mourinho leaves  [1.235]\n"
            "   a.txt\n"
            "   \u2026said Mourinho today\u2026\n"
            "2. Café talk  [0.500]\n"
            "   b.txt\n"
            "   le café de 😀 Mourinho\n");
}

TEST(OutputTest, ColorWrapsExactlyTheHighlightedWords) {
  const std::string colored = text_of(two_hits(), true);
  EXPECT_NE(colored.find('\x1b'), std::string::npos);
  // Colour changes nothing a reader sees but the colour.
  EXPECT_EQ(strip_ansi(colored), text_of(two_hits(), false));
  struct Case {
    std::string highlighted;  // must be wrapped in escapes
    std::string before;       // what comes right before it
  };
  const std::vector<Case> cases = {{"Mourinho", "said "}, {"café", "le "}, {"Mourinho", "😀 "}};
  for (const Case& c : cases) {
    // before, a colour escape, the word, a reset.
    bool found = false;
    for (std::size_t at = colored.find(c.before); at != std::string::npos && !found;
         at = colored.find(c.before, at + 1)) {
      const std::size_t end = escape_end(colored, at + c.before.size());
      found = end != std::string::npos &&
              colored.compare(end, c.highlighted.size() + 4, c.highlighted + "\x1b[0m") == 0;
    }
    EXPECT_TRUE(found) << c.highlighted << " in " << colored;
  }
  // Words that are not highlighted stay plain.
  for (const std::string& word : coloured_words(colored)) {
    for (const char* plain : {"said", "today", "le", "de"}) EXPECT_NE(word, plain) << colored;
  }
}

TEST(OutputTest, DisplayWidthCountsColumnsOnATerminal) {
  const struct {
    std::string text;
    std::size_t width;
  } cases[] = {
      {"", 0},       {"Mourinho", 8},   {"\x1b[1;33mMourinho\x1b[0m", 8},
      {"café", 4},   {"cafe\u0301", 4},                   // NFD: the accent takes no column
      {"日本語", 6}, {"😀 ok", 5},       {"\xff\xfe", 2},  // not UTF-8: a column a byte
  };
  for (const auto& c : cases) EXPECT_EQ(display_width(c.text), c.width) << c.text;
}

TEST(OutputTest, ScreenRowsCountWrappedLines) {
  const struct {
    std::string text;
    std::size_t columns;
    std::size_t rows;
  } cases[] = {
      {"", 10, 1},
      {"one\ntwo", 10, 2},
      {"one\n\ntwo", 10, 3},
      {std::string(10, 'a'), 10, 1},
      {std::string(11, 'a'), 10, 2},
      {std::string(25, 'a') + "\nb", 10, 4},
      {"日本語日本語", 10, 2},
      {std::string(25, 'a'), 0, 1},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(screen_rows(c.text, c.columns), c.rows) << c.text << " in " << c.columns;
  }
}

TEST(OutputTest, WrapBreaksAtSpacesWithinTheWidth) {
  const struct {
    std::string line;
    std::size_t width;
    std::string wrapped;
  } cases[] = {
      {"   one two three four", 10, "   one two\n   three\n   four"},
      {"   one two", 10, "   one two"},
      {"   one two", 0, "   one two"},
      {"1. Averyveryverylongword x", 10, "1.\n   Averyveryverylongword\n   x"},
      {"\x1b[1mone\x1b[0m two three", 9, "\x1b[1mone\x1b[0m two\n   three"},
      {"日本 日本 日本", 10, "日本 日本\n   日本"},
  };
  for (const auto& c : cases) EXPECT_EQ(wrap(c.line, c.width, "   "), c.wrapped) << c.line;
}

TEST(OutputTest, TitlesAndSnippetsWrapToTheWidthAsked) {
  SearchResult result = two_hits();
  result.hits[0].title = "Mourinho leaves United after a derby that nobody at Old Trafford forgets";
  result.hits[0].snippet.text =
      "…said Mourinho today, as the players left the pitch and the crowd sang about the "
      "manager who had spent more than any other…";
  for (const bool color : {false, true}) {
    std::ostringstream out;
    write_text(out, result, TextStyle{color, 30});
    const std::string wrapped = strip_ansi(out.str());
    for (const std::string& line : testing_lines(wrapped)) {
      EXPECT_LE(display_width(line), 30u) << line;
    }
    // Nothing but line breaks and indents is added.
    std::istringstream wrapped_words(wrapped), plain_words(text_of(result, false));
    EXPECT_TRUE(std::equal(std::istream_iterator<std::string>(wrapped_words), {},
                           std::istream_iterator<std::string>(plain_words), {}));
    EXPECT_GT(testing_lines(wrapped).size(), testing_lines(text_of(result, false)).size());
  }
}

TEST(OutputTest, ZeroHitsSaySo) {
  SearchResult result;
  result.query = "zidane";
  for (bool color : {false, true}) {
    EXPECT_EQ(text_of(result, color), "No articles match.\n") << color;
  }
}

TEST(OutputTest, TitleFallsBackToIdAndEmptySnippetIsLeftOut) {
  SearchResult result;
  result.total = 1;
  result.hits.push_back(make_hit(1, "x/y.txt", "", 2, {}));
  EXPECT_EQ(text_of(result, false), "1 article matches\n1. x/y.txt  [2.000]\n   x/y.txt\n");
}

TEST(OutputTest, TextCountsTheMatchesWhateverThePage) {
  struct Case {
    std::size_t total;
    bool exact;
    std::string first_line;
  };
  const std::vector<Case> cases = {
      {0, true, "No articles match."},
      {1, true, "1 article matches"},
      {86, true, "86 articles match"},
      {1234, true, "1,234 articles match"},
      {10000, false, "10,000+ articles match"},
      {1, false, "1+ articles match"},
      {1234567, true, "1,234,567 articles match"},
  };
  for (const Case& c : cases) {
    SearchResult result;
    result.total = c.total;
    result.total_exact = c.exact;
    // No hits on this page (-n 0, or an offset past them): the count still shows.
    EXPECT_EQ(text_of(result, false), c.first_line + "\n") << c.total;
  }
}

TEST(OutputTest, TextShowsWhatEachHitIs) {
  SearchResult result = two_hits();
  result.hits[0].date = "2017-12-10T15:01:01";
  result.hits[0].source = "Press Association";
  result.hits[0].category = "sport";
  result.hits[1].source = "BBC News";
  const std::vector<std::string> lines = [&] {
    std::vector<std::string> all;
    std::istringstream in(text_of(result, false));
    for (std::string line; std::getline(in, line);) all.push_back(line);
    return all;
  }();
  ASSERT_GE(lines.size(), 6u);
  EXPECT_EQ(lines[2], "   a.txt · 2017-12-10T15:01:01 · Press Association · sport");
  EXPECT_EQ(lines[5], "   b.txt · BBC News");
  // In colour, the line is dim.
  const std::string colored = text_of(result, true);
  EXPECT_NE(colored.find("\x1b[2ma.txt · 2017-12-10T15:01:01 · Press Association · sport\x1b[0m"),
            std::string::npos)
      << colored;
}

TEST(OutputTest, TitleWordsAreHighlightedLikeSnippetWords) {
  SearchResult result = two_hits();
  result.hits[0].title_highlights = {{0, 8}};
  const std::string colored = text_of(result, true);
  // Bold title, the word in the match colour, then bold again for the rest.
  EXPECT_NE(colored.find("\x1b[1m\x1b[1;33mMourinho\x1b[0m\x1b[1m leaves\x1b[0m"),
            std::string::npos)
      << colored;
  EXPECT_EQ(strip_ansi(colored), text_of(result, false));
  const nlohmann::json json = nlohmann::json::parse(json_of(result));
  EXPECT_EQ(json["hits"][0]["title_highlights"], nlohmann::json::parse("[[0, 8]]"));
  EXPECT_EQ(json["hits"][1]["title_highlights"], nlohmann::json::array());
}

TEST(OutputTest, FacetsAreAShortBlockInTextAndEveryValueInJson) {
  SearchResult result;
  result.total = 14;
  Facet source{FacetField::kSource, {{"Reuters", 12}, {"AP", 2}}};
  Facet date{FacetField::kDate, {}};
  for (int month = 1; month <= 12; ++month) {
    date.values.push_back({"1987-" + std::string(month < 10 ? "0" : "") + std::to_string(month),
                           static_cast<std::size_t>(month == 3 ? 3 : 1)});
  }
  result.facets = {source, date, Facet{FacetField::kCategory, {}}};
  EXPECT_EQ(text_of(result, false),
            "14 articles match\n"
            "  source: Reuters 12 · AP 2\n"
            "  date: 1987-01 1 · 1987-02 1 · 1987-03 3 · 1987-04 1 · 1987-05 1 · 1987-06 1 · "
            "1987-07 1 · 1987-08 1 · 1987-09 1 · 1987-10 1 · 2 more\n"
            "  category: none\n");
  const nlohmann::json json = nlohmann::json::parse(json_of(result));
  EXPECT_EQ(json["facets"]["source"], nlohmann::json::parse(R"([["Reuters", 12], ["AP", 2]])"));
  EXPECT_EQ(json["facets"]["date"].size(), 12u);
  EXPECT_EQ(json["facets"]["category"], nlohmann::json::array());
  // Asked-for order.
  std::vector<std::string> keys;
  const auto ordered = nlohmann::ordered_json::parse(json_of(result));
  for (const auto& [key, value] : ordered["facets"].items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"source", "date", "category"}));
  EXPECT_FALSE(nlohmann::json::parse(json_of(two_hits())).contains("facets"));
}

TEST(OutputTest, JsonSaysWhetherTheTotalIsExact) {
  SearchResult result = two_hits();
  EXPECT_EQ(nlohmann::json::parse(json_of(result))["total_relation"], "eq");
  result.total = 10000;
  result.total_exact = false;
  const nlohmann::json json = nlohmann::json::parse(json_of(result));
  EXPECT_EQ(json["total"], 10000);
  EXPECT_EQ(json["total_relation"], "gte");
}

TEST(OutputTest, JsonParsesBackWithEveryField) {
  const std::string line = json_of(two_hits());
  ASSERT_TRUE(line.ends_with("\n"));
  EXPECT_EQ(line.find('\n'), line.size() - 1) << "one line";
  const nlohmann::json json = nlohmann::json::parse(line);
  EXPECT_EQ(json["query"], "mourinho");
  EXPECT_EQ(json["total"], 2);
  EXPECT_FALSE(json.contains("notes"));
  ASSERT_TRUE(json["hits"].is_array());
  ASSERT_EQ(json["hits"].size(), 2u);
  const nlohmann::json& first = json["hits"][0];
  EXPECT_EQ(first["rank"], 1);
  EXPECT_EQ(first["id"], "a.txt");
  EXPECT_EQ(first["title"], "Mourinho leaves");
  EXPECT_DOUBLE_EQ(first["score"].get<double>(), 1.23456);
  EXPECT_EQ(first["snippet"], "\u2026said Mourinho today\u2026");
  EXPECT_EQ(first["highlights"], nlohmann::json::parse("[[6, 14]]"));
  EXPECT_EQ(json["hits"][1]["highlights"], nlohmann::json::parse("[[3, 7], [13, 21]]"));
  // Fields an article lacks are left out.
  for (const char* field : {"date", "source", "category"}) EXPECT_FALSE(first.contains(field));
}

TEST(OutputTest, JsonHitsCarryDateSourceAndCategory) {
  SearchResult result = two_hits();
  result.hits[0].date = "2017-12-10";
  result.hits[0].source = "Press Association";
  result.hits[0].category = "sport";
  const nlohmann::json hit = nlohmann::json::parse(json_of(result))["hits"][0];
  EXPECT_EQ(hit["date"], "2017-12-10");
  EXPECT_EQ(hit["source"], "Press Association");
  EXPECT_EQ(hit["category"], "sport");
}

TEST(OutputTest, JsonHighlightsPointAtTheWordsOfTheSnippet) {
  const nlohmann::json json = nlohmann::json::parse(json_of(two_hits()));
  const std::vector<std::vector<std::string>> expected = {{"Mourinho"}, {"café", "Mourinho"}};
  for (std::size_t h = 0; h < expected.size(); ++h) {
    const nlohmann::json& hit = json["hits"][h];
    const std::string snippet = hit["snippet"];
    std::vector<std::string> words;
    for (const nlohmann::json& range : hit["highlights"]) {
      ASSERT_TRUE(range.is_array());
      ASSERT_EQ(range.size(), 2u);
      words.push_back(code_point_substr(snippet, range[0], range[1]));
    }
    EXPECT_EQ(words, expected[h]);
  }
}

TEST(OutputTest, JsonNotesOnlyWhenThereAreAny) {
  SearchResult result;
  result.query = "\"derby";
  result.notes = {"unclosed quote at column 1: searched as a phrase to the end of the query"};
  const nlohmann::json json = nlohmann::json::parse(json_of(result));
  ASSERT_TRUE(json.contains("notes"));
  EXPECT_EQ(json["notes"], nlohmann::json(result.notes));
  EXPECT_EQ(json["hits"], nlohmann::json::array());
  EXPECT_EQ(json["total"], 0);
}

TEST(OutputTest, InvalidUtf8NeverThrows) {
  struct Case {
    std::string name;
    std::string title;
    std::string query;
  };
  const std::vector<Case> cases = {
      {"stray byte in title", "Caf\xff talk", "talk"},
      {"truncated sequence in title", "Caf\xc3", "talk"},
      {"surrogate in title", "\xed\xa0\x80 talk", "talk"},
      {"invalid query", "Café", "caf\xe9"},
  };
  for (const Case& c : cases) {
    SearchResult result;
    result.query = c.query;
    result.total = 1;
    result.hits.push_back(make_hit(1, "a.txt", c.title, 1, {"some talk", {{5, 9}}}));
    std::string line;
    ASSERT_NO_THROW(line = json_of(result)) << c.name;
    nlohmann::json json;
    ASSERT_NO_THROW(json = nlohmann::json::parse(line)) << c.name;
    EXPECT_EQ(json["hits"][0]["id"], "a.txt") << c.name;
    for (bool color : {false, true}) {
      std::string text;
      ASSERT_NO_THROW(text = text_of(result, color)) << c.name;
      EXPECT_NE(text.find("a.txt"), std::string::npos) << c.name;
    }
  }
}

}  // namespace
}  // namespace quarry
