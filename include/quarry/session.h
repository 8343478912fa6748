// Answering queries for a person or a script: one query, or one per line of
// a stream, written as text or JSON.
#ifndef QUARRY_SESSION_H_
#define QUARRY_SESSION_H_

#include <istream>
#include <ostream>
#include <string_view>

#include "quarry/output.h"
#include "quarry/searcher.h"

namespace quarry {

enum class OutputFormat { kText, kJson };

struct SessionConfig {
  SearchOptions search;
  OutputFormat format = OutputFormat::kText;
  TextStyle style;
};

enum class Answer { kAnswered, kBadQuery };

// Searches `query` and writes the result to `out`. A query that cannot be
// parsed is explained in one line on `diagnostics` (prefixed with
// `program`: ) and yields kBadQuery. Index failures are thrown (IndexError).
Answer answer_query(Searcher& searcher, std::string_view query, const SessionConfig& config,
                    std::ostream& out, std::ostream& diagnostics, std::string_view program);

// Answers each non-blank line of `in` as a query, flushing `out` after each
// answer so that a reader at a pipe sees it at once. Returns how many lines
// were bad queries.
std::size_t answer_lines(Searcher& searcher, std::istream& in, const SessionConfig& config,
                         std::ostream& out, std::ostream& diagnostics, std::string_view program);

}  // namespace quarry

#endif  // QUARRY_SESSION_H_
