#include "lib/search/hit_order.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "lib/index/schema.h"

namespace quarry::detail {
namespace {

// Scores this close, relative to the larger, are a tie (the shards' tests
// allow the same).
constexpr double kTieTolerance = 1e-9;

bool near(double a, double b) {
  return std::fabs(a - b) <= kTieTolerance * std::max(std::fabs(a), std::fabs(b));
}

}  // namespace

namespace {

// Every article the matcher considers, with its weight: all those that
// weigh at least as much as the page's last are among them, as the matcher
// only passes over articles that weigh less than the worst it keeps.
class Candidates : public Xapian::MatchSpy {
 public:
  void operator()(const Xapian::Document& doc, double weight) override {
    seen.push_back({doc.get_docid(), weight, 0});
  }

  std::vector<RankedHit> seen;
};

RankedPage from_mset(const Xapian::MSet& mset, Xapian::doccount begin, Xapian::doccount end) {
  RankedPage page;
  page.ranked = mset;
  for (Xapian::doccount i = begin; i < end; ++i) {
    const Xapian::MSetIterator it = mset[i];
    page.hits.push_back({*it, it.get_weight(), it.get_rank()});
  }
  return page;
}

// The value that orders equal scores (schema.h's hit_order_key).
std::string stored_order(const Xapian::Database& db, Xapian::docid did) {
  return db.get_document(did, Xapian::DOC_ASSUME_VALID).get_value(kHitOrderSlot);
}

// Puts hits [from, to), of equal scores, in stored order.
void order_equal_scores(const Xapian::Database& db, std::vector<RankedHit>::iterator from,
                        std::vector<RankedHit>::iterator to) {
  std::vector<std::pair<std::string, RankedHit>> keyed;
  for (auto it = from; it != to; ++it) keyed.emplace_back(stored_order(db, it->did), *it);
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& entry : keyed) *from++ = entry.second;
}

// The ranking of the candidates that weigh `least` or more, equal scores
// in stored order, cut to the page.
std::vector<RankedHit> page_of(std::vector<RankedHit> candidates, const Xapian::Database& db,
                               double least, Xapian::doccount offset, Xapian::doccount limit) {
  std::erase_if(candidates, [&](const RankedHit& hit) { return hit.weight < least; });
  std::sort(candidates.begin(), candidates.end(),
            [](const RankedHit& a, const RankedHit& b) { return a.weight > b.weight; });
  for (auto run = candidates.begin(); run != candidates.end();) {
    auto end = run + 1;
    while (end != candidates.end() && near((end - 1)->weight, end->weight)) ++end;
    if (end - run > 1) order_equal_scores(db, run, end);
    run = end;
  }
  std::vector<RankedHit> page;
  for (std::size_t i = offset; i < candidates.size() && i - offset < limit; ++i) {
    page.push_back({candidates[i].did, candidates[i].weight, static_cast<Xapian::doccount>(i)});
  }
  return page;
}

}  // namespace

RankedPage rank_page(Xapian::Enquire& enquire, const Xapian::Database& db, Xapian::doccount offset,
                     Xapian::doccount limit, Xapian::doccount check_at_least, bool one_local) {
  if (!one_local) {
    enquire.set_sort_by_relevance_then_value(kHitOrderSlot, false);
    const Xapian::MSet mset = enquire.get_mset(offset, limit, check_at_least);
    return from_mset(mset, 0, mset.size());
  }
  enquire.set_sort_by_relevance();
  Candidates candidates;
  enquire.add_matchspy(&candidates);
  const Xapian::MSet mset = enquire.get_mset(offset, limit, check_at_least);
  enquire.clear_matchspies();
  if (mset.empty()) return from_mset(mset, 0, 0);
  // Equal scores cross an edge of the page when an article off the page
  // weighs as much as its first or its last.
  const double highest = mset.begin().get_weight();
  const double lowest = mset[mset.size() - 1].get_weight();
  std::vector<Xapian::docid> on_page(mset.begin(), mset.end());
  std::sort(on_page.begin(), on_page.end());
  const bool tie = std::any_of(candidates.seen.begin(), candidates.seen.end(), [&](const auto& c) {
    return (near(c.weight, lowest) || near(c.weight, highest)) &&
           !std::binary_search(on_page.begin(), on_page.end(), c.did);
  });
  if (!tie) return from_mset(mset, 0, mset.size());
  RankedPage page;
  page.ranked = mset;
  page.hits =
      page_of(std::move(candidates.seen), db, lowest * (1 - 2 * kTieTolerance), offset, limit);
  return page;
}

