// The pages of `quarry serve` as HTML: the search page around its results
// (search_page_printer.h renders them), an article, an error. The search
// page works with JavaScript off; its script (search_page.js and the parts
// after it) renders the same markup from /api/search when it runs (the
// titles of a story's other reports from /api/articles, when they are
// opened); search_page.html, .css and the script are compiled in.
#ifndef QUARRY_APP_SERVER_SEARCH_PAGE_H_
#define QUARRY_APP_SERVER_SEARCH_PAGE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "app/common/page_orders.h"
#include "quarry/input/article.h"
#include "quarry/search/searcher.h"

namespace quarry {

// The facets the page asks for, and how many hits a page has.
inline constexpr std::size_t kPageHits = 10;
std::vector<FacetField> page_facets();

// The page: `title`, the search form holding `query`, `order`, `collapse`
// and `language` (empty: every language), and `main` (HTML, already
// escaped) under it; `alerts` (alerts_panel) between them.
std::string render_page(std::string_view title, std::string_view query, PageOrder order,
                        Collapse collapse, std::string_view language, std::string main,
                        std::string alerts = "");

// The list the page's script fills with the alerts that arrive after
// cursor `since` (from /api/alerts), newest first; hidden until the first.
std::string alerts_panel(std::uint64_t since);

// One article, whole, its title and body marked where `highlights` say (as
// highlight_all gives them); `query` is what the link back searches.
std::string render_article_page(const Article& article, const std::vector<Highlight>& title,
                                const std::vector<Highlight>& body, std::string_view query);

// A page saying what went wrong, with the search form.
std::string render_error_page(int status, std::string_view message);

// The compiled-in stylesheet and script.
std::string_view search_page_stylesheet();
std::string_view search_page_script();

}  // namespace quarry

#endif  // QUARRY_APP_SERVER_SEARCH_PAGE_H_
