// The search page of `quarry serve` as HTML: the form, and the results of a
// search rendered on the server, so that a plain query works with
// JavaScript off. search_page.js renders the same markup from /api/search
// when it runs (the titles of a story's other reports from /api/articles,
// when they are opened); search_page.html, .css and .js are compiled in.
//
// Every piece of article text is escaped, and highlights are placed from
// the code-point offsets the engine returns, as the API gives them.
#ifndef QUARRY_APP_SEARCH_PAGE_H_
#define QUARRY_APP_SEARCH_PAGE_H_

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/input/article.h"
#include "quarry/search/searcher.h"

namespace quarry {

// What one of a hit's other reports shows, as "+N more reports" lists them.
struct ReportSummary {
  std::string title;
  std::string date;
  std::string source;
};

// What the page shows: the bare form, a search's results, or why the query
// could not be run.
struct SearchPageView {
  std::string query;
  SortOrder sort = SortOrder::kRelevance;
  std::size_t offset = 0;
  std::size_t limit = 10;
  // One hit a story, its other reports listed under it, or every article.
  Collapse collapse = Collapse::kStory;
  // The id of the article the hits are like (like=), its title, and the
  // query whose results the page goes back to (from=).
  std::string like;
  std::string like_title;
  std::string from;
  const SearchResult* result = nullptr;  // nothing when no search was run
  // The hits' other reports, by id; one missing is listed by its id alone.
  std::map<std::string, ReportSummary> reports;
  std::string error;  // shown instead of results when set
};

// The facets the page asks for, and how many hits a page has.
inline constexpr std::size_t kPageHits = 10;
std::vector<FacetField> page_facets();

std::string render_search_page(const SearchPageView& view);

// One article, whole, its title and body marked where `highlights` say (as
// highlight_all gives them); `query` is what the link back searches.
std::string render_article_page(const Article& article, const std::vector<Highlight>& title,
                                const std::vector<Highlight>& body, std::string_view query);

// A page saying what went wrong, with the search form.
std::string render_error_page(int status, std::string_view message);

// `text` with & < > " ' as character references.
std::string html_escape(std::string_view text);

// `text` escaped, with each [begin, end) of `highlights` (code points,
// ascending, not overlapping; others are skipped) in <mark>.
std::string highlighted_html(std::string_view text, const std::vector<Highlight>& highlights);

// `text` for a URL's query or path segment: every byte but A-Z a-z 0-9 - _
// . ~ as %XX.
std::string url_encode(std::string_view text);

// The compiled-in stylesheet and script.
std::string_view search_page_stylesheet();
std::string_view search_page_script();

}  // namespace quarry

#endif  // QUARRY_APP_SEARCH_PAGE_H_
