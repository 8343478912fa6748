// Recency (SearchOptions::recency): relevance multiplied by a decay of each
// article's age, in the ranking by relevance.
#ifndef QUARRY_LIB_SEARCH_RECENCY_MODULE_H_
#define QUARRY_LIB_SEARCH_RECENCY_MODULE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "lib/search/search_module.h"

namespace quarry::detail {

// The instant, in seconds since 1970-01-01 UTC, of an article whose date
// and time slots (schema.h) hold `date` and `time`: the start of the day
// when there is no time; nothing when there is no date.
std::optional<std::int64_t> instant_of_values(std::string_view date, std::string_view time);

// Sets the ranking's rescorer to the decay (quarry/search/recency.h) when
// hits are ranked by relevance and some article has a date; notes why it
// took no part otherwise; adds the factor to each hit's explanation.
std::unique_ptr<SearchModule> make_recency_module();

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_RECENCY_MODULE_H_
