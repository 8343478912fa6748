// Reading back where an article's words were indexed, so that snippets mark
// exactly the words a query found rather than stemming the text again.
#ifndef QUARRY_LIB_SEARCH_STORED_POSITIONS_H_
#define QUARRY_LIB_SEARCH_STORED_POSITIONS_H_

#include <xapian.h>

#include <string>
#include <vector>

#include "quarry/search/snippet.h"
#include "quarry/text/analyzer.h"

namespace quarry::detail {

// Where each of `stems` occurs in the body of the article stored as
// document `did`, as indexes of the body's words: the index's positions
// read back, so that a hit's snippet marks exactly the words that were
// indexed under the query's stems. `title` is the article's title, whose
// words come first in the positions. Throws Xapian::Error.
StemWords body_stem_words(const Xapian::Database& db, Xapian::docid did, const Analyzer& analyzer,
                          const std::string& title, const std::vector<std::string>& stems);

// Whether a spelling suggestion may offer this word: not numbers, not
// single letters or CJK characters.
bool is_spelling_word(const std::string& word);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_STORED_POSITIONS_H_
