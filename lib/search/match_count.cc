#include "lib/search/match_count.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>

#include "lib/index/schema.h"

namespace quarry::detail {
namespace {

// Dates are counted by month unless the matches span more months than
// this: then by year, so that a facet stays a short list.
constexpr int kMostMonths = 24;

Xapian::doccount doccount_limit(std::size_t limit) {
  constexpr auto kMost = std::numeric_limits<Xapian::doccount>::max() - 1;
  return static_cast<Xapian::doccount>(std::min<std::size_t>(limit, kMost));
}

// Runs `query` with no weighting, looking at `check_at_least` matches at
// least: Xapian then stops at that many, or knows the count exactly.
Xapian::MSet unweighted_pass(
    const Xapian::Database& db, const Xapian::Query& query, Xapian::doccount check_at_least,
    const std::vector<std::unique_ptr<Xapian::ValueCountMatchSpy>>& spies) {
  Xapian::Enquire enquire(db);
  enquire.set_query(query);
  enquire.set_weighting_scheme(Xapian::BoolWeight());
  for (const auto& spy : spies) enquire.add_matchspy(spy.get());
  return enquire.get_mset(0, 0, check_at_least);
}

Xapian::valueno slot_of(FacetField field) {
  switch (field) {
    case FacetField::kSource:
      return kSourceSlot;
    case FacetField::kCategory:
      return kCategorySlot;
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
// than kMostMonths months.
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

// The terms of a bag of words (one term, or an OR of terms only), the
// common query; nothing for any other query.
std::optional<std::vector<std::string>> bag_of_terms(const Xapian::Query& query) {
  std::vector<std::string> terms;
  if (query.get_type() == Xapian::Query::LEAF_TERM) {
    terms.push_back(*query.get_terms_begin());
    return terms;
  }
  if (query.get_type() != Xapian::Query::OP_OR) return std::nullopt;
  for (std::size_t i = 0; i < query.get_num_subqueries(); ++i) {
    const Xapian::Query part = query.get_subquery(i);
    if (part.get_type() != Xapian::Query::LEAF_TERM) return std::nullopt;
    terms.push_back(*part.get_terms_begin());
  }
  return terms;
}

// How many documents hold any of `terms`, counted to `most` at most. The
// most frequent term's documents are counted from its frequency; the
// others' are marked in a bitmap of the documents, then each looked up in
// the frequent term's postings, which skip whole chunks between them. A
// matcher would handle every match as a candidate for the page instead.
std::size_t count_union(const Xapian::Database& db, std::vector<std::string> terms,
                        std::size_t most) {
  std::vector<Xapian::doccount> frequencies;
  for (const std::string& term : terms) frequencies.push_back(db.get_termfreq(term));
  const std::size_t largest = static_cast<std::size_t>(
      std::max_element(frequencies.begin(), frequencies.end()) - frequencies.begin());
  std::size_t count = frequencies[largest];
  if (count >= most) return count;
  const std::string frequent = terms[largest];
  terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(largest));

  std::vector<std::uint64_t> seen(db.get_lastdocid() / 64 + 1, 0);
  for (const std::string& term : terms) {
    const Xapian::PostingIterator end = db.postlist_end(term);
    for (Xapian::PostingIterator it = db.postlist_begin(term); it != end; ++it) {
      seen[*it / 64] |= std::uint64_t{1} << (*it % 64);
    }
  }
  Xapian::PostingIterator postings = db.postlist_begin(frequent);
  const Xapian::PostingIterator end = db.postlist_end(frequent);
  for (std::size_t w = 0; w < seen.size(); ++w) {
    for (std::uint64_t bits = seen[w]; bits != 0; bits &= bits - 1) {
      const auto did = static_cast<Xapian::docid>(w * 64 + std::countr_zero(bits));
      if (postings != end && *postings < did) postings.skip_to(did);
      if (postings != end && *postings == did) continue;
      if (++count >= most) return count;
    }
  }
  return count;
}

}  // namespace

MatchCount count_matches(const Xapian::Database& db, const Xapian::Query& query,
                         const Xapian::MSet& mset, std::size_t limit, bool local) {
  limit = std::max<std::size_t>(limit, 1);
  // Articles, whether or not the ranking showed each story once.
  const std::size_t lower = mset.get_uncollapsed_matches_lower_bound();
  if (lower > limit) return {limit, false};
  if (lower == mset.get_uncollapsed_matches_upper_bound()) return {lower, true};
  // One past the limit tells "exactly the limit" from "more".
  std::size_t seen = 0;
  if (const auto terms = bag_of_terms(query); terms && local) {
    seen = count_union(db, *terms, limit + 1);
  } else {
    seen = unweighted_pass(db, query, doccount_limit(limit) + 1, {}).get_matches_lower_bound();
  }
  if (seen > limit) return {limit, false};
  return {seen, true};
}

Xapian::doccount ranking_check_at_least(const Xapian::Query& query, std::size_t limit, bool local) {
  if (local && bag_of_terms(query)) return 0;
  return doccount_limit(std::max<std::size_t>(limit, 1)) + 1;
}

std::size_t count_all_matches(const Xapian::Database& db, const Xapian::Query& query) {
  return unweighted_pass(db, query, doccount_limit(db.get_doccount()) + 1, {})
      .get_matches_lower_bound();
}

FacetCounter::FacetCounter(std::vector<FacetField> fields) : fields_(std::move(fields)) {}

FacetCounter::~FacetCounter() = default;

std::size_t FacetCounter::count(const Xapian::Database& db, const Xapian::Query& query) {
  spies_.clear();
  for (FacetField field : fields_) {
    spies_.push_back(std::make_unique<Xapian::ValueCountMatchSpy>(slot_of(field)));
  }
  return unweighted_pass(db, query, doccount_limit(db.get_doccount()) + 1, spies_)
      .get_matches_lower_bound();
}

std::vector<Facet> FacetCounter::facets(const Analyzer& analyzer) const {
  std::vector<Facet> facets;
  for (std::size_t i = 0; i < fields_.size() && i < spies_.size(); ++i) {
    Facet facet{fields_[i], {}};
    facet.values = fields_[i] == FacetField::kDate ? date_values(*spies_[i])
                                                   : folded_values(*spies_[i], analyzer);
    sort_values(&facet.values);
    facets.push_back(std::move(facet));
  }
  return facets;
}

}  // namespace quarry::detail
