#include "quarry/search/searcher.h"

namespace quarry {

std::string_view sort_name(SortOrder sort) {
  switch (sort) {
    case SortOrder::kOldestFirst:
      return "date";
    case SortOrder::kNewestFirst:
      return "-date";
    case SortOrder::kRelevance:
      break;
  }
  return "relevance";
}

std::optional<SortOrder> sort_named(std::string_view name) {
  for (SortOrder sort : {SortOrder::kRelevance, SortOrder::kOldestFirst, SortOrder::kNewestFirst}) {
    if (sort_name(sort) == name) return sort;
  }
  return std::nullopt;
}

std::string_view collapse_name(Collapse collapse) {
  switch (collapse) {
    case Collapse::kNone:
      return "none";
    case Collapse::kDuplicates:
      return "duplicates";
    case Collapse::kStory:
      break;
  }
  return "story";
}

std::optional<Collapse> collapse_named(std::string_view name) {
  for (Collapse collapse : {Collapse::kStory, Collapse::kDuplicates, Collapse::kNone}) {
    if (collapse_name(collapse) == name) return collapse;
  }
  return std::nullopt;
}

}  // namespace quarry
