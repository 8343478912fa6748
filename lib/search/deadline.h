// The time a search may take (SearchOptions::time_limit), and a way to make
// Xapian's matcher keep to it.
//
// Enquire::set_time_limit only stops a match from looking past the page for
// its counts; a query of thousands of terms still runs to its end. Each
// phase of a search asks the deadline instead, and stops when it has
// passed: the parser between the wildcards it expands, the matcher through
// a posting source that ends the match (deadline_bounded), the counts
// between postings, snippets between hits, spelling between words.
#ifndef QUARRY_LIB_SEARCH_DEADLINE_H_
#define QUARRY_LIB_SEARCH_DEADLINE_H_

#include <xapian.h>

#include <chrono>
#include <optional>

namespace quarry::detail {

// Not thread-safe: one search's, on the thread that runs it.
class Deadline {
 public:
  // None: never passes.
  Deadline() = default;
  // `seconds` from now; 0 (or less, or not a number) for none.
  explicit Deadline(double seconds);

  // Whether the time is up. A phase that asks and stops says so here:
  // cut_short() is then true.
  bool expired() const;
  // Whether some phase stopped early because the time was up.
  bool cut_short() const { return cut_short_; }
  bool limited() const { return at_.has_value(); }
  // Seconds left, at least a millisecond; 0 when there is no limit.
  double seconds_left() const;

 private:
  std::optional<std::chrono::steady_clock::time_point> at_;
  mutable bool cut_short_ = false;
};

// `query` as a match of it stops once `deadline` has passed, with the
// matches found by then. The same query when there is no limit, when it
// has only a few terms (bounded by its posting lists), or when some
// database is remote (Xapian's remote protocol takes only its own posting
// sources). `deadline` must outlive every match of the query.
Xapian::Query deadline_bounded(const Xapian::Query& query, const Deadline& deadline, bool local);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_DEADLINE_H_
