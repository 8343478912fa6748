// Writing search results for people (text) and for programs (JSON).
#ifndef QUARRY_APP_OUTPUT_H_
#define QUARRY_APP_OUTPUT_H_

#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "quarry/search/searcher.h"

namespace quarry {

struct TextStyle {
  bool color = false;  // ANSI bold/colour for titles and highlighted words
};

// Each hit as
//   1. Title  [score]
//      id
//      snippet with highlighted words
// followed by nothing else; zero hits write "No articles match." instead.
void write_text(std::ostream& out, const SearchResult& result, const TextStyle& style);

// Members a batch run adds to each answer, when set.
struct BatchFields {
  std::optional<std::string> qid;
  std::optional<double> took_ms;
};

// The snippet's text with its highlights in bold colour when style.color.
void write_highlighted(std::ostream& out, const Snippet& snippet, const TextStyle& style);

// One JSON object on one line:
// {"qid" (batch), "query", "total", "hits": [{"rank", "id", "title", "score",
// "snippet", "highlights": [[begin, end], …]}], "notes": [...] and
// "warnings": [...] (only when any), "took_ms" (batch)}.
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
