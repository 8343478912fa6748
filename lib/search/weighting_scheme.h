// The Xapian weighting scheme a RankingConfig names. Defined in ranking.cc,
// beside the table of schemes that quarry/search/ranking.h's names and
// parameters come from.
#ifndef QUARRY_LIB_SEARCH_WEIGHTING_SCHEME_H_
#define QUARRY_LIB_SEARCH_WEIGHTING_SCHEME_H_

#include <xapian.h>

#include <memory>

#include "quarry/search/ranking.h"

namespace quarry::detail {

// The weighting object. Throws ConfigError for an unknown scheme, a
// parameter the scheme does not take, or a value Xapian refuses.
std::unique_ptr<Xapian::Weight> make_weight(const RankingConfig& config);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_WEIGHTING_SCHEME_H_
