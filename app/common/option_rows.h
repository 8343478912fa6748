// The rows of quarry's option table (search_option_table.h), grouped by
// what they set; search_option_table() lists the groups in the order the
// help shows them. For the files that hold the rows alone.
#ifndef QUARRY_APP_COMMON_OPTION_ROWS_H_
#define QUARRY_APP_COMMON_OPTION_ROWS_H_

#include <vector>

#include "app/common/search_option_table.h"

namespace quarry {

// Which index is searched, and how its remote shards are waited for.
std::vector<SearchOption> index_option_rows();
// What an answer shows and how it is written: the page, the format, the
// prompt, batches.
std::vector<SearchOption> output_option_rows();
// Which articles the free words and the language match.
std::vector<SearchOption> matching_option_rows();
// The order of the hits: by date, or by relevance weighed by recency, and
// which of them are shown once.
std::vector<SearchOption> order_option_rows();
// How far a search counts and how long it may take.
std::vector<SearchOption> limit_option_rows();
// What the search adds to an answer (facets, corrections, explanations)
// and how strictly it reads the query.
std::vector<SearchOption> query_option_rows();
// How hits are scored, and searching by example.
std::vector<SearchOption> ranking_option_rows();
// quarry serve's own (serve_option_rows.cc).
std::vector<SearchOption> serve_option_rows();

// The search options a row sets.
inline SearchOptions& search(QuarryOptions& options) { return options.session.search; }
inline const SearchOptions& search(const QuarryOptions& options) { return options.session.search; }

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_OPTION_ROWS_H_
