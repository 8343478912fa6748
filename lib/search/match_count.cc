#include "lib/search/match_count.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace quarry::detail {
namespace {

Xapian::doccount doccount_limit(std::size_t limit) {
  constexpr auto kMost = std::numeric_limits<Xapian::doccount>::max() - 1;
  return static_cast<Xapian::doccount>(std::min<std::size_t>(limit, kMost));
}

// Runs `query` with no weighting, looking at `check_at_least` matches at
// least: Xapian then stops at that many, or knows the count exactly.
Xapian::MSet unweighted_pass(const Xapian::Database& db, const Xapian::Query& query,
                             Xapian::doccount check_at_least,
                             const std::vector<Xapian::MatchSpy*>& spies) {
  Xapian::Enquire enquire(db);
  enquire.set_query(query);
  enquire.set_weighting_scheme(Xapian::BoolWeight());
  for (Xapian::MatchSpy* spy : spies) enquire.add_matchspy(spy);
  return enquire.get_mset(0, 0, check_at_least);
}

// Adds the terms of `query` to `terms` when it matches the articles that
// hold any of them: a term, or an OR or synonym of such queries, each
// perhaps weighed by a factor (a stem of one of an index's languages is).
bool add_terms_of_union(const Xapian::Query& query, std::vector<std::string>* terms) {
  const Xapian::Query::op type = query.get_type();
  if (type == Xapian::Query::LEAF_TERM) {
    terms->push_back(*query.get_terms_begin());
    return true;
  }
  if (type == Xapian::Query::OP_SCALE_WEIGHT)
    return add_terms_of_union(query.get_subquery(0), terms);
  if (type != Xapian::Query::OP_OR && type != Xapian::Query::OP_SYNONYM) return false;
  for (std::size_t i = 0; i < query.get_num_subqueries(); ++i) {
    if (!add_terms_of_union(query.get_subquery(i), terms)) return false;
  }
  return true;
}

// The terms of a bag of words, the common query: one term, or ORs of terms
// and of synonyms of terms (in an index of several languages a word stands
// for its stem in each, weighed by how rare it is in that language);
// nothing for any other query.
std::optional<std::vector<std::string>> bag_of_terms(const Xapian::Query& query) {
  std::vector<std::string> terms;
  if (!add_terms_of_union(query, &terms) || terms.empty()) return std::nullopt;
  std::sort(terms.begin(), terms.end());
  terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
  return terms;
}

// How many documents hold any of `terms`, counted to `most` at most. The
// most frequent term's documents are counted from its frequency; the
// others' are marked in a bitmap of the documents, then each looked up in
// the frequent term's postings, which skip whole chunks between them. A
// matcher would handle every match as a candidate for the page instead.
std::size_t count_union(const Xapian::Database& db, std::vector<std::string> terms,
                        std::size_t most, const Deadline& deadline) {
  // The clock is read once in this many postings.
  constexpr std::size_t kPostingsPerCheck = 4096;
  std::size_t read = 0;
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
      if (++read % kPostingsPerCheck == 0 && deadline.expired()) return count;
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
                         const Xapian::MSet& mset, std::size_t limit, bool local,
                         const Deadline& deadline) {
  // No index holds more than a doccount: one past it still fits.
  limit = std::max<std::size_t>(doccount_limit(limit), 1);
  // Articles, whether or not the ranking showed each story once.
  const std::size_t lower = mset.get_uncollapsed_matches_lower_bound();
  if (lower > limit) return {limit, false};
  if (lower == mset.get_uncollapsed_matches_upper_bound()) return {lower, true};
  // One past the limit tells "exactly the limit" from "more".
  std::size_t seen = 0;
  if (const auto terms = bag_of_terms(query); terms && local) {
    seen = count_union(db, *terms, limit + 1, deadline);
  } else {
    seen =
        unweighted_pass(db, deadline_bounded(query, deadline, local), doccount_limit(limit) + 1, {})
            .get_matches_lower_bound();
  }
  if (seen > limit) return {limit, false};
  return {seen, true};
}

Xapian::doccount ranking_check_at_least(const Xapian::Query& query, std::size_t limit, bool local) {
  if (local && bag_of_terms(query)) return 0;
  return doccount_limit(std::max<std::size_t>(limit, 1)) + 1;
}

GroupCount count_groups(const Xapian::Database& db, const Xapian::Query& query,
                        Xapian::valueno slot, std::size_t limit) {
  limit = std::max<std::size_t>(limit, 1);
  // Counts the articles it sees and how many have each value; an article
  // without one is not among the values.
  Xapian::ValueCountMatchSpy keys(slot);
  const Xapian::MSet pass = unweighted_pass(db, query, doccount_limit(limit) + 1, {&keys});
  const std::size_t seen = keys.get_total();
  std::size_t keyed = 0;
  std::size_t distinct = 0;
  for (auto it = keys.values_begin(); it != keys.values_end(); ++it) {
    keyed += it.get_termfreq();
    ++distinct;
  }
  const std::size_t groups = seen - keyed + distinct;
  if (seen <= limit && pass.get_matches_upper_bound() == seen) return {groups, true};
  const double share =
      static_cast<double>(groups) / static_cast<double>(std::max<std::size_t>(seen, 1));
  const auto scaled = static_cast<std::size_t>(std::llround(share * pass.get_matches_estimated()));
  return {std::clamp<std::size_t>(scaled, groups,
                                  std::max<std::size_t>(groups, pass.get_matches_upper_bound())),
          false};
}

std::size_t count_all_matches(const Xapian::Database& db, const Xapian::Query& query,
                              const std::vector<Xapian::MatchSpy*>& spies) {
  return unweighted_pass(db, query, doccount_limit(db.get_doccount()) + 1, spies)
      .get_matches_lower_bound();
}

}  // namespace quarry::detail
