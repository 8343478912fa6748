#include "quarry/search/facet.h"

#include <algorithm>

#include "quarry/error.h"
#include "quarry/text/utf8.h"

namespace quarry {
namespace {

constexpr FacetField kFields[] = {FacetField::kSource, FacetField::kCategory, FacetField::kDate};

}  // namespace

std::string_view facet_name(FacetField field) {
  switch (field) {
    case FacetField::kSource:
      return "source";
    case FacetField::kCategory:
      return "category";
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

std::vector<FacetField> parse_facet_fields(std::string_view list) {
  std::vector<FacetField> fields;
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    const std::string_view name = trim_white_space(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    if (name.empty()) continue;
    const std::optional<FacetField> field = facet_field(name);
    if (!field) {
      throw ConfigError("no facet '" + std::string(name) + "': facets are source, category, date");
    }
    if (std::find(fields.begin(), fields.end(), *field) == fields.end()) fields.push_back(*field);
  }
  return fields;
}

}  // namespace quarry
