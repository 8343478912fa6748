#include "quarry/search/recency.h"

#include <chrono>
#include <cmath>
#include <regex>
#include <string>

#include "lib/index/schema.h"
#include "lib/search/recency_module.h"

namespace quarry {

double recency_factor(double age, double half_life) {
  if (!(age > 0)) return 1;
  return std::exp2(-age / half_life);
}

std::optional<std::int64_t> instant_of(std::string_view iso) {
  // The forms an article's date may take (schema.h's sortable_date and
  // sortable_time), and nothing after them.
  static const std::regex kIso(
      R"(\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}([.,]\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?)?)");
  if (!std::regex_match(iso.begin(), iso.end(), kIso)) return std::nullopt;
  const std::string date = detail::sortable_date(iso);
  const std::string time = detail::sortable_time(iso);
  if (date.empty() || (iso.size() > 10 && time.empty())) return std::nullopt;
  return detail::instant_of_values(date, time);
}

}  // namespace quarry
