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
  std::vector<Entry> entries_;
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_BAND_INDEX_H_
