#include "app/common/page_orders.h"

#include "app/common/search_option_values.h"

namespace quarry {

std::string_view page_order_name(PageOrder order) {
  return order.newest_relevant ? kNewestRelevantOrder : sort_name(order.sort);
}

std::optional<PageOrder> page_order_named(std::string_view name) {
  for (const LabelledPageOrder& offered : kPageOrders) {
    if (page_order_name(offered.order) == name) return offered.order;
  }
  return std::nullopt;
}

}  // namespace quarry
