// The pieces of markup and the links the search page's HTML is made of.
// Every piece of article text is escaped, and highlights are placed from
// the code-point offsets the engine returns, as the API gives them.
#ifndef QUARRY_APP_SERVER_PAGE_MARKUP_H_
#define QUARRY_APP_SERVER_PAGE_MARKUP_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/search/searcher.h"

namespace quarry {

// `text` with & < > " ' as character references.
std::string html_escape(std::string_view text);

// `text` escaped, with each [begin, end) of `highlights` (code points,
// ascending, not overlapping; others are skipped) in <mark>.
std::string highlighted_html(std::string_view text, const std::vector<Highlight>& highlights);

// Each paragraph of `html` (its lines, trimmed, blank ones left out) in a <p>: an
// article's body, escaped and highlighted, whose marks never span lines.
std::string paragraphs_html(std::string_view html);

// `text` for a URL's query or path segment: every byte but A-Z a-z 0-9 - _
// . ~ as %XX.
std::string url_encode(std::string_view text);

// What a link to the page asks for.
struct PageLink {
  std::string_view query = {};
  SortOrder sort = SortOrder::kRelevance;
  std::size_t offset = 0;
  Collapse collapse = Collapse::kStory;
  std::string_view like = {};  // an article id: the articles like it
  std::string_view from = {};  // with like: the query the page goes back to
  // The one language searched (the language parameter); empty: every one.
  std::string_view language = {};
  // By relevance weighed by recency: the page's "Newest relevant" order
  // (page_orders.h), rather than `sort`.
  bool newest_relevant = false;
  // When the spelling suggestion is searched instead of the query.
  Correction correct = SpellingOptions{}.correct;
};

// The link with the defaults left out; q is left out only of a like
// search that it does not narrow.
std::string page_link(const PageLink& link);

// The page of article `id`, its matches of `query` marked (none: no query).
std::string article_link(std::string_view id, std::string_view query);

// "date · source · category · language", as far as the article has them,
// each in a span of its class.
std::string meta_html(std::string_view date, std::string_view source, std::string_view category,
                      std::string_view language);

}  // namespace quarry

#endif  // QUARRY_APP_SERVER_PAGE_MARKUP_H_
