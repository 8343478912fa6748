// The markup of the search page's pieces: escaping, highlights placed by code points, links.
#include "app/server/page_markup.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/table_case.h"

namespace quarry {
namespace {

TEST(HtmlEscape, EscapesEveryCharacterThatMeansMarkup) {
  EXPECT_EQ(html_escape(""), "");
  EXPECT_EQ(html_escape("<script>alert('x') & \"y\"</script>"),
            "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;");
  EXPECT_EQ(html_escape("café 😀"), "café 😀");
}

TEST(HighlightedHtml, MarksCodePointRangesAndEscapesEverything) {
  struct Case {
    std::string text;
    std::vector<Highlight> highlights;
    std::string html;
  };
  const Case cases[] = {
      {"", {}, ""},
      {"penalty kick", {}, "penalty kick"},
      {"penalty kick", {{0, 7}}, "<mark>penalty</mark> kick"},
      {"penalty kick", {{0, 7}, {8, 12}}, "<mark>penalty</mark> <mark>kick</mark>"},
      {"Café Müller", {{0, 4}, {5, 11}}, "<mark>Café</mark> <mark>Müller</mark>"},
      {"😀 penalty", {{2, 9}}, "😀 <mark>penalty</mark>"},
      {"東京の天気", {{0, 2}}, "<mark>東京</mark>の天気"},
      {"<b>x</b> y", {{3, 4}}, "&lt;b&gt;<mark>x</mark>&lt;/b&gt; y"},
      {"a < b", {{4, 5}}, "a &lt; <mark>b</mark>"},
      // Out of order, overlapping or empty ranges are skipped; one past the
      // end stops at the end.
      {"one two", {{4, 7}, {0, 3}}, "one <mark>two</mark>"},
      {"one two", {{0, 5}, {4, 7}}, "<mark>one t</mark>wo"},
      {"one two", {{2, 2}}, "one two"},
      {"one", {{1, 99}}, "o<mark>ne</mark>"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(highlighted_html(c.text, c.highlights), c.html) << c.text;
  }
}

// An article's body shows as paragraphs, however many line breaks apart.
TEST(ParagraphsHtml, PutsEachLineInAParagraph) {
  const testing::TextCase cases[] = {
      {"", ""},
      {"one", "<p>one</p>"},
      {"one\ntwo", "<p>one</p><p>two</p>"},
      {"one\n\n\ntwo\n", "<p>one</p><p>two</p>"},
      {"\n  \none <mark>two</mark>\r\nthree", "<p>one <mark>two</mark></p><p>three</p>"},
  };
  for (const auto& [text, paragraphs] : cases) EXPECT_EQ(paragraphs_html(text), paragraphs) << text;
}

TEST(UrlEncode, KeepsOnlyUnreservedCharacters) {
  EXPECT_EQ(url_encode("penalty Herrera"), "penalty%20Herrera");
  EXPECT_EQ(url_encode("a/b?c=d&e#f+g"), "a%2Fb%3Fc%3Dd%26e%23f%2Bg");
  EXPECT_EQ(url_encode("café"), "caf%C3%A9");
  EXPECT_EQ(url_encode("A-Z_a.z~0"), "A-Z_a.z~0");
}

}  // namespace
}  // namespace quarry
