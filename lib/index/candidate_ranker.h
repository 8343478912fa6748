// Story candidates of a new index, ranked in memory: linking every article
// searches each one's rare stems, and a search per article would read the
// same posting lists over and over.
#ifndef QUARRY_LIB_INDEX_CANDIDATE_RANKER_H_
#define QUARRY_LIB_INDEX_CANDIDATE_RANKER_H_

#include <xapian.h>

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lib/index/signature_table.h"

namespace quarry::detail {

// Ranks the articles of `signatures`' database for queries of its stems,
// as a search would. Keeps each posting list read, and every article's
// length. Not thread-safe. Throws Xapian::Error.
class CandidateRanker {
 public:
  // Reads every article's length. `signatures` must outlive the ranker.
  explicit CandidateRanker(const SignatureTable& signatures);

  // The best `count` matches of the stems `query` (by number), as Xapian's
  // BM25Weight ranks them, best first.
  std::vector<Xapian::docid> best_matches(const std::vector<std::uint32_t>& query,
                                          std::size_t count);

 private:
  // The articles holding `stem`, and how often, read once for every
  // article whose story searches it.
  const std::vector<std::pair<Xapian::docid, Xapian::termcount>>& holders(std::uint32_t stem);

  const SignatureTable& signatures_;
  std::unordered_map<std::uint32_t, std::vector<std::pair<Xapian::docid, Xapian::termcount>>>
      holders_;
  std::vector<Xapian::termcount> lengths_;  // by docid
  std::vector<double> weights_;             // by docid, zero between queries
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_CANDIDATE_RANKER_H_
