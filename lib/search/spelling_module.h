// Spelling (SearchOptions::spelling): a suggestion for a query's rare words
// (SearchResult::suggestion), searched instead as options.spelling.correct
// says.
#ifndef QUARRY_LIB_SEARCH_SPELLING_MODULE_H_
#define QUARRY_LIB_SEARCH_SPELLING_MODULE_H_

#include <memory>

#include "lib/search/search_module.h"

namespace quarry::detail {

// The query with each rare free word replaced by a much more frequent word
// of the index close to it (spelling.h's Speller, whose answers it keeps
// until the index changes), in the case it was typed in; a word the
// articles write beside the query's next or previous word is kept. With
// Correction::kAuto, the suggestion's hits replace the query's when the
// suggestion matches something and ten times as many articles as the query
// (none, or a few through a rare word); with kAlways, whenever there is a
// suggestion.
std::unique_ptr<SearchModule> make_spelling_module();

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_SPELLING_MODULE_H_
