// Near-duplicate candidates: the articles whose MinHash sketches agree on
// a whole band (see story_signature.h).
#ifndef QUARRY_LIB_INDEX_BAND_INDEX_H_
#define QUARRY_LIB_INDEX_BAND_INDEX_H_

#include <xapian.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "lib/index/story_signature.h"

namespace quarry::detail {

// Which articles share a band, found in memory from the stored sketches:
// storing each band as a term would make the index a sixth larger.
class BandIndex {
 public:
  // Keeps the bands that two or more of `sketches` share, one band at a
  // time, so that only one band of every article is held at once.
  explicit BandIndex(const std::vector<std::pair<Xapian::docid, const MinHash*>>& sketches);

  // Keeps every band of every sketch, shared or not, so that update() can
  // bring it up to date as articles are added and changed: a live index
  // links each commit's few articles without reading every sketch again.
  // It finds what the shared bands alone find.
  static BandIndex every_band(
      const std::vector<std::pair<Xapian::docid, const MinHash*>>& sketches);
  // Keeps `bands`, each a band's key (band_key) and an article holding it:
  // for an article whose every band's articles are among them,
  // for_each_near finds what an index of every band finds.
  static BandIndex of_bands(std::vector<std::pair<std::uint64_t, Xapian::docid>> bands);
  // Replaces the bands of `changed` (added or changed since, each with its
  // sketch now, or null when it has none) in an index made by every_band.
  // The articles deleted since must be none: the caller makes a new index.
  void update(const std::vector<std::pair<Xapian::docid, const MinHash*>>& changed);
  // Calls `found` with the articles that share one of the sketch of `did`'s
  // bands and are next to `did` in that band's bucket (in document order,
  // at most kNeighbours on either side), and with the bucket's first: its
  // candidates, found once for each band shared, `did` among them. A
  // bucket of a thousand copies of one text costs each of them a few
  // comparisons, not a thousand: linking all of them compares each with the
  // copies indexed just before and after it, which joins them all.
  template <typename Found>
  void for_each_near(const MinHash& sketch, Xapian::docid did, Found found) const {
    for (std::uint64_t key : band_keys(sketch)) {
      const auto first = std::lower_bound(entries_.begin(), entries_.end(), Entry{key, 0});
      if (first == entries_.end() || first->key != key) continue;
      const auto end = std::upper_bound(first, entries_.end(), Entry{key, kLastDocid});
      const auto at = std::lower_bound(first, end, Entry{key, did});
      const auto from = at - first > kNeighbours ? at - kNeighbours : first;
      const auto to = end - at > kNeighbours ? at + kNeighbours + 1 : end;
      if (from != first) found(first->did);
      for (auto it = from; it != to; ++it) found(it->did);
    }
  }

 private:
  static constexpr std::ptrdiff_t kNeighbours = 8;
  static constexpr Xapian::docid kLastDocid = static_cast<Xapian::docid>(-1);

  struct Entry {
    std::uint64_t key;
    Xapian::docid did;
    bool operator<(const Entry& other) const {
      return key != other.key ? key < other.key : did < other.did;
    }
  };
  BandIndex() = default;

  std::vector<Entry> entries_;
  // The highest article in entries_ (every_band's): articles above it are
  // new, with no bands to replace.
  Xapian::docid last_did_ = 0;
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_BAND_INDEX_H_
