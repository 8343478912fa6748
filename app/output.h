// Writing search results for people (text) and for programs (JSON, and
// TREC runs for evaluation tools).
#ifndef QUARRY_APP_OUTPUT_H_
#define QUARRY_APP_OUTPUT_H_

#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "quarry/search/searcher.h"

namespace quarry {

struct TextStyle {
  // ANSI styles: titles bold, ids dim, highlighted words bold yellow.
  bool color = false;
};

// "Showing results for: S" when the result is for the spelling suggestion
// S (SearchOptions::correct), else "Did you mean: S" when there is one; then
// each hit as
//   1. Title  [score]
//      id
//      snippet with highlighted words       (when it has a snippet)
//      score: part=weight …                 (when explained)
// and nothing else; zero hits write "No articles match." instead of hits.
// The title is the id when the article has none.
void write_text(std::ostream& out, const SearchResult& result, const TextStyle& style);

// Members a batch run adds to each answer, when set.
struct BatchFields {
  std::optional<std::string> qid;
  std::optional<double> took_ms;
};

// The snippet's text with its highlights in bold colour when style.color.
void write_highlighted(std::ostream& out, const Snippet& snippet, const TextStyle& style);

// One JSON object on one line, members in this order: "qid" (batch),
// "query", "total", "hits": [{"rank", "id", "title", "score", "snippet",
// "highlights": [[begin, end], …] in code points of the snippet, "date"
// (when known), "explain": [{"part", "weight"}, …] (when explained)}], then
// only when they apply "notes": [...], "warnings": [...], "suggestion" (did
// you mean), "corrected": true (the hits are the suggestion's), and
// "took_ms" (batch).
void write_json(std::ostream& out, const SearchResult& result, const BatchFields& batch = {});

// {"qid", "query", "error"} on one line, for a query that could not be run.
void write_json_error(std::ostream& out, const std::string& qid, std::string_view query,
                      std::string_view error);

// A TREC run's lines for one query: "qid Q0 docid rank score tag". Ids and
// qids are written with white space replaced by '_', as the format splits on
// it.
void write_trec(std::ostream& out, const std::string& qid, const SearchResult& result,
                const std::string& tag);

}  // namespace quarry

#endif  // QUARRY_APP_OUTPUT_H_
