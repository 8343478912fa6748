// The orders the search page offers, each named once: the sort orders, and
// "Newest relevant", by relevance weighed by recency. The page's form lists
// them, its links and its sort parameter name them, its script reads them
// from the form, and its request handler turns a name into what the
// option table's rows take (sort, recency).
#ifndef QUARRY_APP_COMMON_PAGE_ORDERS_H_
#define QUARRY_APP_COMMON_PAGE_ORDERS_H_

#include <optional>
#include <string_view>

#include "quarry/search/search_options.h"

namespace quarry {

// "Newest relevant"'s name in the page's sort parameter, and the half-life
// it weighs recency by, as --recency writes one.
inline constexpr std::string_view kNewestRelevantOrder = "recent";
inline constexpr std::string_view kPageHalfLife = "7d";

// An order of the page: a sort order, weighed by recency with kPageHalfLife
// when newest_relevant.
struct PageOrder {
  SortOrder sort = SortOrder::kRelevance;
  bool newest_relevant = false;
  bool operator==(const PageOrder&) const = default;
};

struct LabelledPageOrder {
  PageOrder order;
  std::string_view label;  // what the form calls it
};

// In the order the form lists them. The first is the page's default, which
// links leave out and the script takes for it: by relevance, as "Newest
// relevant" is too.
inline constexpr LabelledPageOrder kPageOrders[] = {
    {{SortOrder::kRelevance, false}, "Best match"},
    {{SortOrder::kRelevance, true}, "Newest relevant"},
    {{SortOrder::kNewestFirst, false}, "Newest first"},
    {{SortOrder::kOldestFirst, false}, "Oldest first"}};
static_assert(kPageOrders[0].order == PageOrder{});

// The order's name in the page's sort parameter: kNewestRelevantOrder, or
// the sort order's (search_option_values.h's sort_name).
std::string_view page_order_name(PageOrder order);
// The order of that name, or nothing.
std::optional<PageOrder> page_order_named(std::string_view name);

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_PAGE_ORDERS_H_
