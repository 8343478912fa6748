// Stories (SearchOptions::collapse): each story, or each group of
// near-duplicates, shown once as its best-ranked match, with its other
// reports listed under it, and the groups counted.
#ifndef QUARRY_LIB_SEARCH_STORY_MODULE_H_
#define QUARRY_LIB_SEARCH_STORY_MODULE_H_

#include <memory>

#include "lib/search/search_module.h"

namespace quarry::detail {

// Collapses the ranking on the group's key (story_reports.h's
// collapse_slot); counts SearchResult::stories by a pass of their own
// (match_count.h's count_groups), or as the total when not collapsing;
// fills Hit::story, more and more_total. Must count after any module that
// sets the total.
std::unique_ptr<SearchModule> make_story_module();

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_STORY_MODULE_H_
