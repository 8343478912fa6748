#include "lib/index/candidate_ranker.h"

#include <algorithm>
#include <cmath>

namespace quarry::detail {

CandidateRanker::CandidateRanker(const SignatureTable& signatures) : signatures_(signatures) {
  const Xapian::Database& all = signatures_.database();
  lengths_.assign(all.get_lastdocid() + 1, 0);
  weights_.assign(all.get_lastdocid() + 1, 0.0);
  for (auto it = all.postlist_begin(""); it != all.postlist_end(""); ++it) {
    lengths_[*it] = it.get_doclength();
  }
}

const std::vector<std::pair<Xapian::docid, Xapian::termcount>>& CandidateRanker::holders(
    std::uint32_t stem) {
  auto [it, added] = holders_.try_emplace(stem);
  if (added) {
    const std::string& term = signatures_.stem_name(stem);
    const Xapian::Database& all = signatures_.database();
    for (auto posting = all.postlist_begin(term); posting != all.postlist_end(term); ++posting) {
      it->second.emplace_back(*posting, posting.get_wdf());
    }
  }
  return it->second;
}

// Xapian's BM25Weight with its default parameters (k1 1, k2 0, k3 1, b 0.5,
// min_normlen 0.5), each term of the query once, best weight first and
// ties by docid, so that the candidates are those a search would give.
std::vector<Xapian::docid> CandidateRanker::best_matches(const std::vector<std::uint32_t>& query,
                                                         std::size_t count) {
  constexpr double k1 = 1, b = 0.5, min_normlen = 0.5;
  const double articles = signatures_.articles();
  const double average_length = signatures_.database().get_avlength();
  const double length_factor = average_length == 0 ? 0 : 1 / average_length;
  // Each match's weight is summed in query order, in a table by docid
  // that is left zeroed again for the next query.
  std::vector<Xapian::docid> matched;
  for (std::uint32_t stem : query) {
    const double df = signatures_.df(stem);
    double odds = (articles - df + 0.5) / (df + 0.5);
    if (odds < 2) odds = odds * 0.5 + 1;
    const double term_weight = std::log(odds) * (k1 + 1);
    for (const auto& [did, wdf] : holders(stem)) {
      const double normlen = std::max(lengths_[did] * length_factor, min_normlen);
      const double wdf_double = wdf;
      const double denom = k1 * (normlen * b + (1 - b)) + wdf_double;
      if (weights_[did] == 0) matched.push_back(did);
      weights_[did] += term_weight * (wdf_double / denom);
    }
  }
  std::vector<std::pair<double, Xapian::docid>> ranked;
  ranked.reserve(matched.size());
  for (Xapian::docid did : matched) {
    ranked.emplace_back(weights_[did], did);
    weights_[did] = 0;
  }
  const auto better = [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first > y.first : x.second < y.second;
  };
  if (ranked.size() > count) {
    std::partial_sort(ranked.begin(), ranked.begin() + count, ranked.end(), better);
    ranked.resize(count);
  } else {
    std::sort(ranked.begin(), ranked.end(), better);
  }
  std::vector<Xapian::docid> best;
  for (const auto& entry : ranked) best.push_back(entry.second);
  return best;
}

}  // namespace quarry::detail
