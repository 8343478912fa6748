// The words a query highlights, in one order without repeats: however often
// the query names a word, its hits' texts are marked for it once.
#ifndef QUARRY_LIB_SEARCH_HIGHLIGHT_TERMS_ORDER_H_
#define QUARRY_LIB_SEARCH_HIGHLIGHT_TERMS_ORDER_H_

#include "quarry/search/highlight_terms.h"

namespace quarry::detail {

// Sorts each list of `terms` and drops the repeats in it.
void deduplicate(HighlightTerms* terms);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_HIGHLIGHT_TERMS_ORDER_H_
