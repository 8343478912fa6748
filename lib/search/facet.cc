#include "quarry/search/facet.h"

namespace quarry {

std::string_view facet_name(FacetField field) { return name_of(kFacetNames, field); }

std::optional<FacetField> facet_field(std::string_view name) {
  return value_named(kFacetNames, name);
}

}  // namespace quarry
