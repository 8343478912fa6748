#include "lib/index/link_finder.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "lib/index/band_reader.h"
#include "lib/index/story_linker.h"

namespace quarry::detail {
namespace {

// The article's rare stems searched for story candidates, the heaviest
// first, and how many of the best-ranked candidates are compared with it.
constexpr std::size_t kQueryStems = 12;
constexpr Xapian::doccount kStoryCandidates = 20;

}  // namespace

void LinkFinder::read_all() {
  signatures_.read_all();
  owned_bands_ = std::make_unique<BandIndex>(signatures_.sketches());
  bands_ = owned_bands_.get();
  ranker_ = std::make_unique<CandidateRanker>(signatures_);
}

void LinkFinder::read_bands_of(const std::unordered_set<Xapian::docid>& dirty) {
  std::unordered_set<std::uint64_t> wanted;
  for (Xapian::docid did : dirty) {
    const Signature& s = signatures_.signature(did);
    if (!s.has_sketch) continue;
    for (std::uint64_t key : band_keys(s.sketch)) wanted.insert(key);
  }
  owned_bands_ = read_bands_among(database(), wanted, &band_sketches_);
  bands_ = owned_bands_.get();
}

void LinkFinder::use_bands(std::unique_ptr<BandIndex>& kept,
                           const std::unordered_set<Xapian::docid>& dirty) {
  if (!kept) {
    kept = read_every_band(database());
  } else {
    std::vector<std::pair<Xapian::docid, const MinHash*>> changed;
    for (Xapian::docid did : dirty) {
      const Signature& s = signatures_.signature(did);
      changed.emplace_back(did, s.has_sketch ? &s.sketch : nullptr);
    }
    kept->update(changed);
  }
  bands_ = kept.get();
}

// Similar vectors alone would also join reports that follow one template
// (dividend notices, money market updates) but tell of different things:
// a story's reports also share words that few articles hold, its names.
double LinkFinder::rare_weight() const {
  return std::log(1 + std::max<double>(signatures_.articles(), kIdfArticles) /
                          std::max<double>(kRareArticles, signatures_.articles() * kRareShare));
}

bool LinkFinder::same_story(const Signature& a, const Signature& b, double least) const {
  if (a.norm == 0 || b.norm == 0) return false;
  const double rare_weight = this->rare_weight();
  double dot = 0;
  std::size_t rare = 0;
  const SignatureTable::Stems a_stems = signatures_.stems(a);
  const SignatureTable::Stems b_stems = signatures_.stems(b);
  auto x = a_stems.begin();
  auto y = b_stems.begin();
  while (x != a_stems.end() && y != b_stems.end()) {
    const LinkedStem xs = *x;
    const LinkedStem ys = *y;
    if (xs.stem < ys.stem) {
      ++x;
    } else if (ys.stem < xs.stem) {
      ++y;
    } else {
      dot += signatures_.weight(xs) * signatures_.weight(ys);
      rare += signatures_.idf(xs.stem) >= rare_weight;
      ++x;
      ++y;
    }
  }
  return rare >= kSharedRareStems && dot / (a.norm * b.norm) >= least;
}

std::vector<Xapian::docid> LinkFinder::duplicates_of(Xapian::docid did) {
  const Signature& s = signatures_.signature(did);
  if (!s.has_sketch) return {};
  const MinHash sketch = s.sketch;
  std::unordered_set<Xapian::docid> candidates;
  bands_->for_each_near(sketch, did, [&](Xapian::docid other) {
    if (other != did) candidates.insert(other);
  });
  std::vector<Xapian::docid> found;
  for (Xapian::docid other : candidates) {
    const MinHash* other_sketch = sketch_of(other);
    if (other_sketch && resemblance(sketch, *other_sketch) >= kDuplicateResemblance) {
      found.push_back(other);
    }
  }
  return found;
}

const MinHash* LinkFinder::sketch_of(Xapian::docid did) {
  if (auto kept = band_sketches_.find(did); kept != band_sketches_.end()) return &kept->second;
  const Signature& s = signatures_.signature(did);
  return s.has_sketch ? &s.sketch : nullptr;
}

std::vector<Xapian::docid> LinkFinder::story_of(Xapian::docid did) {
  // Only an article sharing kSharedRareStems rare stems with this one can be
  // of its story, so those alone are searched: their posting lists are
  // short, where a common stem's would be read for each article linked.
  struct QueryStem {
    const std::string* name;
    double weight;
    std::uint32_t stem;
  };
  std::vector<QueryStem> query;
  const double rare = rare_weight();
  for (const LinkedStem stem : signatures_.stems(signatures_.signature(did))) {
    if (signatures_.idf(stem.stem) >= rare) {
      query.push_back({&signatures_.stem_name(stem.stem), signatures_.weight(stem), stem.stem});
    }
  }
  if (query.size() < kSharedRareStems) return {};
  // In stem order first, so that stems of equal weight are chosen alike
  // whatever their numbers.
  std::sort(query.begin(), query.end(),
            [](const QueryStem& a, const QueryStem& b) { return *a.name < *b.name; });
  std::sort(query.begin(), query.end(),
            [](const QueryStem& a, const QueryStem& b) { return a.weight > b.weight; });
  if (query.size() > kQueryStems) query.resize(kQueryStems);
  // The query's best kStoryCandidates + 1 matches are its candidates (one
  // is the article itself). Linking a new index ranks them in memory as a
  // search would, from posting lists each read once, rather than search
  // for each article.
  std::vector<Xapian::docid> candidates;
  if (ranker_) {
    std::vector<std::uint32_t> numbers;
    for (const QueryStem& entry : query) numbers.push_back(entry.stem);
    candidates = ranker_->best_matches(numbers, kStoryCandidates + 1);
  } else {
    std::vector<Xapian::Query> terms;
    for (const QueryStem& entry : query) terms.emplace_back(*entry.name);
    Xapian::Enquire enquire(database());
    enquire.set_query(Xapian::Query(Xapian::Query::OP_OR, terms.begin(), terms.end()));
    const Xapian::MSet mset = enquire.get_mset(0, kStoryCandidates + 1);
    candidates.assign(mset.begin(), mset.end());
  }
  std::vector<Xapian::docid> found;
  const Signature& a = signatures_.signature(did);
  for (Xapian::docid other : candidates) {
    if (other == did) continue;
    // Most candidates of a dated article are of other days: their date
    // alone is read to pass them over.
    const int day = signatures_.day(other);
    double least = kStorySimilarity;
    if (a.day != Signature::kNoDate && day != Signature::kNoDate) {
      if (std::abs(a.day - day) > kStoryDays) continue;
      least = kDatedStorySimilarity;
    }
    if (same_story(a, signatures_.signature(other), least)) found.push_back(other);
  }
  return found;
}

}  // namespace quarry::detail
