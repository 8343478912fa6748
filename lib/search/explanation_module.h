// Explanations (SearchOptions::explain): what each part of the query added
// to each hit's score (Hit::explanation).
#ifndef QUARRY_LIB_SEARCH_EXPLANATION_MODULE_H_
#define QUARRY_LIB_SEARCH_EXPLANATION_MODULE_H_

#include <memory>

#include "lib/search/search_module.h"

namespace quarry::detail {

// Each of the query's scoring parts, weighed alone on the hit with the
// statistics of the whole index, heaviest first: the parts add up to the
// score.
std::unique_ptr<SearchModule> make_explanation_module();

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_EXPLANATION_MODULE_H_
