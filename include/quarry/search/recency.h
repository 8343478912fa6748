// Recency: each match's relevance multiplied by a decay of its article's
// age, so that the newest relevant articles come first without giving up
// relevance. Ranked by relevance only; counts and facets do not change.
#ifndef QUARRY_SEARCH_RECENCY_H_
#define QUARRY_SEARCH_RECENCY_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace quarry {

// A value. Left as it is, recency takes no part.
struct RecencyOptions {
  // Seconds after which an article's relevance counts half: it counts
  // 0.5^(age / half_life). 0: no recency.
  double half_life = 0;
  // The instant ages are counted from, in seconds since 1970-01-01 UTC;
  // none: the time of the search. An article dated after it counts in
  // full. An article without a date counts as kUndatedHalfLives old.
  std::optional<std::int64_t> as_of;
};

// An article without a date is not lost, but ranks as one this many
// half-lives old (its relevance counts 1/1024).
inline constexpr double kUndatedHalfLives = 10;

// What relevance is multiplied by at `age` seconds (negative: in the
// future) with `half_life` seconds: 1 up to age 0, then halving with every
// half-life.
double recency_factor(double age, double half_life);

// The instant an ISO 8601 date or date-time names, in seconds since
// 1970-01-01 UTC: "2024-05-01" (its start), "2024-05-01T12:30",
// "2024-05-01 12:30:15", with a fraction of a second, "Z" or an offset
// ("+02:00", "-0500"); a time without a zone is taken as UTC, as an
// article's is. Nothing for any other text, or a day no calendar has.
std::optional<std::int64_t> instant_of(std::string_view iso);

}  // namespace quarry

#endif  // QUARRY_SEARCH_RECENCY_H_
