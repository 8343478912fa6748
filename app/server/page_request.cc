#include "app/server/page_request.h"

#include <algorithm>
#include <utility>

#include "app/common/search_option_table.h"
#include "app/common/search_option_values.h"
#include "app/server/search_page.h"

namespace quarry {
namespace {

// The page's own parameter, no option's: the query a like search goes back
// to.
constexpr std::string_view kFrom = "from";

// The HTTP parameter of the option of that long name.
std::string_view parameter_of(std::string_view option) {
  return option_named(option, kSearchCommand)->http;
}

}  // namespace

const std::vector<std::string_view>& page_parameter_names() {
  static const std::vector<std::string_view> names = [] {
    const std::string_view set_by_page[] = {parameter_of("limit"), parameter_of("facets")};
    std::vector<std::string_view> taken;
    for (std::string_view name : search_parameter_names()) {
      if (std::find(std::begin(set_by_page), std::end(set_by_page), name) ==
          std::end(set_by_page)) {
        taken.push_back(name);
      }
    }
    taken.push_back(kFrom);
    return taken;
  }();
  return names;
}

std::optional<PageRequest> parse_page_request(const HttpTarget& target) {
  const std::string_view sort = parameter_of("sort");
  std::vector<std::pair<std::string, std::string>> given = target.parameters;
  PageRequest page;
  // A name that is no page order is left for the sort row to refuse.
  for (auto& [name, value] : given) {
    if (name != sort) continue;
    if (const std::optional<PageOrder> order = page_order_named(value)) {
      page.order = *order;
      value = sort_name(order->sort);
    }
  }
  if (page.order.newest_relevant) given.emplace_back(parameter_of("recency"), kPageHalfLife);
  const Parameters parameters(std::move(given), page_parameter_names());
  if (!parameters.get("q") && !parameters.get(parameter_of("like"))) return std::nullopt;
  // The page offers one hit a story or every article.
  parameters.choice(parameter_of("collapse"),
                    {collapse_name(Collapse::kStory), collapse_name(Collapse::kNone)}, {});
  page.search = search_request_from(parameters);
  page.search.options.limit = kPageHits;
  page.search.options.facets.fields = page_facets();
  page.from = parameters.get(kFrom).value_or("");
  if (page.from.size() > kMaxQueryBytes) {
    throw HttpError(400, "parameter " + std::string(kFrom) + " is longer than " +
                             std::to_string(kMaxQueryBytes) + " bytes");
  }
  return page;
}

}  // namespace quarry
