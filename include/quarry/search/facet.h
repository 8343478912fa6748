// Counts of the matching articles by a field: how many by source, by
// category, by language, by month.
#ifndef QUARRY_SEARCH_FACET_H_
#define QUARRY_SEARCH_FACET_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/value_names.h"

namespace quarry {

enum class FacetField { kSource, kCategory, kLanguage, kDate };

// Each field's name in options, JSON and queries, in the order lists show
// them.
inline constexpr ValueName<FacetField> kFacetNames[] = {{FacetField::kSource, "source"},
                                                        {FacetField::kCategory, "category"},
                                                        {FacetField::kLanguage, "language"},
                                                        {FacetField::kDate, "date"}};

// The field's name in kFacetNames.
std::string_view facet_name(FacetField field);

// The field of that name; nothing for another name.
std::optional<FacetField> facet_field(std::string_view name);

// Facets: every match counted by these fields (SearchResult::facets); the
// total is then exact, whatever SearchOptions::count_limit.
struct FacetOptions {
  std::vector<FacetField> fields;
};

struct FacetValue {
  // As articles write it (the most common spelling among those the
  // analyzer folds together, as a filter on the field does); languages as
  // Hit::language names them ("fr"); dates are "YYYY-MM", or "YYYY" when
  // the matches span many years.
  std::string value;
  std::size_t count = 0;

  bool operator==(const FacetValue&) const = default;
};

struct Facet {
  FacetField field;
  // Every value held by a matching article, largest count first, then in
  // order of value; dates in date order, oldest first, as a timeline.
  // Articles without the field are not counted.
  std::vector<FacetValue> values;
};

}  // namespace quarry

#endif  // QUARRY_SEARCH_FACET_H_
