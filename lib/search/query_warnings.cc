#include "quarry/search/query_warnings.h"

#include "lib/search/search_core.h"

namespace quarry {

std::vector<std::string> query_warnings(Searcher& searcher, std::string_view query,
                                        const SearchOptions& options) {
  detail::SearchCore& core = detail::core_of(searcher);
  return core.with_shards([&] { return core.parse(query, options).warnings; });
}

}  // namespace quarry
