// Which languages write a word: the vocabulary (Xapian's spelling data)
// counts each word once in all, and again after the mark of each language
// but the main one whose articles hold it (see document_builder.h's
// add_words).
#ifndef QUARRY_LIB_SEARCH_LANGUAGE_VOCABULARY_H_
#define QUARRY_LIB_SEARCH_LANGUAGE_VOCABULARY_H_

#include <xapian.h>

#include <string>
#include <vector>

#include "quarry/text/analyzer.h"

namespace quarry::detail {

// How many articles the vocabulary says hold `word` (Xapian 1.4 has no
// call for one word's count).
Xapian::doccount articles_writing(const Xapian::Database& vocabulary, const std::string& word);

// For each of `languages` (the analyzers of every language the index
// holds), how many of its articles hold `word`, a normalized word. The
// main language's count is what the others leave of the word's.
std::vector<Xapian::doccount> articles_writing(const Xapian::Database& vocabulary,
                                               const std::vector<const Analyzer*>& languages,
                                               const std::string& word);

// Whether `word` is written in the articles of one of `languages` marked
// in `in`; always, when the index holds one language.
bool written_in(const Xapian::Database& vocabulary, const std::vector<const Analyzer*>& languages,
                const std::string& word, const std::vector<bool>& in);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_LANGUAGE_VOCABULARY_H_
