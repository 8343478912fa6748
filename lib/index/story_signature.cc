#include "lib/index/story_signature.h"

#include <xxhash.h>

#include <algorithm>
#include <cstdio>
#include <limits>

#include "lib/index/schema.h"

namespace quarry::detail {
namespace {

// splitmix64's finalizer: a cheap, well-mixed hash of a 64-bit value,
// one per MinHash function (each seeded apart).
std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

std::uint64_t seed(std::size_t function) { return mix(0x9e3779b97f4a7c15ULL * (function + 1)); }

// Snowball's English stop list: words every article holds, which say
// nothing of what it is about.
constexpr const char* kEnglishFunctionWords[] = {
    "i",       "me",      "my",      "myself",   "we",         "our",    "ours",    "ourselves",
    "you",     "your",    "yours",   "yourself", "yourselves", "he",     "him",     "his",
    "himself", "she",     "her",     "hers",     "herself",    "it",     "its",     "itself",
    "they",    "them",    "their",   "theirs",   "themselves", "what",   "which",   "who",
    "whom",    "this",    "that",    "these",    "those",      "am",     "is",      "are",
    "was",     "were",    "be",      "been",     "being",      "have",   "has",     "had",
    "having",  "do",      "does",    "did",      "doing",      "a",      "an",      "the",
    "and",     "but",     "if",      "or",       "because",    "as",     "until",   "while",
    "of",      "at",      "by",      "for",      "with",       "about",  "against", "between",
    "into",    "through", "during",  "before",   "after",      "above",  "below",   "to",
    "from",    "up",      "down",    "in",       "out",        "on",     "off",     "over",
    "under",   "again",   "further", "then",     "once",       "here",   "there",   "when",
    "where",   "why",     "how",     "all",      "any",        "both",   "each",    "few",
    "more",    "most",    "other",   "some",     "such",       "no",     "nor",     "not",
    "only",    "own",     "same",    "so",       "than",       "too",    "very",    "s",
    "t",       "can",     "will",    "just",     "don",        "should", "now"};

}  // namespace

const std::unordered_set<std::string>& function_terms(const Analyzer& analyzer) {
  static const std::unordered_set<std::string> none;
  if (analyzer.config().language != "english") return none;
  static const std::unordered_set<std::string> english = [&] {
    std::unordered_set<std::string> terms;
    for (const char* word : kEnglishFunctionWords) terms.insert(kStemPrefix + analyzer.stem(word));
    return terms;
  }();
  return english;
}

StorySignatureBuilder::StorySignatureBuilder(const Analyzer& analyzer)
    : function_terms_(function_terms(analyzer)) {}

void StorySignatureBuilder::add(const std::string& term) {
  const std::uint64_t hash = XXH3_64bits(term.data(), term.size());
  hashes_.push_back(hash);
  const auto [it, added] =
      count_of_hash_.try_emplace(hash, static_cast<std::uint32_t>(counts_.size()));
  if (added) counts_.emplace_back(term, 0);
  ++counts_[it->second].second;
}

void StorySignatureBuilder::add_to(Xapian::Document& doc) const {
  if (hashes_.empty()) return;
  doc.add_value(kMinHashSlot, encode_min_hash(min_hash(hashes_)));
  doc.add_value(kStoryStemsSlot, encode_stem_counts(top_stems(counts_, function_terms_)));
}

MinHash min_hash(const std::vector<std::uint64_t>& term_hashes) {
  MinHash sketch;
  sketch.fill(std::numeric_limits<std::uint32_t>::max());
  const std::size_t shingles =
      term_hashes.size() < kShingleWords ? 1 : term_hashes.size() - kShingleWords + 1;
  std::array<std::uint64_t, kMinHashes> seeds;
  for (std::size_t f = 0; f < kMinHashes; ++f) seeds[f] = seed(f);
  for (std::size_t i = 0; i < shingles; ++i) {
    const std::size_t words = std::min(kShingleWords, term_hashes.size() - i);
    const std::uint64_t shingle =
        XXH3_64bits(term_hashes.data() + i, words * sizeof(std::uint64_t));
    for (std::size_t f = 0; f < kMinHashes; ++f) {
      sketch[f] = std::min(sketch[f], static_cast<std::uint32_t>(mix(shingle ^ seeds[f]) >> 32));
    }
  }
  return sketch;
}

double resemblance(const MinHash& a, const MinHash& b) {
  std::size_t same = 0;
  for (std::size_t f = 0; f < kMinHashes; ++f) same += a[f] == b[f];
  return static_cast<double>(same) / kMinHashes;
}

namespace {

// 48 bits of each band's hash keep chance collisions rare among millions
// of articles.
std::uint64_t band_hash(const MinHash& sketch, std::size_t band) {
  return XXH3_64bits(sketch.data() + band * kBandRows, kBandRows * sizeof(std::uint32_t)) >> 16;
}

}  // namespace

std::uint64_t band_key(const MinHash& sketch, std::size_t band) {
  return static_cast<std::uint64_t>(band) << 48 | band_hash(sketch, band);
}

std::array<std::uint64_t, kBands> band_keys(const MinHash& sketch) {
  std::array<std::uint64_t, kBands> keys;
  for (std::size_t band = 0; band < kBands; ++band) keys[band] = band_key(sketch, band);
  return keys;
}

std::string encode_min_hash(const MinHash& sketch) {
  std::string value;
  for (std::uint32_t hash : sketch) {
    for (int shift = 0; shift < 32; shift += 8) value += static_cast<char>((hash >> shift) & 0xff);
  }
  return value;
}

bool decode_min_hash(std::string_view value, MinHash* sketch) {
  if (value.size() != kMinHashes * 4) return false;
  for (std::size_t f = 0; f < kMinHashes; ++f) {
    std::uint32_t hash = 0;
    for (int byte = 0; byte < 4; ++byte) {
      hash |= static_cast<std::uint32_t>(static_cast<unsigned char>(value[f * 4 + byte]))
              << (8 * byte);
    }
    (*sketch)[f] = hash;
  }
  return true;
}

// Each stem: one byte of length, the stem, one byte of count (capped).
std::string encode_stem_counts(const std::vector<StemCount>& stems) {
  std::string value;
  for (const auto& [stem, count] : stems) {
    if (stem.size() > 255) continue;
    value += static_cast<char>(stem.size());
    value += stem;
    value += static_cast<char>(std::min<std::uint32_t>(count, 255));
  }
  return value;
}

std::vector<StemCount> decode_stem_counts(std::string_view value) {
  std::vector<StemCount> stems;
  std::size_t at = 0;
  while (at < value.size()) {
    const std::size_t size = static_cast<unsigned char>(value[at]);
    if (at + 1 + size + 1 > value.size()) return {};
    stems.emplace_back(std::string(value.substr(at + 1, size)),
                       static_cast<unsigned char>(value[at + 1 + size]));
    at += size + 2;
  }
  return stems;
}

std::vector<StemCount> top_stems(const std::vector<StemCount>& counts,
                                 const std::unordered_set<std::string>& left_out) {
  // Ordered by reference, so that only the stems kept are copied.
  std::vector<const StemCount*> kept;
  for (const StemCount& entry : counts) {
    if (!left_out.count(entry.first)) kept.push_back(&entry);
  }
  const auto order = [](const StemCount* a, const StemCount* b) {
    return a->second != b->second ? a->second > b->second : a->first < b->first;
  };
  if (kept.size() > kStoryStems) {
    std::partial_sort(kept.begin(), kept.begin() + kStoryStems, kept.end(), order);
    kept.resize(kStoryStems);
  } else {
    std::sort(kept.begin(), kept.end(), order);
  }
  std::vector<StemCount> stems;
  stems.reserve(kept.size());
  for (const StemCount* entry : kept) stems.push_back(*entry);
  return stems;
}

}  // namespace quarry::detail
