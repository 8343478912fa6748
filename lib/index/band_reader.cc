#include "lib/index/band_reader.h"

#include <utility>
#include <vector>

#include "lib/index/schema.h"

namespace quarry::detail {
namespace {

// Every article's sketch, in document order.
std::vector<std::pair<Xapian::docid, MinHash>> read_sketches(const Xapian::Database& all) {
  std::vector<std::pair<Xapian::docid, MinHash>> sketches;
  MinHash sketch;
  for (auto it = all.valuestream_begin(kMinHashSlot); it != all.valuestream_end(kMinHashSlot);
       ++it) {
    if (decode_min_hash(*it, &sketch)) sketches.emplace_back(it.get_docid(), sketch);
  }
  return sketches;
}

std::vector<std::pair<Xapian::docid, const MinHash*>> pointers_to(
    const std::vector<std::pair<Xapian::docid, MinHash>>& sketches) {
  std::vector<std::pair<Xapian::docid, const MinHash*>> pointers;
  pointers.reserve(sketches.size());
  for (const auto& [did, read] : sketches) pointers.emplace_back(did, &read);
  return pointers;
}

}  // namespace

std::unique_ptr<BandIndex> read_every_band(const Xapian::Database& all) {
  return std::make_unique<BandIndex>(BandIndex::every_band(pointers_to(read_sketches(all))));
}

std::unique_ptr<BandIndex> read_bands_among(const Xapian::Database& all,
                                            const std::unordered_set<std::uint64_t>& wanted,
                                            std::unordered_map<Xapian::docid, MinHash>* sketches) {
  std::vector<std::pair<std::uint64_t, Xapian::docid>> bands;
  MinHash sketch;
  for (auto it = all.valuestream_begin(kMinHashSlot); it != all.valuestream_end(kMinHashSlot);
       ++it) {
    if (!decode_min_hash(*it, &sketch)) continue;
    bool kept = false;
    for (std::uint64_t key : band_keys(sketch)) {
      if (!wanted.count(key)) continue;
      bands.emplace_back(key, it.get_docid());
      kept = true;
    }
    if (kept) sketches->emplace(it.get_docid(), sketch);
  }
  return std::make_unique<BandIndex>(BandIndex::of_bands(std::move(bands)));
}

}  // namespace quarry::detail
