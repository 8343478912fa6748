// Finding an article's links: the articles that are near copies of it
// (they share a band of its sketch and resemble it) and those that may be
// of its story (they share its rare stems and their vectors are similar).
// ArticleLinker groups the articles by these links.
#ifndef QUARRY_LIB_INDEX_LINK_FINDER_H_
#define QUARRY_LIB_INDEX_LINK_FINDER_H_

#include <xapian.h>

#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "lib/index/band_index.h"
#include "lib/index/candidate_ranker.h"
#include "lib/index/signature_table.h"
#include "lib/index/story_signature.h"

namespace quarry::detail {

// Reads what it compares as it goes, through its SignatureTable. Throws
// Xapian::Error. Not thread-safe.
class LinkFinder {
 public:
  explicit LinkFinder(Xapian::Database all) : signatures_(std::move(all)) {}

  const Xapian::Database& database() const { return signatures_.database(); }
  SignatureTable& signatures() { return signatures_; }

  // Reads every article's signature, and ranks story candidates in memory
  // rather than by a search per article. For linking all.
  void read_all();
  // Reads the bands of every article that shares one with `dirty`, for
  // linking them; read_all() reads every shared band.
  void read_bands_of(const std::unordered_set<Xapian::docid>& dirty);
  // Ranks story candidates in memory, as read_all() does: for many
  // articles, reading each rare stem's postings once costs less than a
  // search per article.
  void rank_in_memory() { ranker_ = std::make_unique<CandidateRanker>(signatures_); }
  // Uses the bands in `kept` (every article's, made on the first call) for
  // the articles of the index, after bringing `dirty`'s up to date.
  void use_bands(std::unique_ptr<BandIndex>& kept, const std::unordered_set<Xapian::docid>& dirty);

  // The near copies of `did`: articles sharing a band with it whose
  // sketches resemble its own (kDuplicateResemblance). Needs the bands
  // (read_all, read_bands_of or use_bands).
  std::vector<Xapian::docid> duplicates_of(Xapian::docid did);
  // The articles of the story of `did` among its best story candidates.
  std::vector<Xapian::docid> story_of(Xapian::docid did);

 private:
  bool same_story(const Signature& a, const Signature& b, double least) const;
  // The least idf of a stem few enough articles hold to be one of a
  // story's names (kRareShare, kRareArticles).
  double rare_weight() const;
  // The article's sketch, or null when it has none.
  const MinHash* sketch_of(Xapian::docid did);

  SignatureTable signatures_;
  // Which articles share a band, in owned_bands_ or kept by the caller
  // (use_bands).
  std::unique_ptr<BandIndex> owned_bands_;
  const BandIndex* bands_ = nullptr;
  // The sketches read_bands_of() kept: comparing an article with one that
  // shares a band then reads nothing more of it.
  std::unordered_map<Xapian::docid, MinHash> band_sketches_;
  // Null unless read_all() or rank_in_memory() was called.
  std::unique_ptr<CandidateRanker> ranker_;
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_LINK_FINDER_H_
