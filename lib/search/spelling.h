// Spelling suggestions: for a rare word of a query, a much more frequent
// word of the index's vocabulary that is one or two edits away.
#ifndef QUARRY_LIB_SEARCH_SPELLING_H_
#define QUARRY_LIB_SEARCH_SPELLING_H_

#include <xapian.h>

#include <cstddef>
#include <string>
#include <string_view>

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

// The edits between two words, counted in code points: letters left out,
// added or changed, and two neighbours swapped (optimal string alignment).
std::size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_SPELLING_H_
