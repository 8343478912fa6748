// Near-duplicate candidates: the articles whose MinHash sketches agree on
// a whole band (see story_signature.h).
#ifndef QUARRY_LIB_INDEX_BAND_INDEX_H_
#define QUARRY_LIB_INDEX_BAND_INDEX_H_

#include <xapian.h>

#include <algorithm>
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
  // Calls `found` with every other article sharing one of the sketch's
  // bands (once for each band shared).
  template <typename Found>
  void for_each_sharing(const MinHash& sketch, Found found) const {
    for (std::uint64_t key : band_keys(sketch)) {
      auto it = std::lower_bound(entries_.begin(), entries_.end(), Entry{key, 0});
      for (; it != entries_.end() && it->key == key; ++it) found(it->did);
    }
  }

 private:
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
