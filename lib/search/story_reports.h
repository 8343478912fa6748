// The other reports of a hit's story: what a search that shows each story
// once lists under it.
#ifndef QUARRY_LIB_SEARCH_STORY_REPORTS_H_
#define QUARRY_LIB_SEARCH_STORY_REPORTS_H_

#include <xapian.h>

#include <optional>
#include <string>

#include "quarry/search/search_options.h"
#include "quarry/search/search_result.h"

namespace quarry::detail {

// The value slot a search collapses on, none for Collapse::kNone.
std::optional<Xapian::valueno> collapse_slot(Collapse collapse);

// The group document `did` is in, as `collapse` groups: its key and the
// term its members are indexed under. None for an article alone or with
// Collapse::kNone. Throws Xapian::Error.
struct Group {
  std::string key;
  std::string term;
};
std::optional<Group> group_of(const Xapian::Database& db, Xapian::docid did, Collapse collapse);

// Fills hit->story, more and more_total from the group of document `did`
// in `db` (the story, or the duplicate group with Collapse::kDuplicates).
// Throws Xapian::Error.
void add_story_reports(const Xapian::Database& db, Xapian::docid did, Collapse collapse, Hit* hit);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_STORY_REPORTS_H_
