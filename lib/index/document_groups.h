// Documents grouped by the links found between them.
#ifndef QUARRY_LIB_INDEX_DOCUMENT_GROUPS_H_
#define QUARRY_LIB_INDEX_DOCUMENT_GROUPS_H_

#include <xapian.h>

#include <algorithm>
#include <unordered_map>
#include <utility>
#include <vector>

namespace quarry::detail {

// Disjoint sets of documents (union-find), each set's root its smallest
// document: how linked articles fall into stories and duplicate groups.
class DocumentGroups {
 public:
  Xapian::docid find(Xapian::docid did) {
    auto [it, added] = parent_.try_emplace(did, did);
    if (added || it->second == did) return did;
    // Without recursion: a chain may be as long as a group is large.
    Xapian::docid root = it->second;
    for (auto up = parent_.find(root); up->second != root; up = parent_.find(root)) {
      root = up->second;
    }
    while (it->second != root) {
      const Xapian::docid next = it->second;
      it->second = root;
      it = parent_.find(next);
    }
    return root;
  }
  void unite(Xapian::docid a, Xapian::docid b) {
    const Xapian::docid ra = find(a), rb = find(b);
    if (ra != rb) parent_[std::max(ra, rb)] = std::min(ra, rb);
  }
  // Calls `use` with the members of each group, every document met being
  // in one. Sorts pairs of numbers rather than building a map of groups:
  // in a new index, every article is met and most are alone.
  template <typename Use>
  void for_each_group(Use use) {
    std::vector<Xapian::docid> all;
    all.reserve(parent_.size());
    for (const auto& entry : parent_) all.push_back(entry.first);
    std::vector<std::pair<Xapian::docid, Xapian::docid>> by_root;
    by_root.reserve(all.size());
    for (Xapian::docid did : all) by_root.emplace_back(find(did), did);
    std::sort(by_root.begin(), by_root.end());
    std::vector<Xapian::docid> group;
    for (std::size_t i = 0; i < by_root.size(); ++i) {
      group.push_back(by_root[i].second);
      if (i + 1 == by_root.size() || by_root[i + 1].first != by_root[i].first) {
        use(group);
        group.clear();
      }
    }
  }

 private:
  std::unordered_map<Xapian::docid, Xapian::docid> parent_;
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_DOCUMENT_GROUPS_H_
