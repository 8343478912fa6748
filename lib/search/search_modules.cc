// The modules every search runs beside the core (search_module.h). At each
// stage they run in this order, which matters twice: facets set the total
// before stories count their groups from it, and stories set the collapse
// key before feedback runs its first pass. Recency, adding a factor to
// each hit's explanation, comes after explanations.
#include <memory>
#include <vector>

#include "lib/search/explanation_module.h"
#include "lib/search/facet_module.h"
#include "lib/search/feedback_module.h"
#include "lib/search/like_module.h"
#include "lib/search/recency_module.h"
#include "lib/search/search_module.h"
#include "lib/search/snippet_module.h"
#include "lib/search/spelling_module.h"
#include "lib/search/story_module.h"

namespace quarry::detail {

std::vector<std::unique_ptr<SearchModule>> make_search_modules() {
  std::vector<std::unique_ptr<SearchModule>> modules;
  modules.push_back(make_spelling_module());
  modules.push_back(make_like_module());
  modules.push_back(make_facet_module());
  modules.push_back(make_story_module());
  modules.push_back(make_feedback_module());
  modules.push_back(make_snippet_module());
  modules.push_back(make_explanation_module());
  modules.push_back(make_recency_module());
  return modules;
}

}  // namespace quarry::detail
