// The search page's results as the server renders them: escaped markup,
// links that keep the search's settings, pages, stories, like searches.
#include "app/server/search_page_printer.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace quarry {
namespace {

// The page the printer writes for `view`, with the answer `result` when
// there is one.
std::string page_of(const SearchPageView& view, const SearchResult* result = nullptr) {
  std::ostringstream out;
  SearchPagePrinter printer(out, view);
  printer.begin_run();
  if (result) printer.answer(*result, {});
  printer.end_run();
  return out.str();
}

TEST(SearchPagePrinter, RendersResultsAsEscapedMarkup) {
  SearchResult result;
  result.query = "penalty";
  result.total = 25;
  result.stories = 25;
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
  const std::string page = page_of(view, &result);
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

// The date facet is a timeline drawn in the markup: a bar a month, in date
// order with gaps for months without matches, heights as the counts, each
// bar a link narrowing the search to its month.
TEST(SearchPagePrinter, DatesAreATimelineOfBars) {
  SearchResult result;
  result.query = "oil";
  result.total = 1245;
  result.stories = 1245;
  result.facets.push_back({FacetField::kSource, {{"Reuters", 1245}}});
  result.facets.push_back(
      {FacetField::kDate, {{"1987-02", 16}, {"1987-03", 827}, {"1987-04", 400}, {"1987-06", 2}}});
  SearchPageView view;
  view.query = "oil";
  view.sort = SortOrder::kNewestFirst;
  const std::string page = page_of(view, &result);
  const std::size_t chart = page.find(
      "<section class=\"facet dates\"><h2>date</h2><svg class=\"timeline\" viewBox=\"0 0 100 "
      "40\" preserveAspectRatio=\"none\" role=\"group\" aria-label=\"Matches by month\">");
  ASSERT_NE(chart, std::string::npos) << page;
  const std::string bars[] = {
      "<a href=\"/?q=oil%20date%3A1987-02&amp;sort=-date\"><title>1987-02: 16 articles</title>"
      "<rect x=\"7\" y=\"39\" width=\"6\" height=\"1\"/></a>",
      "<a href=\"/?q=oil%20date%3A1987-03&amp;sort=-date\"><title>1987-03: 827 articles</title>"
      "<rect x=\"27\" y=\"0\" width=\"6\" height=\"40\"/></a>",
      "<a href=\"/?q=oil%20date%3A1987-04&amp;sort=-date\"><title>1987-04: 400 articles</title>"
      "<rect x=\"47\" y=\"21\" width=\"6\" height=\"19\"/></a>",
      // No May: a gap. Two beside 827 still shows.
      "<a href=\"/?q=oil%20date%3A1987-06&amp;sort=-date\"><title>1987-06: 2 articles</title>"
      "<rect x=\"87\" y=\"39\" width=\"6\" height=\"1\"/></a>",
  };
  std::size_t at = chart;
  for (const std::string& bar : bars) {
    const std::size_t found = page.find(bar, at);
    EXPECT_NE(found, std::string::npos) << bar << "\nin " << page;
    if (found != std::string::npos) at = found;
  }
  EXPECT_NE(page.find("</svg><p class=\"axis\"><span>1987-02</span><span>1987-06</span></p>"
                      "</section>",
                      at),
            std::string::npos);
  // Other facets stay lists.
  EXPECT_NE(
      page.find("<li><a href=\"/?q=oil%20source%3A%22Reuters%22&amp;sort=-date\">Reuters</a>"),
      std::string::npos);
}

// Years, when the dates span many: one bar, one label.
TEST(SearchPagePrinter, OneYearIsOneBar) {
  SearchResult result;
  result.total = 3;
  result.stories = 3;
  result.facets.push_back({FacetField::kDate, {{"2017", 1}}});
  const std::string page = page_of(SearchPageView{}, &result);
  EXPECT_NE(page.find("aria-label=\"Matches by year\"><a href=\"/?q=date%3A2017\"><title>2017: 1 "
                      "article</title><rect x=\"7\" y=\"0\" width=\"6\" height=\"40\"/></a></svg>"
                      "<p class=\"axis\"><span>2017</span></p>"),
            std::string::npos)
      << page;
}

// Matches of English and French articles, the first hit French.
SearchResult french_and_english() {
  SearchResult result;
  result.query = "trains";
  result.total = 12;
  result.stories = 12;
  Hit hit;
  hit.rank = 1;
  hit.id = "fr.txt";
  hit.title = "Grève";
  hit.source = "AFP";
  hit.language = "fr";
  result.hits.push_back(hit);
  result.facets.push_back({FacetField::kLanguage, {{"fr", 8}, {"en", 4}}});
  return result;
}

// Each hit says its language, and the language facet narrows the query to
// one by its code, unquoted.
TEST(SearchPagePrinter, LanguagesAreShownAndNarrowTheQuery) {
  const SearchResult result = french_and_english();
  SearchPageView view;
  view.query = "trains";
  const std::string page = page_of(view, &result);
  EXPECT_NE(page.find("<span class=\"source\">AFP</span> · <span class=\"language\">fr</span>"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("<section class=\"facet\"><h2>language</h2><ul><li><a "
                      "href=\"/?q=trains%20language%3Afr\">fr</a> <span class=\"n\">8</span>"),
            std::string::npos)
      << page;
  EXPECT_EQ(page.find("class=\"language\">Only"), std::string::npos);
  EXPECT_EQ(page.find("name=\"language\""), std::string::npos);
}

// A search in one language says so, keeps it in its links and its form,
// and links to every language.
TEST(SearchPagePrinter, OneLanguageIsSaidAndKept) {
  const SearchResult result = french_and_english();
  SearchPageView view;
  view.query = "trains";
  view.language = "fr";
  const std::string page = page_of(view, &result);
  EXPECT_NE(page.find("<p class=\"language\">Only articles in <span>fr</span>: <a "
                      "href=\"/?q=trains\">search every language</a></p>"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("<input id=\"language\" name=\"language\" type=\"hidden\" value=\"fr\">"),
            std::string::npos);
  EXPECT_NE(page.find("href=\"/?q=trains%20language%3Aen&amp;language=fr\">en</a>"),
            std::string::npos);
}

// Three reports of one story, shown once.
SearchResult one_story() {
  SearchResult result;
  result.query = "derby";
  result.total = 3;
  result.stories = 1;
  Hit hit;
  hit.rank = 1;
  hit.id = "a.txt";
  hit.title = "Derby";
  hit.story = "a.txt";
  hit.more = {"b.txt", "c d.txt"};
  hit.more_total = 2;
  result.hits.push_back(hit);
  return result;
}

TEST(SearchPagePrinter, AStorysOtherReportsOpenFromItsHit) {
  const SearchResult result = one_story();
  SearchPageView view;
  view.query = "derby";
  view.reports["b.txt"] = {"<i>Second</i> report", "2017-12-11T09:00:00", "Express"};
  const std::string page = page_of(view, &result);
  EXPECT_NE(page.find("<p class=\"count\" id=\"count\">3 articles match, 1 story</p>"),
            std::string::npos);
  EXPECT_NE(page.find("<details class=\"more\"><summary>+2 more reports</summary>"),
            std::string::npos);
  // Each report opens its article; one whose title is not known is listed
  // by its id.
  EXPECT_NE(page.find("<li><a href=\"/articles/b.txt?q=derby\">&lt;i&gt;Second&lt;/i&gt; "
                      "report</a> <span class=\"meta\"><span class=\"date\">2017-12-11</span> · "
                      "<span class=\"source\">Express</span></span></li>"),
            std::string::npos);
  EXPECT_NE(page.find("<li><a href=\"/articles/c%20d.txt?q=derby\">c d.txt</a></li>"),
            std::string::npos);
  EXPECT_EQ(page.find("class=\"rest\""), std::string::npos);
  // The pages go through stories, not articles.
  EXPECT_NE(page.find("<span class=\"range\">1–1 of 1 story</span>"), std::string::npos);
  EXPECT_EQ(page.find("rel=\"next\""), std::string::npos);
  EXPECT_NE(page.find("<option value=\"story\" selected>"), std::string::npos);
}

TEST(SearchPagePrinter, ReportsPastThoseListedAreCounted) {
  SearchResult result = one_story();
  result.hits[0].more_total = 14;
  SearchPageView view;
  view.query = "derby";
  const std::string page = page_of(view, &result);
  EXPECT_NE(page.find("<summary>+14 more reports</summary>"), std::string::npos);
  EXPECT_NE(page.find("<li class=\"rest\">… and 12 more</li>"), std::string::npos);
}

TEST(SearchPagePrinter, EachHitLinksToArticlesLikeIt) {
  const SearchResult result = one_story();
  SearchPageView view;
  view.query = "derby & co";
  view.collapse = Collapse::kNone;
  const std::string page = page_of(view, &result);
  // The search shown is where the like search goes back to.
  EXPECT_NE(page.find("<a class=\"like\" href=\"/?like=a.txt&amp;collapse=none&amp;from=derby%20%"
                      "26%20co\">More like this</a>"),
            std::string::npos);
  EXPECT_NE(page.find("<option value=\"none\" selected>All reports</option>"), std::string::npos);
}

TEST(SearchPagePrinter, ArticlesLikeOneSayWhichWithAWayBack) {
  SearchResult result = one_story();
  result.hits[0].more_total = 0;
  result.hits[0].more.clear();
  result.stories = result.total = 1;
  SearchPageView view;
  view.like = "x.txt";
  view.like_title = "The <first> one";
  view.from = "derby";
  std::string page = page_of(view, &result);
  EXPECT_NE(page.find("<p class=\"like\">Articles like <a href=\"/articles/x.txt\">The "
                      "&lt;first&gt; one</a></p>"),
            std::string::npos);
  EXPECT_NE(page.find("<p class=\"back\"><a href=\"/?q=derby\">← Results for derby</a></p>"),
            std::string::npos);
  EXPECT_NE(page.find("<title>Articles like The &lt;first&gt; one — Quarry</title>"),
            std::string::npos);
  // Shown a hit a story, its own story is left out: a link shows it all.
  EXPECT_NE(page.find("<a href=\"/?like=x.txt&amp;collapse=none&amp;from=derby\">show all "
                      "reports</a>"),
            std::string::npos);
  // Like a hit of a like search: back still goes to the query searched.
  EXPECT_NE(page.find("href=\"/?like=a.txt&amp;from=derby\">More like this"), std::string::npos);
  view.collapse = Collapse::kNone;
  page = page_of(view, &result);
  EXPECT_EQ(page.find("show all reports"), std::string::npos);
  EXPECT_NE(page.find("<a href=\"/?q=derby&amp;collapse=none\">← Results for derby</a>"),
            std::string::npos);
}

TEST(SearchPagePrinter, PagesOfStoriesKeepTheirGrouping) {
  SearchResult result;
  result.query = "oil";
  result.total = 86;
  result.stories = 80;
  result.stories_exact = false;
  for (std::size_t rank = 1; rank <= 10; ++rank) {
    Hit hit;
    hit.rank = rank;
    hit.id = std::to_string(rank);
    result.hits.push_back(hit);
  }
  SearchPageView view;
  view.query = "oil";
  std::string page = page_of(view, &result);
  EXPECT_NE(page.find("86 articles match, about 80 stories"), std::string::npos);
  EXPECT_NE(page.find("<span class=\"range\">1–10 of about 80 stories</span>"), std::string::npos);
  EXPECT_NE(page.find("href=\"/?q=oil&amp;offset=10\">Next"), std::string::npos);
  // Every report shown: the pages go through the articles.
  view.collapse = Collapse::kNone;
  result.stories = result.total;
  result.stories_exact = true;
  page = page_of(view, &result);
  EXPECT_NE(page.find("<span class=\"range\">1–10 of 86</span>"), std::string::npos);
  EXPECT_NE(page.find("href=\"/?q=oil&amp;offset=10&amp;collapse=none\">Next"), std::string::npos);
}

// "Newest relevant" is offered beside "Newest first", with the half-life
// the script sends; chosen, it stays chosen and its pages keep it.
TEST(SearchPagePrinter, NewestRelevantIsOfferedAndKept) {
  SearchPageView view;
  const std::string bare = page_of(view);
  EXPECT_NE(bare.find("<option value=\"relevance\" selected>Best match</option>"
                      "<option value=\"recent\" data-recency=\"7d\">Newest relevant</option>"
                      "<option value=\"-date\">Newest first</option>"),
            std::string::npos)
      << bare;
  SearchResult result;
  result.query = "oil";
  result.total = 86;
  result.stories = 86;
  for (std::size_t rank = 1; rank <= 10; ++rank) {
    Hit hit;
    hit.rank = rank;
    hit.id = std::to_string(rank);
    result.hits.push_back(hit);
  }
  result.facets.push_back({FacetField::kSource, {{"Reuters", 86}}});
  view.query = "oil";
  view.newest_relevant = true;
  const std::string page = page_of(view, &result);
  EXPECT_NE(page.find("<option value=\"recent\" data-recency=\"7d\" selected>Newest relevant"),
            std::string::npos);
  EXPECT_EQ(page.find("<option value=\"relevance\" selected>"), std::string::npos);
  EXPECT_NE(page.find("href=\"/?q=oil&amp;sort=recent&amp;offset=10\">Next"), std::string::npos);
  EXPECT_NE(page.find("href=\"/?q=oil%20source%3A%22Reuters%22&amp;sort=recent\""),
            std::string::npos);
}

TEST(SearchPagePrinter, BareFormHasNoResults) {
  const std::string page = page_of({});
  EXPECT_NE(page.find("<form id=\"search\""), std::string::npos);
  EXPECT_EQ(page.find("class=\"count\""), std::string::npos);
  EXPECT_EQ(page.find("{{"), std::string::npos);
}

TEST(SearchPagePrinter, AQueryErrorIsSaidInsteadOfResults) {
  SearchPageView view;
  view.query = "penalty AND";
  std::ostringstream out;
  SearchPagePrinter printer(out, view);
  printer.begin_run();
  EXPECT_EQ(out.str(), "") << "the page is written whole, at the end";
  printer.query_error(view.query, "AND needs words on <both> sides", {});
  printer.end_run();
  const std::string page = out.str();
  EXPECT_NE(page.find("<p class=\"error\" role=\"alert\">AND needs words on &lt;both&gt; "
                      "sides</p>"),
            std::string::npos);
  EXPECT_NE(page.find("<title>penalty AND — Quarry</title>"), std::string::npos);
  EXPECT_NE(page.find("value=\"penalty AND\""), std::string::npos);
  EXPECT_EQ(page.find("class=\"count\""), std::string::npos);
}

}  // namespace
}  // namespace quarry

namespace quarry {
namespace {

TEST(SearchPagePrinter, AnAlertsPanelFollowsTheAlertsAfterTheLastAtTheStart) {
  SearchPageView view;
  EXPECT_EQ(page_of(view).find("id=\"alerts\""), std::string::npos);
  view.alerts_since = 17;
  const std::string page = page_of(view);
  EXPECT_NE(page.find("<aside id=\"alerts\" class=\"alerts\" data-since=\"17\" hidden>"
                      "<h2>Alerts</h2><ol></ol></aside><main"),
            std::string::npos)
      << page;
}

}  // namespace
}  // namespace quarry