RankedPage collapsed_page(Xapian::Enquire& enquire, const Xapian::Database& db,
                          Xapian::doccount offset, Xapian::doccount limit,
                          Xapian::doccount check_at_least, Xapian::valueno slot) {
  const Xapian::doccount wanted = offset + limit;
  if (wanted == 0) return rank_page(enquire, db, 0, 0, check_at_least, true);
  // Most groups on a page hold one or two of its best articles.
  Xapian::doccount window = 2 * wanted + 20;
  for (;;) {
    const RankedPage ranked = rank_page(enquire, db, 0, window, check_at_least, true);
    // The best article of each group, in rank order. Of two articles of one
    // group that weigh alike, the one first in the stored order stands for
    // it, as the order of a page of them would have it.
    struct Group {
      std::size_t at;  // in best
      std::string order;
    };
    std::unordered_map<std::string, Group> groups;
    std::vector<RankedHit> best;
    for (const RankedHit& hit : ranked.hits) {
      const std::string key = db.get_document(hit.did, Xapian::DOC_ASSUME_VALID).get_value(slot);
      if (key.empty()) {
        best.push_back(hit);
        continue;
      }
      auto [group, added] = groups.try_emplace(key, Group{best.size(), {}});
      if (added) {
        best.push_back(hit);
        continue;
      }
      RankedHit& shown = best[group->second.at];
      if (!near(shown.weight, hit.weight)) continue;
      if (group->second.order.empty()) group->second.order = stored_order(db, shown.did);
      std::string order = stored_order(db, hit.did);
      if (order < group->second.order) {
        shown.did = hit.did;
        group->second.order = std::move(order);
      }
    }
    const bool all_seen = ranked.hits.size() < window;
    if (best.size() >= wanted || all_seen) {
      // Equal scores across an edge of the page: the stored order decides
      // which make it (inside, the core orders them as any page's).
      const auto order_run_at = [&](std::size_t i) {
        if (i >= best.size()) return;
        std::size_t from = i;
        std::size_t to = i + 1;
        while (from > 0 && near(best[from - 1].weight, best[i].weight)) --from;
        while (to < best.size() && near(best[to].weight, best[i].weight)) ++to;
        if (to - from > 1) {
          order_equal_scores(db, best.begin() + static_cast<std::ptrdiff_t>(from),
                             best.begin() + static_cast<std::ptrdiff_t>(to));
        }
      };
      order_run_at(wanted - 1);
      if (offset > 0) order_run_at(offset);
      RankedPage page;
      page.ranked = ranked.ranked;
      for (Xapian::doccount i = offset; i < best.size() && i < wanted; ++i) {
        page.hits.push_back({best[i].did, best[i].weight, i});
      }
      return page;
    }
    window *= 4;
  }
}

std::unique_ptr<Xapian::KeyMaker> date_order(bool newest_first) {
  auto keys = std::make_unique<Xapian::MultiValueKeyMaker>();
  // Reversed, an absent value sorts after every present one; forwards it
  // sorts first, so no date reads as "\xff", after every digit.
  keys->add_value(kDateSlot, newest_first, newest_first ? "" : "\xff");
  keys->add_value(kTimeSlot, newest_first);
  return keys;
}

void order_near_ties(std::vector<Hit>* hits) {
  for (auto run = hits->begin(); run != hits->end();) {
    auto end = run + 1;
    while (end != hits->end() && near((end - 1)->score, end->score)) ++end;
    if (end - run > 1) {
      // As the index's values order them.
      std::vector<std::pair<std::string, Hit>> keyed;
      std::vector<std::size_t> ranks;
      for (auto it = run; it != end; ++it) {
        ranks.push_back(it->rank);
        keyed.emplace_back(hit_order_key(sortable_date(it->date), it->id), std::move(*it));
      }
      std::stable_sort(keyed.begin(), keyed.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      for (std::size_t i = 0; i < keyed.size(); ++i) {
        *(run + static_cast<std::ptrdiff_t>(i)) = std::move(keyed[i].second);
        (run + static_cast<std::ptrdiff_t>(i))->rank = ranks[i];
      }
    }
    run = end;
  }
}

}  // namespace quarry::detail
