#include "lib/search/date_range.h"

#include <chrono>
#include <cstdio>

#include "lib/index/schema.h"

namespace quarry::detail {
namespace {

bool digits(std::string_view text) {
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return !text.empty();
}

int number(std::string_view text) {
  int value = 0;
  for (char c : text) value = value * 10 + (c - '0');
  return value;
}

std::string format(int year, unsigned month, unsigned day) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%04d%02u%02u", year, month, day);
  return buffer;
}

// The first and last day that a partial date covers.
std::optional<DateRange> span(std::string_view text) {
  using namespace std::chrono;
  if (text.size() == 4 && digits(text)) {
    const int y = number(text);
    return DateRange{format(y, 1, 1), format(y, 12, 31)};
  }
  if (text.size() == 7 && text[4] == '-' && digits(text.substr(0, 4)) && digits(text.substr(5))) {
    const year_month month{year{number(text.substr(0, 4))},
                           std::chrono::month(number(text.substr(5)))};
    if (!month.ok()) return std::nullopt;
    const year_month_day_last last{month.year(), month_day_last{month.month()}};
    return DateRange{format(int(month.year()), unsigned(month.month()), 1),
                     format(int(month.year()), unsigned(month.month()), unsigned(last.day()))};
  }
  if (text.size() != 10) return std::nullopt;
  // A day is matched as the index stores it.
  const std::string value = sortable_date(text);
  if (value.empty()) return std::nullopt;
  return DateRange{value, value};
}

}  // namespace

std::optional<DateRange> parse_date_range(std::string_view text) {
  const auto dots = text.find("..");
  if (dots == std::string_view::npos) return span(text);
  const std::string_view from = text.substr(0, dots), to = text.substr(dots + 2);
  if (from.empty() && to.empty()) return std::nullopt;
  DateRange range;
  if (!from.empty()) {
    auto first = span(from);
    if (!first) return std::nullopt;
    range.from = first->from;
  }
  if (!to.empty()) {
    auto last = span(to);
    if (!last) return std::nullopt;
    range.to = last->to;
  }
  if (!range.from.empty() && !range.to.empty() && range.from > range.to) return std::nullopt;
  return range;
}

std::optional<DateRange> parse_date_bound(std::string_view text, bool after) {
  auto covered = span(text);
  if (!covered) return std::nullopt;
  // The date named is included, as a reader of "after:2017-12-01" or
  // "before:2017-12-31" expects: the range starts on its first day or ends
  // on its last.
  if (after) return DateRange{covered->from, ""};
  return DateRange{"", covered->to};
}

Xapian::Query date_query(const DateRange& range) {
  if (range.from.empty()) return Xapian::Query(Xapian::Query::OP_VALUE_LE, kDateSlot, range.to);
  if (range.to.empty()) return Xapian::Query(Xapian::Query::OP_VALUE_GE, kDateSlot, range.from);
  return Xapian::Query(Xapian::Query::OP_VALUE_RANGE, kDateSlot, range.from, range.to);
}

}  // namespace quarry::detail
