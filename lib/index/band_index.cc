#include "lib/index/band_index.h"

namespace quarry::detail {

BandIndex::BandIndex(const std::vector<std::pair<Xapian::docid, const MinHash*>>& sketches) {
  std::vector<Entry> band;
  band.reserve(sketches.size());
  for (std::size_t number = 0; number < kBands; ++number) {
    band.clear();
    for (const auto& [did, sketch] : sketches) band.push_back({band_key(*sketch, number), did});
    std::sort(band.begin(), band.end());
    // The band's number leads its keys: the entries stay sorted.
    for (std::size_t i = 0; i < band.size(); ++i) {
      const bool same_as_previous = i > 0 && band[i - 1].key == band[i].key;
      const bool same_as_next = i + 1 < band.size() && band[i + 1].key == band[i].key;
      if (same_as_previous || same_as_next) entries_.push_back(band[i]);
    }
  }
  entries_.shrink_to_fit();
}

}  // namespace quarry::detail
