#include "lib/search/facet_module.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lib/index/schema.h"
#include "lib/search/match_count.h"

namespace quarry::detail {
namespace {

// Dates are counted by month unless the matches span more months than
// this: then by year, so that a facet stays a short list.
constexpr int kMostMonths = 24;

Xapian::valueno slot_of(FacetField field) {
  switch (field) {
    case FacetField::kSource:
      return kSourceSlot;
    case FacetField::kCategory:
      return kCategorySlot;
    case FacetField::kLanguage:
      return kLanguageSlot;
    case FacetField::kDate:
      return kDateSlot;
  }
  return kDateSlot;
}

void sort_values(std::vector<FacetValue>* values) {
  std::sort(values->begin(), values->end(), [](const FacetValue& a, const FacetValue& b) {
    return a.count != b.count ? a.count > b.count : a.value < b.value;
  });
}

// Values the analyzer folds together ("Reuters", "REUTERS") are one, as
// a filter on the field finds them all; it is named by its most common
// spelling.
std::vector<FacetValue> folded_values(const Xapian::ValueCountMatchSpy& spy,
                                      const Analyzer& analyzer) {
  struct Group {
    std::size_t count = 0;
    std::string name;
    std::size_t name_count = 0;
  };
  std::map<std::string, Group> groups;
  for (auto it = spy.values_begin(); it != spy.values_end(); ++it) {
    const std::string value = *it;
    const std::size_t count = it.get_termfreq();
    Group& group = groups[analyzer.normalize(value)];
    group.count += count;
    if (count > group.name_count || (count == group.name_count && value < group.name)) {
      group.name = value;
      group.name_count = count;
    }
  }
  std::vector<FacetValue> values;
  for (const auto& [folded, group] : groups) values.push_back({group.name, group.count});
  return values;
}

int month_number(const std::string& yyyymm) {
  return std::stoi(yyyymm.substr(0, 4)) * 12 + std::stoi(yyyymm.substr(5, 2)) - 1;
}

// "YYYYMMDD" values by month ("YYYY-MM"), or by year when they span more
// than kMostMonths months, oldest first.
std::vector<FacetValue> date_values(const Xapian::ValueCountMatchSpy& spy) {
  std::map<std::string, std::size_t> months;
  for (auto it = spy.values_begin(); it != spy.values_end(); ++it) {
    const std::string value = *it;
    if (value.size() < 6) continue;
    months[value.substr(0, 4) + "-" + value.substr(4, 2)] += it.get_termfreq();
  }
  std::vector<FacetValue> values;
  if (months.empty()) return values;
  const bool by_year =
      month_number(months.rbegin()->first) - month_number(months.begin()->first) >= kMostMonths;
  if (!by_year) {
    for (const auto& [month, count] : months) values.push_back({month, count});
    return values;
  }
  std::map<std::string, std::size_t> years;
  for (const auto& [month, count] : months) years[month.substr(0, 4)] += count;
  for (const auto& [year, count] : years) values.push_back({year, count});
  return values;
}

// One Xapian ValueCountMatchSpy a field.
using Spies = std::vector<std::unique_ptr<Xapian::ValueCountMatchSpy>>;

// What the spies counted, values folded by `analyzer` as the field
// filters fold them, dates by month (or by year over long spans).
std::vector<Facet> facets_of(const std::vector<FacetField>& fields, const Spies& spies,
                             const Analyzer& analyzer) {
  std::vector<Facet> facets;
  for (std::size_t i = 0; i < fields.size() && i < spies.size(); ++i) {
    Facet facet{fields[i], {}};
    // Dates read as a timeline: date_values() gives them in date order.
    if (fields[i] == FacetField::kDate) {
      facet.values = date_values(*spies[i]);
    } else {
      facet.values = folded_values(*spies[i], analyzer);
      sort_values(&facet.values);
    }
    facets.push_back(std::move(facet));
  }
  return facets;
}

class FacetModule final : public SearchModule {
 public:
  bool counts_every_match(const SearchContext& context) const override {
    return !context.options.facets.fields.empty();
  }

  void count(const SearchContext& context, const Matches& matches, SearchResult* result) override {
    if (!counts_every_match(context)) return;
    const std::vector<FacetField>& fields = context.options.facets.fields;
    Spies spies;
    std::vector<Xapian::MatchSpy*> shown;
    for (FacetField field : fields) {
      spies.push_back(std::make_unique<Xapian::ValueCountMatchSpy>(slot_of(field)));
      shown.push_back(spies.back().get());
    }
    result->total = count_all_matches(context.shards.articles(), matches.query, shown);
    result->total_exact = true;
    result->facets = facets_of(fields, spies, context.analyzer);
  }
};

}  // namespace

std::unique_ptr<SearchModule> make_facet_module() { return std::make_unique<FacetModule>(); }

}  // namespace quarry::detail
