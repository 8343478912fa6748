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

// Where each of a query's stems occurs in a stored article's title and in
// its body, as indexes of each text's words.
struct ArticleStemWords {
  StemWords title;
  StemWords body;
};

// Where each of `stems` occurs in the article stored as document `did`:
// the index's positions read back, so that a hit's snippet and title mark
// exactly the words that were indexed under the query's stems.
// `title_words` is how many words the analyzer finds in its title, whose
// words come first in the positions. Throws Xapian::Error.
ArticleStemWords article_stem_words(const Xapian::Database& db, Xapian::docid did,
                                    std::size_t title_words, const std::vector<std::string>& stems);

// Whether a spelling suggestion may offer this word: not numbers, not
// single letters or CJK characters.
bool is_spelling_word(const std::string& word);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_STORED_POSITIONS_H_
