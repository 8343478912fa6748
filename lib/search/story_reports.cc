#include "lib/search/story_reports.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "lib/index/schema.h"
#include "lib/search/shard_group.h"

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

namespace {

std::optional<Group> group_of_document(const Xapian::Document& doc, Collapse collapse) {
  const std::optional<Xapian::valueno> slot = collapse_slot(collapse);
  if (!slot) return std::nullopt;
  std::string key = doc.get_value(*slot);
  if (key.empty()) return std::nullopt;
  // The articles holding the key: the slot is read only for the documents
  // the rest of a query leaves.
  Xapian::Query members(Xapian::Query::OP_VALUE_RANGE, *slot, key, key);
  const GroupKind kind = collapse == Collapse::kStory ? GroupKind::kStory : GroupKind::kDuplicates;
  return Group{kind, std::move(key), std::move(members)};
}

}  // namespace

std::optional<Group> group_of(const Xapian::Database& db, Xapian::docid did, Collapse collapse) {
  if (!collapse_slot(collapse)) return std::nullopt;
  return group_of_document(db.get_document(did, Xapian::DOC_ASSUME_VALID), collapse);
}

void add_story_reports(const ShardGroup& shards, Xapian::docid did, Collapse collapse, Hit* hit) {
  if (!collapse_slot(collapse)) return;
  // Read once, for its key and its own id.
  const Xapian::Document doc = shards.articles().get_document(did, Xapian::DOC_ASSUME_VALID);
  const std::optional<Group> group = group_of_document(doc, collapse);
  if (!group) return;
  const std::string own = id_of_hit_order_key(doc.get_value(kHitOrderSlot));
  // The members listed where the article is, in id order.
  std::vector<std::string> others = group_members(shards.holder_of(did), group->kind, group->key);
  others.erase(std::remove(others.begin(), others.end(), own), others.end());
  if (others.empty()) return;
  hit->story = group->key;
  hit->more_total = others.size();
  if (others.size() > Hit::kMaxMoreReports) others.resize(Hit::kMaxMoreReports);
  hit->more = std::move(others);
}

}  // namespace quarry::detail
