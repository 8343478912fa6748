#include "lib/search/story_reports.h"

#include <algorithm>

#include "lib/index/schema.h"

namespace quarry::detail {

std::optional<Xapian::valueno> collapse_slot(Collapse collapse) {
  switch (collapse) {
    case Collapse::kStory:
      return kStorySlot;
    case Collapse::kDuplicates:
      return kDuplicateSlot;
    case Collapse::kNone:
      break;
  }
  return std::nullopt;
}

std::optional<Group> group_of(const Xapian::Database& db, Xapian::docid did, Collapse collapse) {
  const std::optional<Xapian::valueno> slot = collapse_slot(collapse);
  if (!slot) return std::nullopt;
  std::string key = db.get_document(did, Xapian::DOC_ASSUME_VALID).get_value(*slot);
  if (key.empty()) return std::nullopt;
  std::string term =
      boolean_term(collapse == Collapse::kStory ? kStoryPrefix : kDuplicatePrefix, key);
  return Group{std::move(key), std::move(term)};
}

void add_story_reports(const Xapian::Database& db, Xapian::docid did, Collapse collapse, Hit* hit) {
  const std::optional<Group> group = group_of(db, did, collapse);
  if (!group) return;
  std::vector<std::string> others;
  for (auto it = db.postlist_begin(group->term); it != db.postlist_end(group->term); ++it) {
    if (*it == did) continue;
    others.push_back(id_of_hit_order_key(
        db.get_document(*it, Xapian::DOC_ASSUME_VALID).get_value(kHitOrderSlot)));
  }
  if (others.empty()) return;
  std::sort(others.begin(), others.end());
  hit->story = group->key;
  hit->more_total = others.size();
  if (others.size() > Hit::kMaxMoreReports) others.resize(Hit::kMaxMoreReports);
  hit->more = std::move(others);
}

}  // namespace quarry::detail
