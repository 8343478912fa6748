// Spelling suggestions: for a rare word of a query, a much more frequent
// word of the index's vocabulary that is one or two edits away.
#ifndef QUARRY_LIB_SEARCH_SPELLING_H_
#define QUARRY_LIB_SEARCH_SPELLING_H_

#include <xapian.h>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "quarry/text/analyzer.h"

namespace quarry::detail {

// The word to suggest instead of `word` (normalized, as the analyzer
// writes it), or "" when none is better. `vocabulary` holds the index's
// spelling data (every word as written, with how many articles hold it);
// `articles` is how many articles the index holds. Throws Xapian::Error.
//
// Only a rare word is looked at: one held by at most one article in a
// thousand, or by one article in an index of fewer. A suggestion starts with
// the same letter (a mistyped first letter is rare, and changing it jumps
// to unrelated words: Herrera to "errera", Ederson to "person") and is much
// more frequent than the word, and has another stem (a word of the same
// stem finds the same articles: "hikes" for "hike" would change nothing):
//  - one edit away (a letter left out, added or changed, or two swapped),
//    held by ten times as many articles as the word, or by any article when
//    the word is in none: "goverment" to "government", "mobil" to "mobile";
//  - two edits away, for a word in no article that finds none through its
//    stem either (`finds_articles` false): held by ten articles or more;
//  - and in either case a word the collection uses, held by more than one
//    article in 2,000: in a large index, a word of one article is as likely
//    a slip or a stray name as what was meant.
// The fewest edits win, then the most articles.
std::string better_spelling(const Xapian::Database& vocabulary, Xapian::doccount articles,
                            const Analyzer& analyzer, const std::string& word, bool finds_articles);

// Hashes a std::string key and a std::string_view alike, so that a view
// finds a key without being copied.
struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view text) const {
    return std::hash<std::string_view>{}(text);
  }
};

// Words of the vocabulary, with how many articles hold each.
using FrequentWords =
    std::unordered_map<std::string, Xapian::doccount, StringHash, std::equal_to<>>;

// better_spelling for the queries of one searcher, which repeat words and
// ask about many rare ones: each answer is kept, and from the second word
// that needs a search of the words one edit away, the words frequent
// enough to be suggested are read into memory once, rather than each
// candidate being looked up in the vocabulary's B-tree (hundreds a word).
// What it keeps is of one state of the index: forget() when it changes.
// Not thread-safe.
class Speller {
 public:
  // What better_spelling answers.
  std::string better_spelling(const Xapian::Database& vocabulary, Xapian::doccount articles,
                              const Analyzer& analyzer, const std::string& word,
                              bool finds_articles);
  void forget();

 private:
  // Each word asked about (with whether it finds articles), and the answer.
  std::unordered_map<std::string, std::string> answers_;
  // The words that may be suggested in an index of articles_ articles (see
  // better_spelling), with how many articles hold each, once read.
  FrequentWords frequent_;
  Xapian::doccount articles_ = 0;
  bool frequent_read_ = false;
  std::size_t one_edit_searches_ = 0;
};

// The edits between two words, counted in code points: letters left out,
// added or changed, and two neighbours swapped (optimal string alignment).
std::size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_SPELLING_H_
