// What a request for the search page asks for. Its parameters are
// /api/search's, read through the option table's rows as that route reads
// them, with the page's own: its order (page_orders.h) in sort, and from.
#ifndef QUARRY_APP_SERVER_PAGE_REQUEST_H_
#define QUARRY_APP_SERVER_PAGE_REQUEST_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/common/http_query.h"
#include "app/common/page_orders.h"

namespace quarry {

// The page's search: its kPageHits hits and its facets (search_page.h),
// the order as the form chose it, and from, the query a like search goes
// back to.
struct PageRequest {
  SearchRequest search;
  PageOrder order;
  std::string from;
};

// The names the page takes: those of /api/search but the two whose values
// it sets itself (how many hits, which facets), and from.
const std::vector<std::string_view>& page_parameter_names();

// The search `target` asks the page for; nothing when it asks for none
// (neither q nor like: the bare form). A page order in sort stands for the
// sort order it is by, and "Newest relevant" for a recency as well. Throws
// HttpError(400) naming the parameter at fault: one /api/search refuses,
// one the page does not take, collapse other than story or none, a from
// longer than kMaxQueryBytes.
std::optional<PageRequest> parse_page_request(const HttpTarget& target);

}  // namespace quarry

#endif  // QUARRY_APP_SERVER_PAGE_REQUEST_H_
