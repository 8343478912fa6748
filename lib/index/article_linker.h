// Grouping articles into stories and duplicate groups by the links a
// LinkFinder finds, with the groups already stored that they join.
#ifndef QUARRY_LIB_INDEX_ARTICLE_LINKER_H_
#define QUARRY_LIB_INDEX_ARTICLE_LINKER_H_

#include <xapian.h>

#include <cstddef>
#include <map>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "lib/index/document_groups.h"
#include "lib/index/link_finder.h"
#include "lib/index/story_keys.h"
#include "lib/index/story_linker.h"

namespace quarry::detail {

// Thrown inside linking when the caller cancels it, caught where it began.
struct LinkCancelled {};

// Throws Xapian::Error, and LinkCancelled once the caller cancels. Not
// thread-safe.
class ArticleLinker {
 public:
  ArticleLinker(Xapian::Database all, const LinkControl& control)
      : finder_(std::move(all)), control_(control) {}

  LinkFinder& finder() { return finder_; }

  // Links `dirty` and everything that falls into their groups; returns the
  // new (story key, duplicate key, story size) of each document whose keys
  // may change.
  std::map<Xapian::docid, StoryKeys> link(const std::unordered_set<Xapian::docid>& dirty);

  // Throws LinkCancelled when the caller cancelled.
  void check_cancel() const;

 private:
  // The members of a group still in the index.
  std::vector<Xapian::docid> members(GroupKind kind, const std::string& key);
  // Counts an article linked: tells the caller now and then, and throws
  // LinkCancelled once it cancels.
  void step();

  LinkFinder finder_;
  const LinkControl& control_;
  std::size_t done_ = 0;
  std::size_t total_ = 0;
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_ARTICLE_LINKER_H_
