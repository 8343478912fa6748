// Reading the MinHash sketches stored in an index into a BandIndex, for
// finding near-duplicates (see BandIndex).
#ifndef QUARRY_LIB_INDEX_BAND_READER_H_
#define QUARRY_LIB_INDEX_BAND_READER_H_

#include <xapian.h>

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "lib/index/band_index.h"
#include "lib/index/story_signature.h"

namespace quarry::detail {

// Every band of every article of `all` (BandIndex::every_band). Throws
// Xapian::Error.
std::unique_ptr<BandIndex> read_every_band(const Xapian::Database& all);

// The bands of `all` whose keys are `wanted`, with each article holding
// one; the sketches of those articles go into `sketches`. Every sketch is
// read, but only the bands wanted are kept: sorting every band of a
// million articles took two seconds. Throws Xapian::Error.
std::unique_ptr<BandIndex> read_bands_among(const Xapian::Database& all,
                                            const std::unordered_set<std::uint64_t>& wanted,
                                            std::unordered_map<Xapian::docid, MinHash>* sketches);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_BAND_READER_H_
