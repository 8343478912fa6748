// Answering one query for a person or a script, written as text or JSON.
#ifndef QUARRY_APP_COMMON_SESSION_H_
#define QUARRY_APP_COMMON_SESSION_H_

#include <ostream>
#include <string_view>

#include "app/common/printer.h"
#include "quarry/search/searcher.h"

namespace quarry {

struct SessionConfig {
  SearchOptions search;
  OutputFormat format = OutputFormat::kText;
  TextStyle style;
};

enum class Answer { kAnswered, kBadQuery };

// Searches `query` and writes the result to `out` as config.format's
// printer writes an answer. How the query was read (notes) goes to
// `diagnostics`, and so do warnings when the format leaves them out. A
// query that cannot be parsed is explained in one line on `diagnostics`
// (prefixed with `program`: ) and yields kBadQuery. Index failures are
// thrown (IndexError).
Answer answer_query(Searcher& searcher, std::string_view query, const SessionConfig& config,
                    std::ostream& out, std::ostream& diagnostics, std::string_view program);

// Writes how many articles match `query`, counted exactly with no limit,
// as config.format's printer writes a count (AnswerPrinter::count). How
// the query was read (notes, and warnings such as a fall back to plain
// words) goes to `diagnostics`, as answer_query's text does. A query that
// cannot be parsed is handled as by answer_query.
Answer answer_count(Searcher& searcher, std::string_view query, const SessionConfig& config,
                    std::ostream& out, std::ostream& diagnostics, std::string_view program);

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_SESSION_H_
