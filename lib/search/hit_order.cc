#include "lib/search/hit_order.h"

#include <algorithm>
#include <cmath>
#include <limits>

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

RankedPage rank_page(Xapian::Enquire& enquire, Xapian::doccount offset, Xapian::doccount limit) {
  enquire.set_sort_by_relevance();
  const Xapian::doccount first = offset > 0 ? offset - 1 : 0;
  const Xapian::doccount before = offset - first;
  const Xapian::doccount most = std::numeric_limits<Xapian::doccount>::max() - first;
  RankedPage page;
  page.mset =
      enquire.get_mset(first, std::min<Xapian::doccount>(limit, most - before - 1) + before + 1);
  page.begin = std::min(before, page.mset.size());
  page.end = std::min(page.begin + limit, page.mset.size());
  const auto weight = [&](Xapian::doccount i) { return page.mset[i].get_weight(); };
  const bool tie_before = page.begin == 1 && page.end > 1 && near(weight(0), weight(1));
  const bool tie_after = page.end > page.begin && page.end < page.mset.size() &&
                         near(weight(page.end - 1), weight(page.end));
  page.ranked = page.mset;
  if (!tie_before && !tie_after) return page;
  // Only articles that weigh as much as the page's last, or as the one
  // after it, can make the page: a cutoff keeps the others from being read.
  const double lowest =
      std::min(weight(page.end - 1), weight(std::min(page.end, page.mset.size() - 1)));
  enquire.set_cutoff(0, lowest * (1 - 2 * kTieTolerance));
  enquire.set_sort_by_relevance_then_value(kHitOrderSlot, false);
  page.mset = enquire.get_mset(offset, limit);
  page.begin = 0;
  page.end = page.mset.size();
  return page;
}

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
