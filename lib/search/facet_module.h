// Facets (SearchOptions::facets): every match counted by source, category
// or month (SearchResult::facets).
#ifndef QUARRY_LIB_SEARCH_FACET_MODULE_H_
#define QUARRY_LIB_SEARCH_FACET_MODULE_H_

#include <memory>

#include "lib/search/search_module.h"

namespace quarry::detail {

// Counts every match with match_count.h's FacetCounter, which sets the
// total too, exactly: the core's count is then skipped.
std::unique_ptr<SearchModule> make_facet_module();

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_FACET_MODULE_H_
