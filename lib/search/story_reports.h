// The other reports of a hit's story: what a search that shows each story
// once lists under it.
#ifndef QUARRY_LIB_SEARCH_STORY_REPORTS_H_
#define QUARRY_LIB_SEARCH_STORY_REPORTS_H_

#include <xapian.h>

#include <optional>
#include <string>

#include "lib/index/story_keys.h"
#include "quarry/search/search_options.h"
#include "quarry/search/search_result.h"

namespace quarry::detail {

class ShardGroup;

// The value slot a search collapses on, none for Collapse::kNone.
std::optional<Xapian::valueno> collapse_slot(Collapse collapse);

// The group document `did` is in, as `collapse` groups: its key, and the
// query that matches its members. None for an article alone or with
// Collapse::kNone. Throws Xapian::Error.
struct Group {
  GroupKind kind;
  std::string key;
  Xapian::Query members;
};
std::optional<Group> group_of(const Xapian::Database& db, Xapian::docid did, Collapse collapse);

// Fills hit->story, more and more_total from the group of document `did`
// of shards.articles() (the story, or the duplicate group with
// Collapse::kDuplicates). Throws Xapian::Error.
void add_story_reports(const ShardGroup& shards, Xapian::docid did, Collapse collapse, Hit* hit);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_STORY_REPORTS_H_
