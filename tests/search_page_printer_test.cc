// The search page's results as the server renders them: escaped markup,
// links that keep the search's settings, pages, stories, like searches.
#include "app/server/search_page_printer.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <string_view>
#include <utility>

namespace quarry {
namespace {

// Expects `page` to hold `markup`, showing the page when it does not.
void expect_holds(const std::string& page, std::string_view markup) {
  EXPECT_NE(page.find(markup), std::string::npos) << markup << "\nnot in:\n" << page;
}

// Expects `page` not to hold `markup`.
void expect_lacks(const std::string& page, std::string_view markup) {
  EXPECT_EQ(page.find(markup), std::string::npos) << markup << "\nin:\n" << page;
}

// An answer to `query` of `total` articles in `stories` stories, its hits
// yet to add.
SearchResult result_of(std::string query, std::size_t total, std::size_t stories) {
  SearchResult result;
  result.query = std::move(query);
  result.total = total;
  result.stories = stories;
  return result;
}

// The hit of rank `rank`, the article `id`.
Hit hit_of(std::size_t rank, std::string id) {
  Hit hit;
  hit.rank = rank;
  hit.id = std::move(id);
  return hit;
}

// The page's settings for a search of `query`, every other one as it
// comes.
SearchPageView view_of(std::string query) {
  SearchPageView view;
  view.query = std::move(query);
  return view;
}

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
  SearchResult result = result_of("penalty", 25, 25);
  Hit hit = hit_of(11, "dir/a b.txt");
  hit.title = "<script>alert(1)</script> penalty";
  hit.title_highlights = {{26, 33}};
  hit.date = "2017-12-10T15:01:01";
  hit.source = "A & B";
  hit.snippet = {"the penalty", {{4, 11}}};
  result.hits.push_back(hit);
  result.facets.push_back({FacetField::kSource, {{"Press \"Association\"", 3}}});
  SearchPageView view = view_of("penalty \"<x>\"");
  view.offset = 10;
  const std::string page = page_of(view, &result);
  expect_lacks(page, "<script>alert");
  expect_holds(page, "&lt;script&gt;alert(1)&lt;/script&gt; <mark>penalty</mark>");
  expect_holds(page, "value=\"penalty &quot;&lt;x&gt;&quot;\"");
  expect_holds(page, "<ol class=\"hits\" start=\"11\">");
  expect_holds(page, "href=\"/articles/dir%2Fa%20b.txt?q=penalty%20%22%3Cx%3E%22\"");
  expect_holds(page,
               "<span class=\"date\">2017-12-10</span> · <span class=\"source\">A &amp; "
               "B</span>");
  expect_holds(page, "the <mark>penalty</mark>");
  expect_holds(page, "25 articles match");
  // Pages: back to the first, on to the third.
  expect_holds(page, "href=\"/?q=penalty%20%22%3Cx%3E%22\">← Previous");
  expect_holds(page, "href=\"/?q=penalty%20%22%3Cx%3E%22&amp;offset=20\">Next");
  // A facet narrows the query with a filter, its quotes dropped.
  expect_holds(page, "href=\"/?q=penalty%20%22%3Cx%3E%22%20source%3A%22Press%20Association%22\"");
}

// The date facet is a timeline drawn in the markup: a bar a month, in date
// order with gaps for months without matches, heights as the counts, each
// bar a link narrowing the search to its month.
TEST(SearchPagePrinter, DatesAreATimelineOfBars) {
  SearchResult result = result_of("oil", 1245, 1245);
  result.facets.push_back({FacetField::kSource, {{"Reuters", 1245}}});
  result.facets.push_back(
      {FacetField::kDate, {{"1987-02", 16}, {"1987-03", 827}, {"1987-04", 400}, {"1987-06", 2}}});
  SearchPageView view = view_of("oil");
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
  SearchResult result = result_of("", 3, 3);
  result.facets.push_back({FacetField::kDate, {{"2017", 1}}});
  const std::string page = page_of(SearchPageView{}, &result);
  expect_holds(page,
               "aria-label=\"Matches by year\"><a href=\"/?q=date%3A2017\"><title>2017: 1 "
               "article</title><rect x=\"7\" y=\"0\" width=\"6\" height=\"40\"/></a></svg>"
               "<p class=\"axis\"><span>2017</span></p>");
}

// Matches of English and French articles, the first hit French.
SearchResult french_and_english() {
  SearchResult result = result_of("trains", 12, 12);
  Hit hit = hit_of(1, "fr.txt");
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
  SearchPageView view = view_of("trains");
  const std::string page = page_of(view, &result);
  expect_holds(page, "<span class=\"source\">AFP</span> · <span class=\"language\">fr</span>");
  expect_holds(page,
               "<section class=\"facet\"><h2>language</h2><ul><li><a "
               "href=\"/?q=trains%20language%3Afr\">fr</a> <span class=\"n\">8</span>");
  expect_lacks(page, "class=\"language\">Only");
  expect_lacks(page, "name=\"language\"");
}

// A search in one language says so, keeps it in its links and its form,
// and links to every language.
TEST(SearchPagePrinter, OneLanguageIsSaidAndKept) {
  const SearchResult result = french_and_english();
  SearchPageView view = view_of("trains");
  view.language = "fr";
  const std::string page = page_of(view, &result);
  expect_holds(page,
               "<p class=\"language\">Only articles in <span>fr</span>: <a "
               "href=\"/?q=trains\">search every language</a></p>");
  expect_holds(page, "<input id=\"language\" name=\"language\" type=\"hidden\" value=\"fr\">");
  expect_holds(page, "href=\"/?q=trains%20language%3Aen&amp;language=fr\">en</a>");
}

// Three reports of one story, shown once.
SearchResult one_story() {
  SearchResult result = result_of("derby", 3, 1);
  Hit hit = hit_of(1, "a.txt");
  hit.title = "Derby";
  hit.story = "a.txt";
  hit.more = {"b.txt", "c d.txt"};
  hit.more_total = 2;
  result.hits.push_back(hit);
  return result;
}

TEST(SearchPagePrinter, AStorysOtherReportsOpenFromItsHit) {
  const SearchResult result = one_story();
  SearchPageView view = view_of("derby");
  view.reports["b.txt"] = {"<i>Second</i> report", "2017-12-11T09:00:00", "Express"};
  const std::string page = page_of(view, &result);
  expect_holds(page, "<p class=\"count\" id=\"count\">3 articles match, 1 story</p>");
  expect_holds(page, "<details class=\"more\"><summary>+2 more reports</summary>");
  // Each report opens its article; one whose title is not known is listed
  // by its id.
  expect_holds(page,
               "<li><a href=\"/articles/b.txt?q=derby\">&lt;i&gt;Second&lt;/i&gt; "
               "report</a> <span class=\"meta\"><span class=\"date\">2017-12-11</span> · "
               "<span class=\"source\">Express</span></span></li>");
  expect_holds(page, "<li><a href=\"/articles/c%20d.txt?q=derby\">c d.txt</a></li>");
  expect_lacks(page, "class=\"rest\"");
  // The pages go through stories, not articles.
  expect_holds(page, "<span class=\"range\">1–1 of 1 story</span>");
  expect_lacks(page, "rel=\"next\"");
  expect_holds(page, "<option value=\"story\" selected>");
}

TEST(SearchPagePrinter, ReportsPastThoseListedAreCounted) {
  SearchResult result = one_story();
  result.hits[0].more_total = 14;
  SearchPageView view = view_of("derby");
  const std::string page = page_of(view, &result);
  expect_holds(page, "<summary>+14 more reports</summary>");
  expect_holds(page, "<li class=\"rest\">… and 12 more</li>");
}

TEST(SearchPagePrinter, EachHitLinksToArticlesLikeIt) {
  const SearchResult result = one_story();
  SearchPageView view = view_of("derby & co");
  view.collapse = Collapse::kNone;
  const std::string page = page_of(view, &result);
  // The search shown is where the like search goes back to.
  expect_holds(page,
               "<a class=\"like\" href=\"/?like=a.txt&amp;collapse=none&amp;from=derby%20%"
               "26%20co\">More like this</a>");
  expect_holds(page, "<option value=\"none\" selected>All reports</option>");
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
  expect_holds(page,
               "<p class=\"like\">Articles like <a href=\"/articles/x.txt\">The "
               "&lt;first&gt; one</a></p>");
  expect_holds(page, "<p class=\"back\"><a href=\"/?q=derby\">← Results for derby</a></p>");
  expect_holds(page, "<title>Articles like The &lt;first&gt; one — Quarry</title>");
  // Its own story is shown, nothing left out to link to.
  expect_lacks(page, "show all reports");
  // Like a hit of a like search: back still goes to the query searched.
  expect_holds(page, "href=\"/?like=a.txt&amp;from=derby\">More like this");
  view.collapse = Collapse::kNone;
  page = page_of(view, &result);
  expect_holds(page, "<a href=\"/?q=derby&amp;collapse=none\">← Results for derby</a>");
}

TEST(SearchPagePrinter, AReportOfTheLikedArticlesStoryIsMarked) {
  SearchResult result = one_story();
  SearchPageView view;
  view.like = "x.txt";
  expect_lacks(page_of(view, &result), "same story");
  result.hits[0].same_story = true;
  expect_holds(page_of(view, &result), " · <span class=\"same-story\">same story</span></p>");
}

TEST(SearchPagePrinter, PagesOfStoriesKeepTheirGrouping) {
  SearchResult result = result_of("oil", 86, 80);
  result.stories_exact = false;
  for (std::size_t rank = 1; rank <= 10; ++rank)
    result.hits.push_back(hit_of(rank, std::to_string(rank)));
  SearchPageView view = view_of("oil");
  std::string page = page_of(view, &result);
  expect_holds(page, "86 articles match, about 80 stories");
  expect_holds(page, "<span class=\"range\">1–10 of about 80 stories</span>");
  expect_holds(page, "href=\"/?q=oil&amp;offset=10\">Next");
  // Every report shown: the pages go through the articles.
  view.collapse = Collapse::kNone;
  result.stories = result.total;
  result.stories_exact = true;
  page = page_of(view, &result);
  expect_holds(page, "<span class=\"range\">1–10 of 86</span>");
  expect_holds(page, "href=\"/?q=oil&amp;offset=10&amp;collapse=none\">Next");
}

// "Newest relevant" is offered beside "Newest first", with the half-life
// the script sends; chosen, it stays chosen and its pages keep it.
TEST(SearchPagePrinter, NewestRelevantIsOfferedAndKept) {
  SearchPageView view;
  const std::string bare = page_of(view);
  expect_holds(bare,
               "<option value=\"relevance\" selected>Best match</option>"
               "<option value=\"recent\" data-recency=\"7d\">Newest relevant</option>"
               "<option value=\"-date\">Newest first</option>");
  SearchResult result = result_of("oil", 86, 86);
  for (std::size_t rank = 1; rank <= 10; ++rank)
    result.hits.push_back(hit_of(rank, std::to_string(rank)));
  result.facets.push_back({FacetField::kSource, {{"Reuters", 86}}});
  view.query = "oil";
  view.newest_relevant = true;
  const std::string page = page_of(view, &result);
  expect_holds(page, "<option value=\"recent\" data-recency=\"7d\" selected>Newest relevant");
  expect_lacks(page, "<option value=\"relevance\" selected>");
  expect_holds(page, "href=\"/?q=oil&amp;sort=recent&amp;offset=10\">Next");
  expect_holds(page, "href=\"/?q=oil%20source%3A%22Reuters%22&amp;sort=recent\"");
}

// Corrected, as text says it: "Showing results for S; search instead for
// Q", Q a link searching the query as typed, never corrected, in the same
// order, grouping and language; the search's pages and facets keep that.
TEST(SearchPagePrinter, ACorrectedQueryLinksToItselfAsTyped) {
  SearchResult result = result_of("goverment <b>", 40, 40);
  result.suggestion = "government <b>";
  result.corrected = true;
  SearchPageView view = view_of("goverment <b>");
  view.sort = SortOrder::kNewestFirst;
  view.language = "en";
  const std::string page = page_of(view, &result);
  expect_holds(page,
               "<p class=\"suggestion\">Showing results for <a "
               "href=\"/?q=government%20%3Cb%3E&amp;sort=-date&amp;language=en\">government "
               "&lt;b&gt;</a>; search instead for <a class=\"instead\" "
               "href=\"/?q=goverment%20%3Cb%3E&amp;sort=-date&amp;language=en&amp;correct=never\">"
               "goverment &lt;b&gt;</a></p>");

  // Searched as typed: the suggestion is offered, and the settings kept.
  result.corrected = false;
  result.total = 12;
  for (std::size_t rank = 1; rank <= 10; ++rank)
    result.hits.push_back(hit_of(rank, std::to_string(rank)));
  result.facets.push_back({FacetField::kSource, {{"Reuters", 12}}});
  view.sort = SortOrder::kRelevance;
  view.language.clear();
  view.correct = Correction::kNever;
  const std::string typed = page_of(view, &result);
  expect_holds(typed,
               "<p class=\"suggestion\">Did you mean <a "
               "href=\"/?q=government%20%3Cb%3E&amp;correct=never\">government &lt;b&gt;</a></p>");
  expect_lacks(typed, "search instead");
  expect_holds(typed, "href=\"/?q=goverment%20%3Cb%3E&amp;offset=10&amp;correct=never\">Next");
  expect_holds(typed,
               "href=\"/?q=goverment%20%3Cb%3E%20source%3A%22Reuters%22&amp;correct=never\"");
}

// As text says "· 17 more": the values past the ten shown are counted.
TEST(SearchPagePrinter, AFacetSaysHowManyValuesAreNotShown) {
  SearchResult result = result_of("oil", 400, 400);
  Facet sources{FacetField::kSource, {}};
  for (std::size_t n = 0; n < 27; ++n) sources.values.push_back({"S" + std::to_string(n), 30 - n});
  result.facets.push_back(sources);
  result.facets.push_back({FacetField::kCategory, {{"business", 300}, {"sport", 100}}});
  const std::string page = page_of(view_of("oil"), &result);
  expect_holds(page,
               ">S9</a> <span class=\"n\">21</span></li><li class=\"rest\">17 more</li></ul>");
  expect_lacks(page, ">S10<");
  // All shown: nothing more to say.
  expect_holds(page, ">sport</a> <span class=\"n\">100</span></li></ul>");
  sources.values.resize(10);
  result.facets = {sources};
  expect_lacks(page_of(view_of("oil"), &result), "class=\"rest\"");
}

TEST(SearchPagePrinter, BareFormHasNoResults) {
  const std::string page = page_of({});
  expect_holds(page, "<form id=\"search\"");
  expect_lacks(page, "class=\"count\"");
  expect_lacks(page, "{{");
}

TEST(SearchPagePrinter, AQueryErrorIsSaidInsteadOfResults) {
  SearchPageView view = view_of("penalty AND");
  std::ostringstream out;
  SearchPagePrinter printer(out, view);
  printer.begin_run();
  EXPECT_EQ(out.str(), "") << "the page is written whole, at the end";
  printer.query_error(view.query, "AND needs words on <both> sides", {});
  printer.end_run();
  const std::string page = out.str();
  expect_holds(page,
               "<p class=\"error\" role=\"alert\">AND needs words on &lt;both&gt; "
               "sides</p>");
  expect_holds(page, "<title>penalty AND — Quarry</title>");
  expect_holds(page, "value=\"penalty AND\"");
  expect_lacks(page, "class=\"count\"");
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
  expect_holds(page,
               "<aside id=\"alerts\" class=\"alerts\" data-since=\"17\" hidden>"
               "<h2>Alerts</h2><ol></ol></aside><main");
}

}  // namespace
}  // namespace quarry
