#include "lib/search/rescored_page.h"

#include <algorithm>
#include <limits>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "lib/index/schema.h"

namespace quarry::detail {
namespace {

// What a ranked match needs to be rescored and placed: read once, however
// many times the window widens.
struct Stored {
  double factor = 1;
  std::string order_key;  // hit_order_key()
  std::string group;      // the collapse key's value; empty: its own group
};

struct Rescored {
  Xapian::docid did;
  double score;
  const Stored* stored;
};

class StoredValues {
 public:
  StoredValues(const Xapian::Database& db, std::optional<Xapian::valueno> collapse_key,
               const Rescorer& rescorer)
      : db_(db), collapse_key_(collapse_key), rescorer_(rescorer) {}

  const Stored& of(Xapian::docid did) {
    auto [it, added] = read_.try_emplace(did);
    if (added) {
      const Xapian::Document document = db_.get_document(did, Xapian::DOC_ASSUME_VALID);
      it->second.factor = rescorer_.factor(document);
      it->second.order_key = document.get_value(kHitOrderSlot);
      if (collapse_key_) it->second.group = document.get_value(*collapse_key_);
    }
    return it->second;
  }

 private:
  const Xapian::Database& db_;
  std::optional<Xapian::valueno> collapse_key_;
  const Rescorer& rescorer_;
  std::unordered_map<Xapian::docid, Stored> read_;
};

// The ranking's matches by rescored score, each group once, cut to the
// page.
std::vector<RankedHit> page_of(const Xapian::MSet& mset, StoredValues& values,
                               Xapian::doccount offset, Xapian::doccount limit) {
  std::vector<Rescored> rescored;
  rescored.reserve(mset.size());
  for (auto it = mset.begin(); it != mset.end(); ++it) {
    const Stored& stored = values.of(*it);
    rescored.push_back({*it, it.get_weight() * stored.factor, &stored});
  }
  std::sort(rescored.begin(), rescored.end(), [](const Rescored& a, const Rescored& b) {
    if (a.score != b.score) return a.score > b.score;
    return a.stored->order_key < b.stored->order_key;
  });
  std::vector<RankedHit> page;
  std::unordered_set<std::string> groups;
  Xapian::doccount rank = 0;
  for (const Rescored& hit : rescored) {
    if (!hit.stored->group.empty() && !groups.insert(hit.stored->group).second) continue;
    if (rank >= offset) page.push_back({hit.did, hit.score, rank});
    if (page.size() == limit) break;
    ++rank;
  }
  return page;
}

}  // namespace

RescoredPage rescored_page(Xapian::Enquire& enquire, const Xapian::Database& db,
                           Xapian::doccount offset, Xapian::doccount limit,
                           Xapian::doccount check_at_least,
                           std::optional<Xapian::valueno> collapse_key, const Rescorer& rescorer,
                           const Deadline& deadline) {
  // Collapsing keeps each group's most relevant, which need not be its
  // best rescored: the groups are made here, from every article ranked.
  enquire.set_collapse_key(Xapian::BAD_VALUENO);
  enquire.set_sort_by_relevance();
  StoredValues values(db, collapse_key, rescorer);
  constexpr Xapian::doccount kMost = std::numeric_limits<Xapian::doccount>::max();
  const Xapian::doccount page_end = offset + limit;
  Xapian::doccount window =
      std::max(kFirstRescoredWindow, page_end > kMost / 2 ? kMost : 2 * page_end);
  for (;;) {
    RescoredPage result;
    result.window = window;
    result.page.ranked = enquire.get_mset(0, window, check_at_least);
    const Xapian::MSet& mset = result.page.ranked;
    result.page.hits = page_of(mset, values, offset, limit);
    if (mset.size() < window || limit == 0) {
      // Fewer than asked for are every match, unless the deadline ended
      // the match early.
      result.cut_short = mset.size() < window && deadline.expired();
      return result;
    }
    // No article past the window scores above the last one's relevance.
    const double beyond = mset[mset.size() - 1].get_weight();
    if (result.page.hits.size() == limit && result.page.hits.back().weight > beyond) return result;
    if (window == kMost) return result;
    if (deadline.expired()) {
      result.cut_short = true;
      return result;
    }
    window = window > kMost / 2 ? kMost : 2 * window;
  }
}

}  // namespace quarry::detail
