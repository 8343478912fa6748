#include "quarry/search/facet.h"

#include <algorithm>

#include "quarry/error.h"
#include "quarry/text/utf8.h"

namespace quarry {
namespace {

constexpr FacetField kFields[] = {FacetField::kSource, FacetField::kCategory, FacetField::kLanguage,
                                  FacetField::kDate};

}  // namespace

std::string_view facet_name(FacetField field) {
  switch (field) {
    case FacetField::kSource:
      return "source";
    case FacetField::kCategory:
      return "category";
    case FacetField::kLanguage:
      return "language";
    case FacetField::kDate:
      return "date";
  }
  return "";
}

std::optional<FacetField> facet_field(std::string_view name) {
  for (FacetField field : kFields) {
    if (facet_name(field) == name) return field;
  }
  return std::nullopt;
}

}  // namespace quarry
