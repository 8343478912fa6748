// The search page's results, rendered on the server so that a plain query
// works with JavaScript off.
#ifndef QUARRY_APP_SERVER_SEARCH_PAGE_PRINTER_H_
#define QUARRY_APP_SERVER_SEARCH_PAGE_PRINTER_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "app/common/printer.h"
#include "quarry/search/searcher.h"

namespace quarry {

// What one of a hit's other reports shows, as "+N more reports" lists them.
struct ReportSummary {
  std::string title;
  std::string date;
  std::string source;
};

// What the page searched for, and what it knows besides the result.
struct SearchPageView {
  std::string query;
  SortOrder sort = SortOrder::kRelevance;
  // The page's "Newest relevant" order: by relevance weighed by recency.
  bool newest_relevant = false;
  std::size_t offset = 0;
  std::size_t limit = 10;
  // One hit a story, its other reports listed under it, or every article.
  Collapse collapse = Collapse::kStory;
  // The one language searched, as the language parameter names it; empty:
  // every language.
  std::string language;
  // When the spelling suggestion is searched instead of the query (the
  // correct parameter), kept by the links to other pages of the search.
  Correction correct = SpellingOptions{}.correct;
  // The id of the article the hits are like (like=), its title, and the
  // query whose results the page goes back to (from=).
  std::string like;
  std::string like_title;
  std::string from;
  // The hits' other reports, by id; one missing is listed by its id alone.
  std::map<std::string, ReportSummary> reports;
  // The last alert's cursor when the page was made, for the page to list
  // those after it (alerts_panel); nothing: no alerts panel (the server
  // serves no one index folder).
  std::optional<std::uint64_t> alerts_since;
};

// The whole search page, written at the end of the run: the form, and under
// it the answer — the language searched, the suggestion (and when it was
// searched instead, a link searching the query as typed), notes, warnings,
// the count, the hits with their other reports and a link to the articles
// like each, the facets as links that narrow the query (how many values
// are not shown), the pages — or the query error; with neither, the bare
// form. Every piece of article text is escaped.
class SearchPagePrinter : public AnswerPrinter {
 public:
  SearchPagePrinter(std::ostream& out, SearchPageView view);

  void answer(const SearchResult& result, const AnswerFields& fields) override;
  void facets(const SearchResult& result) override;
  void query_error(std::string_view query, std::string_view message,
                   const AnswerFields& fields) override;
  void end_run() override;
  DiagnosedMessages diagnosed() const override { return {}; }

 private:
  SearchPageView view_;
  std::string main_;  // the answer's HTML
};

}  // namespace quarry

#endif  // QUARRY_APP_SERVER_SEARCH_PAGE_PRINTER_H_
