// What a hit's text is marked for, as the query parser finds it and the
// snippet maker uses it.
#ifndef QUARRY_SEARCH_HIGHLIGHT_TERMS_H_
#define QUARRY_SEARCH_HIGHLIGHT_TERMS_H_

#include <cstddef>
#include <string>
#include <vector>

namespace quarry {

// Words of the query that count only together: a phrase, or words joined by
// NEAR or ADJ. An occurrence is a choice of distinct words of the text, one
// per stem, all within `span` consecutive words, in query order when
// `ordered`: the matches of Xapian's OP_PHRASE (ordered) and OP_NEAR.
struct HighlightGroup {
  std::vector<std::string> stems;  // in query order, two or more
  std::size_t span = 0;            // a phrase's is its number of words
  bool ordered = true;

  bool operator==(const HighlightGroup&) const = default;
};

// The words a hit is highlighted for: the stems of the query's positive
// parts (a word of the text is marked when its stem is one of them, as it
// was found), and wildcard prefixes.
//
// A stem of a group that is not also among loose_stems is marked only
// where it is one of the words of an occurrence of one of its groups, so
// that `"mobile phone"` marks the phrase and not every "phones"; when that
// leaves nothing of a text marked, every match is marked after all.
struct HighlightTerms {
  std::vector<std::string> stems;  // every stem, loose or in a group
  std::vector<std::string> prefixes;
  // The stems that match on their own: words, one-word synonyms.
  std::vector<std::string> loose_stems;
  std::vector<HighlightGroup> groups;

  bool empty() const { return stems.empty() && prefixes.empty(); }
};

}  // namespace quarry

#endif  // QUARRY_SEARCH_HIGHLIGHT_TERMS_H_
