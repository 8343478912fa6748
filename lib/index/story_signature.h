// What each article stores so that its near-duplicates and the other
// reports of its story can be found later, without reading its text again
// (see story_linker.h).
//
// Near-duplicates: a MinHash sketch of the article's shingles (runs of
// kShingleWords stems), whose matching share estimates the shingle sets'
// Jaccard similarity, and locality-sensitive hashing of the sketch in
// bands of two hashes: two articles whose shingles are half shared share a
// band with odds of 99%. The bands are not stored: the linker hashes them
// from the stored sketches, where sixteen terms an article would make the
// index a sixth larger and its build dearer.
//
// Same story: the article's most frequent stems with their counts, but
// for the language's function words (Snowball's English stop list; other
// languages keep them all), which the linker weighs by the index's idf at
// link time (the idf a new article would see at write time is only that
// of its own part in a parallel build).
#ifndef QUARRY_LIB_INDEX_STORY_SIGNATURE_H_
#define QUARRY_LIB_INDEX_STORY_SIGNATURE_H_

#include <xapian.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "quarry/text/analyzer.h"

namespace quarry::detail {

inline constexpr std::size_t kShingleWords = 4;
inline constexpr std::size_t kMinHashes = 32;
inline constexpr std::size_t kBandRows = 2;
inline constexpr std::size_t kBands = kMinHashes / kBandRows;
// Stems kept for story similarity: enough that the content words survive
// the function words, which the idf weighs down to nothing.
inline constexpr std::size_t kStoryStems = 48;

using MinHash = std::array<std::uint32_t, kMinHashes>;

// A stem and how often the article holds it.
using StemCount = std::pair<std::string, std::uint32_t>;

// Collects an article's indexed terms, in order, and adds its signature to
// its document.
class StorySignatureBuilder {
 public:
  // `analyzer` stems the function words left out; it must outlive this.
  explicit StorySignatureBuilder(const Analyzer& analyzer);
  void add(const std::string& term);
  // Adds the sketch and stem values; nothing for an article with no words.
  void add_to(Xapian::Document& doc) const;

 private:
  const std::unordered_set<std::string>& function_terms_;
  std::vector<std::uint64_t> hashes_;
  // Each distinct term with its count, and where it is by its hash: the
  // hash is computed for the sketch anyway, where hashing the term again
  // for a map keyed by it would cost as much as the sketch.
  std::vector<StemCount> counts_;
  std::unordered_map<std::uint64_t, std::uint32_t> count_of_hash_;
};

// The sketch of a sequence of term hashes (see StorySignatureBuilder).
MinHash min_hash(const std::vector<std::uint64_t>& term_hashes);

// The estimated Jaccard similarity of two sketches' shingle sets.
double resemblance(const MinHash& a, const MinHash& b);

// The bands of a sketch as numbers: two sketches share a band exactly
// when they share a number.
std::array<std::uint64_t, kBands> band_keys(const MinHash& sketch);
std::uint64_t band_key(const MinHash& sketch, std::size_t band);

// Value encodings; decoding an empty or malformed value gives nothing
// (false, or no stems).
std::string encode_min_hash(const MinHash& sketch);
bool decode_min_hash(std::string_view value, MinHash* sketch);
std::string encode_stem_counts(const std::vector<StemCount>& stems);
std::vector<StemCount> decode_stem_counts(std::string_view value);

// The kStoryStems most frequent of `counts` but `left_out`, most frequent
// first (ties by stem, so that the choice does not depend on hashing).
std::vector<StemCount> top_stems(const std::vector<StemCount>& counts,
                                 const std::unordered_set<std::string>& left_out = {});

// The indexed terms of the analyzer's language's function words (empty but
// for English).
const std::unordered_set<std::string>& function_terms(const Analyzer& analyzer);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_STORY_SIGNATURE_H_
