#include <gtest/gtest.h>

#include "quarry/search/searcher.h"

namespace quarry {
namespace {

// The names other tools pass to --sort, --collapse and the HTTP API.
TEST(SearchOptionNames, SortOrdersByTheirNamesAndBack) {
  const std::pair<std::string_view, SortOrder> cases[] = {{"relevance", SortOrder::kRelevance},
                                                          {"date", SortOrder::kOldestFirst},
                                                          {"-date", SortOrder::kNewestFirst}};
  for (const auto& [name, sort] : cases) {
    EXPECT_EQ(sort_name(sort), name);
    EXPECT_EQ(sort_named(name), sort) << name;
  }
  for (std::string_view unknown : {"", "Date", "+date", "score"}) {
    EXPECT_FALSE(sort_named(unknown)) << unknown;
  }
}

TEST(SearchOptionNames, CollapsesByTheirNamesAndBack) {
  const std::pair<std::string_view, Collapse> cases[] = {{"story", Collapse::kStory},
                                                         {"duplicates", Collapse::kDuplicates},
                                                         {"none", Collapse::kNone}};
  for (const auto& [name, collapse] : cases) {
    EXPECT_EQ(collapse_name(collapse), name);
    EXPECT_EQ(collapse_named(name), collapse) << name;
  }
  for (std::string_view unknown : {"", "stories", "Story", "off"}) {
    EXPECT_FALSE(collapse_named(unknown)) << unknown;
  }
}

}  // namespace
}  // namespace quarry
