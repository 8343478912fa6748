#include "lib/search/query_anchors.h"

#include <algorithm>
#include <limits>

namespace quarry::detail {
namespace {

using Anchors = std::optional<std::vector<std::string>>;

// How many articles hold one of the anchors, at most: the smaller, the
// fewer searches a new article wakes.
Xapian::doccount reach(const std::vector<std::string>& anchors, const Xapian::Database& db) {
  Xapian::doccount sum = 0;
  for (const std::string& term : anchors) {
    sum = std::min(sum + db.get_termfreq(term), std::numeric_limits<Xapian::doccount>::max() / 2);
  }
  return sum;
}

// Any one of the parts may match: an article holds an anchor of one of them.
Anchors any_part(const Xapian::Query& query, std::size_t from, const Xapian::Database& db) {
  std::vector<std::string> all;
  for (std::size_t i = from; i < query.get_num_subqueries(); ++i) {
    Anchors part = query_anchors(query.get_subquery(i), db);
    if (!part) return std::nullopt;
    all.insert(all.end(), part->begin(), part->end());
  }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

// Every part must match: the anchors of any one part will do, and the
// rarest part's wake the fewest searches.
Anchors every_part(const Xapian::Query& query, std::size_t parts, const Xapian::Database& db) {
  Anchors best;
  Xapian::doccount best_reach = 0;
  for (std::size_t i = 0; i < parts; ++i) {
    Anchors part = query_anchors(query.get_subquery(i), db);
    if (!part) continue;
    if (part->empty()) return part;
    const Xapian::doccount part_reach = reach(*part, db);
    if (!best || part_reach < best_reach) {
      best = std::move(part);
      best_reach = part_reach;
    }
  }
  return best;
}

}  // namespace

Anchors query_anchors(const Xapian::Query& query, const Xapian::Database& db) {
  switch (query.get_type()) {
    case Xapian::Query::LEAF_TERM:
      return std::vector<std::string>{*query.get_terms_begin()};
    case Xapian::Query::LEAF_MATCH_NOTHING:
      return std::vector<std::string>{};
    case Xapian::Query::OP_AND:
    case Xapian::Query::OP_FILTER:
    case Xapian::Query::OP_NEAR:
    case Xapian::Query::OP_PHRASE:
      return every_part(query, query.get_num_subqueries(), db);
    // The first part alone decides whether an article matches.
    case Xapian::Query::OP_AND_MAYBE:
    case Xapian::Query::OP_AND_NOT:
    case Xapian::Query::OP_SCALE_WEIGHT:
      return every_part(query, 1, db);
    case Xapian::Query::OP_OR:
    case Xapian::Query::OP_XOR:
    case Xapian::Query::OP_SYNONYM:
    case Xapian::Query::OP_MAX:
    case Xapian::Query::OP_ELITE_SET:
      return any_part(query, 0, db);
    default:
      // Value ranges, posting sources, all articles, and whatever else
      // Xapian may add: any article may match.
      return std::nullopt;
  }
}

}  // namespace quarry::detail
