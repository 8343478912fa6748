// Every JSON document quarry and quarry serve write, built here alone (with
// nlohmann-json), each on one line ending in '\n'. Text that is not valid
// UTF-8 is written with U+FFFD in its place, never thrown on: each is made
// text by quarry/json_text.h, as the library's stored JSON is.
#ifndef QUARRY_APP_COMMON_JSON_DOCUMENTS_H_
#define QUARRY_APP_COMMON_JSON_DOCUMENTS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/input/article.h"
#include "quarry/search/searcher.h"

namespace quarry {

// A query's answer, members in this order: "qid" (when given), "query",
// "total", "total_relation" ("eq": total is exact; "gte": at least that
// many match), "stories", "stories_relation" ("eq" or "about"; with
// Collapse::kDuplicates "groups", "groups_relation" instead), "hits":
// [{"rank", "id", "title", "score", "snippet", "highlights": [[begin, end],
// …] in code points of the snippet, "title_highlights" (the same in the
// title), "date", "source", "category", "language" (each when the article
// has it; the language as Hit::language names it), "story": {"id", "more",
// "more_count"} (when its story has other reports),
// "explain": [{"part", "weight"}, …] (when explained)}], then only when they
// apply "facets": {"source": [[value, count], …], …} (the fields asked for,
// largest count first), "notes": [...], "warnings": [...], "suggestion"
// (did you mean), "corrected": true (the hits are the suggestion's), and
// "took_ms" (when given).
std::string answer_json(const SearchResult& result, const std::optional<std::string>& qid,
                        std::optional<double> took_ms);

// How many articles match `query` (--count), named as in answers: "query",
// "total", "total_relation" ("eq": the count is exact), and "notes",
// "warnings" when there are some.
std::string count_json(std::string_view query, const CountResult& count);

// {"qid" (when given), "query", "error"}, for a query that could not be run.
std::string query_error_json(const std::optional<std::string>& qid, std::string_view query,
                             std::string_view error);

// The API's errors: {"status", "error"}; for a query that cannot be parsed,
// {"status", "error", "query", "column"}.
std::string http_error_json(int status, std::string_view message);
std::string http_query_error_json(int status, std::string_view message, std::string_view query,
                                  std::size_t column);

// Where an article's title and body match a query, as highlight_all finds.
struct ArticleMarks {
  std::vector<Highlight> title;
  std::vector<Highlight> body;
};

// The stored article: "id", "title", "body", and "date", "source",
// "category", "language" (as language_label names it) when it has them;
// with marks, "title_highlights" and "highlights" in code points.
std::string article_json(const Article& article, const std::optional<ArticleMarks>& marks);

// {"query", "words", "completions"}: completions of the query's last word,
// alone and in the query.
std::string suggestions_json(std::string_view query, const std::vector<std::string>& words,
                             const std::vector<std::string>& completions);

// The index's figures, IndexStats member by member.
std::string stats_json(const IndexStats& stats);

// {"status": "ok", "articles": N}.
std::string health_json(std::size_t articles);

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_JSON_DOCUMENTS_H_
