#include "app/common/text_printer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "tests/printer_samples.h"

namespace quarry::testing {
namespace {

// An answer alone, as `quarry QUERY` writes it.
std::string text_of(const SearchResult& result, bool color) {
  std::ostringstream out;
  TextPrinter(out, TextStyle{color}).answer(result, {});
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

std::vector<std::string> testing_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(TextPrinterTest, PlainTextHasNoEscapes) {
  EXPECT_EQ(text_of(two_hits(), false),
            "2 articles match\n"
            "1. Mourinho leaves  [1.235]\n"
            "   a.txt\n"
            "   \u2026said Mourinho today\u2026\n"
            "2. Café talk  [0.500]\n"
            "   b.txt\n"
            "   le café de 😀 Mourinho\n");
}

TEST(TextPrinterTest, ControlCharactersFromArticlesAreShownNotObeyed) {
  // A title that would retitle the window and clear the screen; an id with
  // ESC and CR; a source with BEL.
  SearchResult result;
  result.total = 1;
  Hit hit = make_hit(1, "a\x1b[31m\r.txt", "\x1b]0;pwned\x07 \x1b[2J talk", 1,
                     {"some talk\x1b[2J", {{5, 9}}});
  hit.source = "wire\x07";
  result.hits.push_back(hit);
  const std::string plain = text_of(result, false);
  for (const char c : plain)
    EXPECT_TRUE(c == '\n' || static_cast<unsigned char>(c) >= 0x20) << plain;
  EXPECT_NE(plain.find("^[]0;pwned^G ^[[2J talk"), std::string::npos) << plain;
  EXPECT_NE(plain.find("a^[[31m^M.txt"), std::string::npos) << plain;
  EXPECT_NE(plain.find("wire^G"), std::string::npos) << plain;
  EXPECT_NE(plain.find("some talk^[[2J"), std::string::npos) << plain;
  // In colour, the only escapes are the printer's own.
  const std::string colored = text_of(result, true);
  EXPECT_EQ(strip_ansi(colored), plain);
  for (const char c : strip_ansi(colored)) {
    EXPECT_TRUE(c == '\n' || static_cast<unsigned char>(c) >= 0x20) << colored;
  }
}

TEST(TextPrinterTest, ColorWrapsExactlyTheHighlightedWords) {
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

TEST(TextPrinterTest, TitlesAndSnippetsWrapToTheWidthAsked) {
  SearchResult result = two_hits();
  result.hits[0].title = "Mourinho leaves United after a derby that nobody at Old Trafford forgets";
  result.hits[0].snippet.text =
      "…said Mourinho today, as the players left the pitch and the crowd sang about the "
      "manager who had spent more than any other…";
  for (const bool color : {false, true}) {
    std::ostringstream out;
    TextPrinter(out, TextStyle{color, 30}).answer(result, {});
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

// Every line under a hit starts under its title, "10. " as "9. ".
TEST(TextPrinterTest, LinesUnderAHitStartUnderItsTitleWhateverItsRank) {
  SearchResult result;
  result.total = 2000;
  for (const std::size_t rank : {9, 10, 100, 1000}) {
    Hit hit = make_hit(rank, "id-" + std::to_string(rank), "A title long enough to wrap twice", 1,
                       {"a snippet long enough to wrap at least once here", {{2, 9}}});
    hit.more_total = 1;
    hit.more = {"other.txt"};
    hit.explanation = {{"bm25", 1}};
    result.hits.push_back(hit);
  }
  for (const std::size_t width : {0, 24}) {
    std::ostringstream out;
    TextPrinter(out, TextStyle{false, width}).answer(result, {});
    std::size_t indent = 0;
    for (const std::string& line : testing_lines(out.str())) {
      const std::size_t dot = line.find(". ");
      if (dot != std::string::npos && line.find_first_not_of("0123456789") == dot) {
        indent = dot + 2;
        continue;
      }
      if (indent == 0) continue;
      EXPECT_EQ(line.find_first_not_of(' '), indent) << width << " columns: '" << line << "' in\n"
                                                     << out.str();
    }
  }
}

// The prompt's pages go through the hits it shows, the stories when they
// group the matches, and its footer counts those.
TEST(TextPrinterTest, DecorationsCountTheHitsPagedThrough) {
  struct Case {
    std::size_t total;
    bool total_exact;
    std::size_t stories;
    bool stories_exact;
    Collapse collapse;
    std::string footer;
  };
  const std::vector<Case> cases = {
      {182, true, 153, true, Collapse::kStory, "Hits 151-152 of 153 stories (1.5 ms)"},
      {153, true, 153, true, Collapse::kStory, "Hits 151-152 of 153 (1.5 ms)"},
      {182, true, 182, true, Collapse::kNone, "Hits 151-152 of 182 (1.5 ms)"},
      {182, true, 160, true, Collapse::kDuplicates,
       "Hits 151-152 of 160 near-duplicate groups (1.5 ms)"},
      {10000, false, 7900, false, Collapse::kStory, "Hits 151-152 of about 7,900 stories (1.5 ms)"},
      {10000, false, 10000, false, Collapse::kNone, "Hits 151-152 of 10,000+ (1.5 ms)"},
  };
  for (const Case& c : cases) {
    SearchResult result;
    result.total = c.total;
    result.total_exact = c.total_exact;
    result.stories = c.stories;
    result.stories_exact = c.stories_exact;
    result.collapse = c.collapse;
    result.offset = 150;
    result.hits = {make_hit(151, "a.txt", "A", 1, {}), make_hit(152, "b.txt", "B", 1, {})};
    std::ostringstream out;
    TextPrinter(out, TextStyle{}, TextLayout{true, false}).answer(result, {std::nullopt, 1.5});
    const std::vector<std::string> lines = testing_lines(out.str());
    ASSERT_GE(lines.size(), 2u);
    EXPECT_EQ(lines[lines.size() - 2], c.footer) << out.str();
  }
}

TEST(TextPrinterTest, ZeroHitsSaySo) {
  SearchResult result;
  result.query = "zidane";
  for (bool color : {false, true}) {
    EXPECT_EQ(text_of(result, color), "No articles match.\n") << color;
  }
}

TEST(TextPrinterTest, TitleFallsBackToIdAndEmptySnippetIsLeftOut) {
  SearchResult result;
  result.total = 1;
  result.hits.push_back(make_hit(1, "x/y.txt", "", 2, {}));
  EXPECT_EQ(text_of(result, false), "1 article matches\n1. x/y.txt  [2.000]\n   x/y.txt\n");
}

TEST(TextPrinterTest, TextCountsTheMatchesWhateverThePage) {
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

TEST(TextPrinterTest, TextSaysTheStoriesWhenTheyGroupTheMatches) {
  struct Case {
    std::size_t total;
    bool total_exact;
    std::size_t stories;
    bool stories_exact;
    Collapse collapse;
    std::size_t offset;
    std::string text;
  };
  const std::vector<Case> cases = {
      {86, true, 67, true, Collapse::kStory, 0, "86 articles match, 67 stories\n"},
      {3, true, 1, true, Collapse::kStory, 0, "3 articles match, 1 story\n"},
      {86, true, 86, true, Collapse::kStory, 0, "86 articles match\n"},
      {86, true, 80, true, Collapse::kDuplicates, 0,
       "86 articles match, 80 near-duplicate groups\n"},
      {2, true, 1, true, Collapse::kDuplicates, 0, "2 articles match, 1 near-duplicate group\n"},
      // The search says no more stories than articles: as many, they group
      // nothing said.
      {10000, false, 10000, false, Collapse::kStory, 0, "10,000+ articles match\n"},
      {10000, false, 13387, false, Collapse::kStory, 0, "10,000+ articles match\n"},
      {10000, false, 7900, false, Collapse::kStory, 0,
       "10,000+ articles match, about 7,900 stories\n"},
      {10000, false, 10000, false, Collapse::kNone, 0, "10,000+ articles match\n"},
      {180, true, 169, true, Collapse::kStory, 5000,
       "180 articles match, 169 stories\n"
       "No hits here: the page starts at 5,001, past the last of 169 stories.\n"},
      {3, true, 3, true, Collapse::kNone, 3,
       "3 articles match\nNo hits here: the page starts at 4, past the last of 3 articles.\n"},
  };
  for (const Case& c : cases) {
    SearchResult result;
    result.total = c.total;
    result.total_exact = c.total_exact;
    result.stories = c.stories;
    result.stories_exact = c.stories_exact;
    result.collapse = c.collapse;
    result.offset = c.offset;
    EXPECT_EQ(text_of(result, false), c.text);
  }
}

TEST(TextPrinterTest, TextShowsWhatEachHitIs) {
  SearchResult result = two_hits();
  describe(result.hits[0], "2017-12-10T15:01:01", "Press Association", "sport", "en");
  result.hits[1].source = "BBC News";
  result.hits[1].language = "fr";
  const std::vector<std::string> lines = [&] {
    std::vector<std::string> all;
    std::istringstream in(text_of(result, false));
    for (std::string line; std::getline(in, line);) all.push_back(line);
    return all;
  }();
  ASSERT_GE(lines.size(), 6u);
  EXPECT_EQ(lines[2], "   a.txt · 2017-12-10T15:01:01 · Press Association · sport · en");
  EXPECT_EQ(lines[5], "   b.txt · BBC News · fr");
  // In colour, the line is dim.
  const std::string colored = text_of(result, true);
  EXPECT_NE(
      colored.find("\x1b[2ma.txt · 2017-12-10T15:01:01 · Press Association · sport · en\x1b[0m"),
      std::string::npos)
      << colored;
}

TEST(TextPrinterTest, TitleWordsAreHighlightedLikeSnippetWords) {
  SearchResult result = two_hits();
  result.hits[0].title_highlights = {{0, 8}};
  const std::string colored = text_of(result, true);
  // Bold title, the word in the match colour, then bold again for the rest.
  EXPECT_NE(colored.find("\x1b[1m\x1b[1;33mMourinho\x1b[0m\x1b[1m leaves\x1b[0m"),
            std::string::npos)
      << colored;
  EXPECT_EQ(strip_ansi(colored), text_of(result, false));
}

// The ten largest values of a field; every date, a timeline cut short
// would end early.
TEST(TextPrinterTest, FacetsAreAShortBlock) {
  SearchResult result;
  result.total = 14;
  Facet source{FacetField::kSource, {{"Reuters", 12}, {"AP", 2}}};
  Facet category{FacetField::kCategory, {}};
  Facet date{FacetField::kDate, {}};
  for (int month = 1; month <= 12; ++month) {
    const std::string name = (month < 10 ? "0" : "") + std::to_string(month);
    date.values.push_back({"1987-" + name, static_cast<std::size_t>(month == 3 ? 3 : 1)});
    category.values.push_back({"c" + name, 1});
  }
  result.facets = {source, date, category, Facet{FacetField::kCategory, {}}};
  EXPECT_EQ(text_of(result, false),
            "14 articles match\n"
            "  source: Reuters 12 · AP 2\n"
            "  date: 1987-01 1 · 1987-02 1 · 1987-03 3 · 1987-04 1 · 1987-05 1 · 1987-06 1 · "
            "1987-07 1 · 1987-08 1 · 1987-09 1 · 1987-10 1 · 1987-11 1 · 1987-12 1\n"
            "  category: c01 1 · c02 1 · c03 1 · c04 1 · c05 1 · c06 1 · c07 1 · c08 1 · c09 1 · "
            "c10 1 · 2 more\n"
            "  category: none\n");
}

TEST(TextPrinterTest, InvalidUtf8NeverThrows) {
  for (const auto& [name, result] : invalid_utf8_samples()) {
    for (bool color : {false, true}) {
      std::string text;
      ASSERT_NO_THROW(text = text_of(result, color)) << name;
      EXPECT_NE(text.find("a.txt"), std::string::npos) << name;
    }
  }
}

// A run of answers as a batch run, the prompt or a pipe lays them out.
TEST(TextPrinterTest, RunsSetAnswersApartOrDecorateThem) {
  SearchResult none;
  none.query = "zidane";
  const std::string answer = text_of(two_hits(), false);
  const std::string nothing = text_of(none, false);
  struct Case {
    std::string name;
    TextLayout layout;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"apart", {}, answer + "\n" + nothing + answer + "3 articles match\n"},
      {"after answers in another format",
       {false, true},
       "\n" + answer + "\n" + nothing + answer + "3 articles match\n"},
      {"decorated",
       {true, false},
       answer + "Hits 1-2 of 2 (2.5 ms)\n\n" + nothing + "\n" + answer + "\n3 articles match\n\n"},
  };
  for (const Case& c : cases) {
    std::ostringstream out;
    TextPrinter printer(out, TextStyle{}, c.layout);
    printer.begin_run();
    printer.answer(two_hits(), {std::nullopt, 2.5});
    printer.answer(none, {std::nullopt, 1.0});
    // Facets of the last query: no new answer, so nothing sets them apart.
    SearchResult counted = two_hits();
    counted.total = 3;
    counted.hits.clear();
    printer.facets(two_hits());
    printer.facets(counted);
    printer.end_run();
    EXPECT_EQ(out.str(), c.expected) << c.name;
  }
}

TEST(TextPrinterTest, AnswersAndErrorsWithAQidAreHeadedByTheirQuery) {
  for (const bool color : {false, true}) {
    std::ostringstream out;
    TextPrinter printer(out, TextStyle{color});
    printer.answer(two_hits(), {"q7", 3.0});
    printer.query_error("penalty AND", "AND needs words on both sides", {"8", std::nullopt});
    const std::string expected = "Query q7: mourinho\n" + text_of(two_hits(), false) +
                                 "\nQuery 8: penalty AND\nerror: AND needs words on both sides\n";
    EXPECT_EQ(strip_ansi(out.str()), expected) << color;
    if (color) {
      EXPECT_TRUE(out.str().starts_with("\x1b[1mQuery q7: mourinho\x1b[0m\n"));
    }
  }
}

TEST(TextPrinterTest, LeavesNotesAndWarningsToTheDiagnostics) {
  SearchResult result = two_hits();
  result.notes = {"a note"};
  result.warnings = {"a warning"};
  std::ostringstream out;
  TextPrinter printer(out, TextStyle{});
  printer.answer(result, {});
  EXPECT_EQ(out.str(), text_of(two_hits(), false));
  EXPECT_TRUE(printer.diagnosed().notes);
  EXPECT_TRUE(printer.diagnosed().warnings);
}
}  // namespace
}  // namespace quarry::testing
