// Facets (SearchOptions::facets): every match counted by source, category,
// language or month (SearchResult::facets).
#ifndef QUARRY_LIB_SEARCH_FACET_MODULE_H_
#define QUARRY_LIB_SEARCH_FACET_MODULE_H_

#include <memory>

#include "lib/search/search_module.h"

namespace quarry::detail {

// Counts every match by each field with one Xapian ValueCountMatchSpy a
// field (they count on remote shards too), and so sets the total, exactly:
// the core's count is then skipped. Values are folded as the field filters
// fold them, dates counted by month (or by year over long spans).
std::unique_ptr<SearchModule> make_facet_module();

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_FACET_MODULE_H_
