#include "lib/search/hit_order.h"

#include <algorithm>
#include <cmath>

#include "lib/index/schema.h"

namespace quarry::detail {
namespace {

// Scores this close, relative to the larger, are a tie (the shards' tests
// allow the same).
constexpr double kTieTolerance = 1e-9;

bool near(double a, double b) {
  return std::fabs(a - b) <= kTieTolerance * std::max(std::fabs(a), std::fabs(b));
}

// As the index's values order them.
bool before(const Hit& a, const Hit& b) {
  return hit_order_key(sortable_date(a.date), a.id) < hit_order_key(sortable_date(b.date), b.id);
}

}  // namespace

void order_near_ties(std::vector<Hit>* hits) {
  auto run = hits->begin();
  while (run != hits->end()) {
    auto end = run + 1;
    while (end != hits->end() && near((end - 1)->score, end->score)) ++end;
    if (end - run > 1) {
      std::vector<std::size_t> ranks;
      for (auto it = run; it != end; ++it) ranks.push_back(it->rank);
      std::stable_sort(run, end, before);
      for (std::size_t i = 0; i < ranks.size(); ++i) (run + i)->rank = ranks[i];
    }
    run = end;
  }
}

}  // namespace quarry::detail
