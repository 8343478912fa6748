// Dates in queries: "2017", "2017-12", "2017-12-10", ranges "A..B", and the
// value-range queries over the date slot that they become.
#ifndef QUARRY_LIB_SEARCH_DATE_RANGE_H_
#define QUARRY_LIB_SEARCH_DATE_RANGE_H_

#include <xapian.h>

#include <optional>
#include <string>
#include <string_view>

namespace quarry::detail {

// Inclusive bounds as "YYYYMMDD"; an empty bound is open.
struct DateRange {
  std::string from;
  std::string to;
};

// "2017-12-10", "2017-12", "2017", "A..B", "A..", "..B".
std::optional<DateRange> parse_date_range(std::string_view text);

// after:D (from the first day of D on) or before:D (up to the end of D's
// last day): D itself included, as date:D.. and date:..D.
std::optional<DateRange> parse_date_bound(std::string_view text, bool after);

Xapian::Query date_query(const DateRange& range);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_DATE_RANGE_H_
