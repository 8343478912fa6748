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

BandIndex BandIndex::every_band(
    const std::vector<std::pair<Xapian::docid, const MinHash*>>& sketches) {
  BandIndex index;
  index.entries_.reserve(sketches.size() * kBands);
  for (const auto& [did, sketch] : sketches) {
    for (std::uint64_t key : band_keys(*sketch)) index.entries_.push_back({key, did});
    index.last_did_ = std::max(index.last_did_, did);
  }
  std::sort(index.entries_.begin(), index.entries_.end());
  return index;
}

BandIndex BandIndex::of_bands(std::vector<std::pair<std::uint64_t, Xapian::docid>> bands) {
  BandIndex index;
  index.entries_.reserve(bands.size());
  for (const auto& [key, did] : bands) {
    index.entries_.push_back({key, did});
    index.last_did_ = std::max(index.last_did_, did);
  }
  std::sort(index.entries_.begin(), index.entries_.end());
  return index;
}

void BandIndex::update(const std::vector<std::pair<Xapian::docid, const MinHash*>>& changed) {
  std::vector<Xapian::docid> replaced;
  for (const auto& entry : changed) {
    if (entry.first <= last_did_) replaced.push_back(entry.first);
  }
  // An article changed in place: its old bands go, one pass over all.
  if (!replaced.empty()) {
    std::sort(replaced.begin(), replaced.end());
    std::erase_if(entries_, [&](const Entry& entry) {
      return std::binary_search(replaced.begin(), replaced.end(), entry.did);
    });
  }
  const std::ptrdiff_t kept = static_cast<std::ptrdiff_t>(entries_.size());
  for (const auto& [did, sketch] : changed) {
    last_did_ = std::max(last_did_, did);
    if (!sketch) continue;
    for (std::uint64_t key : band_keys(*sketch)) entries_.push_back({key, did});
  }
  std::sort(entries_.begin() + kept, entries_.end());
  std::inplace_merge(entries_.begin(), entries_.begin() + kept, entries_.end());
}

}  // namespace quarry::detail
