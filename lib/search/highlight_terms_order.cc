#include "lib/search/highlight_terms_order.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

namespace quarry::detail {
namespace {

void deduplicate(std::vector<std::string>* words) {
  std::sort(words->begin(), words->end());
  words->erase(std::unique(words->begin(), words->end()), words->end());
}

}  // namespace

void deduplicate(HighlightTerms* terms) {
  deduplicate(&terms->stems);
  deduplicate(&terms->prefixes);
  deduplicate(&terms->loose_stems);
  auto order = [](const HighlightGroup& a, const HighlightGroup& b) {
    return std::tie(a.stems, a.span, a.ordered) < std::tie(b.stems, b.span, b.ordered);
  };
  std::sort(terms->groups.begin(), terms->groups.end(), order);
  terms->groups.erase(std::unique(terms->groups.begin(), terms->groups.end()), terms->groups.end());
}

}  // namespace quarry::detail
