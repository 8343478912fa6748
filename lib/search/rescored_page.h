// A page of matches ranked by relevance times a factor of at most 1
// (search_module.h's Rescorer), exactly rather than among a fixed number
// of the most relevant.
//
// Xapian's weights add up, and a factor that multiplies them cannot be
// one of them, so the matches are ranked by relevance and the best K of
// them rescored. As no factor is above 1, no article past the K-th scores
// more than the K-th's relevance: when the page's last rescored score is
// above that (or the K are every match) no article past them can reach the
// page, and it is exact. Otherwise K doubles, until the deadline passes.
#ifndef QUARRY_LIB_SEARCH_RESCORED_PAGE_H_
#define QUARRY_LIB_SEARCH_RESCORED_PAGE_H_

#include <xapian.h>

#include <optional>

#include "lib/search/deadline.h"
#include "lib/search/hit_order.h"
#include "lib/search/search_module.h"

namespace quarry::detail {

// How many of the most relevant matches are rescored first, at least.
inline constexpr Xapian::doccount kFirstRescoredWindow = 100;

struct RescoredPage {
  // Weights are rescored scores; `ranked` is the last ranking by relevance,
  // uncollapsed, whose bounds count the matches.
  RankedPage page;
  // The deadline passed before the page was proved exact: it is the best
  // of the `window` most relevant matches.
  bool cut_short = false;
  Xapian::doccount window = 0;
};

// The page of `limit` hits from `offset` of the enquire's query (ranked by
// relevance) by relevance times `rescorer`'s factor, equal scores in the
// stored order (hit_order.h). With `collapse_key`, each group of articles
// sharing a value in it (none: a group of its own) is shown once, as its
// best rescored; the enquire's own collapsing is turned off. Throws
// Xapian::Error.
RescoredPage rescored_page(Xapian::Enquire& enquire, const Xapian::Database& db,
                           Xapian::doccount offset, Xapian::doccount limit,
                           Xapian::doccount check_at_least,
                           std::optional<Xapian::valueno> collapse_key, const Rescorer& rescorer,
                           const Deadline& deadline);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_RESCORED_PAGE_H_
