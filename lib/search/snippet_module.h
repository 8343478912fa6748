// Snippets (SearchOptions::snippets): each hit's best passage, and its
// title, with the query's matches marked (quarry/search/snippet.h).
#ifndef QUARRY_LIB_SEARCH_SNIPPET_MODULE_H_
#define QUARRY_LIB_SEARCH_SNIPPET_MODULE_H_

#include <memory>

#include "lib/search/search_module.h"

namespace quarry::detail {

// Fills Hit::snippet and Hit::title_highlights for the query's highlight
// terms.
std::unique_ptr<SearchModule> make_snippet_module();

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_SNIPPET_MODULE_H_
