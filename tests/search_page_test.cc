// The search page's HTML: escaping, highlights placed by code points, links.
#include "app/search_page.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

TEST(UrlEncode, KeepsOnlyUnreservedCharacters) {
  EXPECT_EQ(url_encode("penalty Herrera"), "penalty%20Herrera");
  EXPECT_EQ(url_encode("a/b?c=d&e#f+g"), "a%2Fb%3Fc%3Dd%26e%23f%2Bg");
  EXPECT_EQ(url_encode("café"), "caf%C3%A9");
  EXPECT_EQ(url_encode("A-Z_a.z~0"), "A-Z_a.z~0");
}

TEST(SearchPage, RendersResultsAsEscapedMarkup) {
  SearchResult result;
  result.query = "penalty";
  result.total = 25;
  Hit hit;
  hit.rank = 11;
  hit.id = "dir/a b.txt";
  hit.title = "<script>alert(1)</script> penalty";
  hit.title_highlights = {{26, 33}};
  hit.date = "2017-12-10T15:01:01";
  hit.source = "A & B";
  hit.snippet = {"the penalty", {{4, 11}}};
  result.hits.push_back(hit);
  result.facets.push_back({FacetField::kSource, {{"Press \"Association\"", 3}}});
  SearchPageView view;
  view.query = "penalty \"<x>\"";
  view.offset = 10;
  view.result = &result;
  const std::string page = render_search_page(view);
  EXPECT_EQ(page.find("<script>alert"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;alert(1)&lt;/script&gt; <mark>penalty</mark>"),
            std::string::npos);
  EXPECT_NE(page.find("value=\"penalty &quot;&lt;x&gt;&quot;\""), std::string::npos);
  EXPECT_NE(page.find("<ol class=\"hits\" start=\"11\">"), std::string::npos);
  EXPECT_NE(page.find("href=\"/articles/dir%2Fa%20b.txt?q=penalty%20%22%3Cx%3E%22\""),
            std::string::npos);
  EXPECT_NE(page.find("<span class=\"date\">2017-12-10</span> · <span class=\"source\">A &amp; "
                      "B</span>"),
            std::string::npos);
  EXPECT_NE(page.find("the <mark>penalty</mark>"), std::string::npos);
  EXPECT_NE(page.find("25 articles match"), std::string::npos);
  // Pages: back to the first, on to the third.
  EXPECT_NE(page.find("href=\"/?q=penalty%20%22%3Cx%3E%22\">← Previous"), std::string::npos);
  EXPECT_NE(page.find("href=\"/?q=penalty%20%22%3Cx%3E%22&amp;offset=20\">Next"),
            std::string::npos);
  // A facet narrows the query with a filter, its quotes dropped.
  EXPECT_NE(page.find("href=\"/?q=penalty%20%22%3Cx%3E%22%20source%3A%22Press%20Association%22\""),
            std::string::npos);
}

TEST(SearchPage, BareFormHasNoResults) {
  const std::string page = render_search_page({});
  EXPECT_NE(page.find("<form id=\"search\""), std::string::npos);
  EXPECT_EQ(page.find("class=\"count\""), std::string::npos);
  EXPECT_EQ(page.find("{{"), std::string::npos);
}

}  // namespace
}  // namespace quarry
