#include "app/common/count_text.h"

namespace quarry {

std::string with_thousands(std::size_t number) {
  const std::string digits = std::to_string(number);
  std::string text;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) text += ',';
    text += digits[i];
  }
  return text;
}

std::string total_text(const SearchResult& result) {
  return with_thousands(result.total) + (result.total_exact ? "" : "+");
}

bool stories_group(const SearchResult& result) {
  return result.stories > 0 && result.stories < result.total;
}

std::string count_text(const SearchResult& result) {
  if (result.total == 0) return "No articles match.";
  if (result.total == 1 && result.total_exact) return "1 article matches";
  std::string text = total_text(result) + " articles match";
  if (stories_group(result)) text += ", " + stories_text(result);
  return text;
}

std::string stories_text(const SearchResult& result) {
  const bool one = result.stories == 1;
  std::string noun = one ? " story" : " stories";
  if (result.collapse == Collapse::kDuplicates) {
    noun = one ? " near-duplicate group" : " near-duplicate groups";
  }
  return (result.stories_exact ? "" : "about ") + with_thousands(result.stories) + noun;
}

std::string past_end_text(const SearchResult& result) {
  // A page of no hits is past the end unless there are none at all, or
  // it starts among the hits (it asked for none).
  if (!result.hits.empty() || result.total == 0 || result.offset == 0 ||
      result.offset < result.stories) {
    return "";
  }
  const std::string last =
      result.collapse != Collapse::kNone
          ? stories_text(result)
          : total_text(result) + (result.total == 1 ? " article" : " articles");
  return "No hits here: the page starts at " + with_thousands(result.offset + 1) +
         ", past the last of " + last + ".";
}

std::string more_reports_text(const Hit& hit) {
  if (hit.more_total == 0) return "";
  std::string text = "+" + with_thousands(hit.more_total) +
                     (hit.more_total == 1 ? " more report: " : " more reports: ");
  for (std::size_t i = 0; i < hit.more.size(); ++i) text += (i == 0 ? "" : ", ") + hit.more[i];
  if (hit.more.size() < hit.more_total) text += ", …";
  return text;
}

}  // namespace quarry
