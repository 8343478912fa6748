#include "lib/index/article_linker.h"

#include <algorithm>
#include <optional>

#include "lib/index/schema.h"
#include "lib/index/signature_table.h"

namespace quarry::detail {
namespace {

// The members of a duplicate group that search for story candidates.
constexpr std::size_t kStorySearchesPerGroup = 8;

// Whether an article was stored with a story or a duplicate key.
bool stored_any(const StoryKeys& keys) { return !keys[0].empty() || !keys[1].empty(); }

}  // namespace

void ArticleLinker::check_cancel() const {
  if (control_.cancel && control_.cancel->load(std::memory_order_relaxed)) throw LinkCancelled{};
}

void ArticleLinker::step() {
  constexpr std::size_t kEvery = 256;
  if (++done_ % kEvery != 0) return;
  check_cancel();
  if (control_.on_progress) control_.on_progress(done_, total_);
}

std::vector<Xapian::docid> ArticleLinker::members(GroupKind kind, const std::string& key) {
  const Xapian::Database& db = finder_.database();
  std::vector<Xapian::docid> found;
  for (const std::string& id : group_members(db, kind, key)) {
    if (const std::optional<Xapian::docid> did = document_of(db, id_term(id)))
      found.push_back(*did);
  }
  return found;
}

std::map<Xapian::docid, StoryKeys> ArticleLinker::link(
    const std::unordered_set<Xapian::docid>& dirty) {
  SignatureTable& signatures = finder_.signatures();
  DocumentGroups stories;
  DocumentGroups duplicates;
  // Groups the dirty articles do not belong to keep their members: an
  // article linked to one of them joins the whole group.
  std::unordered_set<std::string> joined_stories;
  std::unordered_set<std::string> joined_duplicates;
  const auto join_kept = [&](Xapian::docid did) {
    if (dirty.count(did)) return;
    const std::string& story = signatures.stored_keys(did)[0];
    if (!story.empty() && joined_stories.insert(story).second) {
      for (Xapian::docid member : members(GroupKind::kStory, story)) {
        stories.unite(did, member);
        if (!dirty.count(member)) {
          const std::string duplicate = signatures.stored_keys(member)[1];
          if (!duplicate.empty() && joined_duplicates.insert(duplicate).second) {
            for (Xapian::docid copy : members(GroupKind::kDuplicates, duplicate)) {
              duplicates.unite(member, copy);
            }
          }
        }
      }
    }
  };
  // Each dirty article is met twice: looking for its copies, then (for a
  // few of each group of copies) for its story.
  done_ = 0;
  total_ = 2 * dirty.size();
  for (Xapian::docid did : dirty) {
    step();
    stories.find(did);
    duplicates.find(did);
    for (Xapian::docid other : finder_.duplicates_of(did)) {
      duplicates.unite(did, other);
      stories.unite(did, other);
      join_kept(other);
    }
  }
  // Copies of one text find the same story candidates: only a few of each
  // group look for them, those of the smallest ids, whatever the order of
  // indexing. Searching for every copy would read the postings of all
  // the others, for each of them.
  std::vector<Xapian::docid> searching;
  duplicates.for_each_group([&](const std::vector<Xapian::docid>& group) {
    std::vector<std::pair<const std::string*, Xapian::docid>> by_id;
    for (Xapian::docid did : group) {
      if (dirty.count(did)) by_id.emplace_back(&signatures.id(did), did);
    }
    if (by_id.size() > kStorySearchesPerGroup) {
      std::partial_sort(by_id.begin(), by_id.begin() + kStorySearchesPerGroup, by_id.end(),
                        [](const auto& a, const auto& b) { return *a.first < *b.first; });
      by_id.resize(kStorySearchesPerGroup);
    }
    for (const auto& entry : by_id) searching.push_back(entry.second);
  });
  done_ = total_ - searching.size();
  for (Xapian::docid did : searching) {
    step();
    for (Xapian::docid other : finder_.story_of(did)) {
      stories.unite(did, other);
      join_kept(other);
    }
  }
  std::map<Xapian::docid, StoryKeys> keys;
  // A group's key is its smallest article id, whatever the order of
  // indexing or sharding.
  const auto smallest_id = [&](const std::vector<Xapian::docid>& group) {
    std::string key;
    for (Xapian::docid did : group) {
      const std::string& id = signatures.id(did);
      if (key.empty() || id < key) key = id;
    }
    return key;
  };
  stories.for_each_group([&](const std::vector<Xapian::docid>& group) {
    const std::string key = smallest_id(group);
    for (Xapian::docid did : group) {
      if (group.size() > 1) {
        keys[did] = {key, ""};
      } else if (stored_any(signatures.stored_keys(did))) {
        // Alone, an article has no keys: only those stored with some
        // change (most of a new index's articles are alone).
        keys[did] = {"", ""};
      }
    }
  });
  duplicates.for_each_group([&](const std::vector<Xapian::docid>& group) {
    if (group.size() < 2) return;
    const std::string key = smallest_id(group);
    for (Xapian::docid did : group) keys[did][1] = key;
  });
  return keys;
}

}  // namespace quarry::detail
