// What a search would warn of in a query, found without searching: for a
// query kept to be searched later, such as a saved search, which is better
// refused than kept to be read otherwise than it was written.
#ifndef QUARRY_SEARCH_QUERY_WARNINGS_H_
#define QUARRY_SEARCH_QUERY_WARNINGS_H_

#include <string>
#include <string_view>
#include <vector>

#include "quarry/search/search_options.h"
#include "quarry/search/searcher.h"

namespace quarry {

// What of `query` Searcher::search with `options` would say was not
// searched as written, one line each, exactly as SearchResult::warnings
// says it ("AND needs words on both sides (column 5); searched as plain
// words"), but for the shards a partial search leaves out: the query read
// as a search reads it, against the index as last committed. Empty when it
// is searched as written. Throws as Searcher::search does.
std::vector<std::string> query_warnings(Searcher& searcher, std::string_view query,
                                        const SearchOptions& options);

}  // namespace quarry

#endif  // QUARRY_SEARCH_QUERY_WARNINGS_H_
