// What a hit's text is marked for, as the query parser finds it and the
// snippet maker uses it.
#ifndef QUARRY_SEARCH_HIGHLIGHT_TERMS_H_
#define QUARRY_SEARCH_HIGHLIGHT_TERMS_H_

#include <string>
#include <vector>

namespace quarry {

// The words a hit is highlighted for: the stems of the query's positive
// parts (a word of the text is marked when its stem is one of them, as it
// was found), and wildcard prefixes.
struct HighlightTerms {
  std::vector<std::string> stems;
  std::vector<std::string> prefixes;

  bool empty() const { return stems.empty() && prefixes.empty(); }
};

}  // namespace quarry

#endif  // QUARRY_SEARCH_HIGHLIGHT_TERMS_H_
