// What story linking reads of each article: its id, day, MinHash sketch,
// the stems of its story vector weighed by tf-idf, and the story keys it
// was stored with. Read once per article and kept for the whole link.
#ifndef QUARRY_LIB_INDEX_SIGNATURE_TABLE_H_
#define QUARRY_LIB_INDEX_SIGNATURE_TABLE_H_

#include <xapian.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lib/index/story_keys.h"
#include "lib/index/story_signature.h"

namespace quarry::detail {

// An article's stem as the table numbers it (see SignatureTable), and how
// often the article holds it: a few bytes where a string would take
// dozens, for each stem of every article of a new index.
struct LinkedStem {
  std::uint32_t stem;
  std::uint32_t count;
};

struct Signature {
  std::string id;
  int day = kNoDate;  // days since 1970
  bool has_sketch = false;
  MinHash sketch{};
  // The stems weighed (see SignatureTable::weight), in number order, and
  // the vector's length.
  std::vector<LinkedStem> stems;
  double norm = 0;
  // The story key and duplicate key it was stored with; null
  // when it has none, as most articles, and every one of a new index.
  std::unique_ptr<StoryKeys> stored;

  const StoryKeys& stored_keys() const {
    static const StoryKeys none;
    return stored ? *stored : none;
  }
  void store(std::size_t which, const std::string& value) {
    if (value.empty()) return;
    if (!stored) stored = std::make_unique<StoryKeys>();
    (*stored)[which] = value;
  }

  static constexpr int kNoDate = -1;
};

// The signatures of the articles of `all` (one database, or shards searched
// as one), read as they are asked for, or all at once. Numbers each stem
// met and keeps its document frequency and idf, ln(1 + max(N,
// kIdfArticles) / df). Not thread-safe. Throws Xapian::Error.
class SignatureTable {
 public:
  explicit SignatureTable(Xapian::Database all);

  const Xapian::Database& database() const { return all_; }
  Xapian::doccount articles() const { return articles_; }

  // The article's signature, read on first use.
  const Signature& signature(Xapian::docid did);
  // Reads every article's signature, by value streams in document order
  // rather than each document's values through the B-tree.
  void read_all();
  // The sketches of the articles read so far.
  std::vector<std::pair<Xapian::docid, const MinHash*>> sketches() const;

  // Sublinear tf (a story repeats its names, a copy its whole text) times
  // idf.
  double weight(const LinkedStem& stem) const { return tf_weight_[stem.count] * idf_[stem.stem]; }
  double idf(std::uint32_t stem) const { return idf_[stem]; }
  Xapian::doccount df(std::uint32_t stem) const { return df_[stem]; }
  const std::string& stem_name(std::uint32_t stem) const { return stems_[stem]; }

 private:
  std::uint32_t stem_number(const std::string& stem);
  void weigh(const std::vector<StemCount>& stems, Signature* s);

  Xapian::Database all_;
  Xapian::doccount articles_ = 0;
  std::unordered_map<Xapian::docid, Signature> signatures_;
  // Each stem met, by its number, and its idf.
  std::unordered_map<std::string, std::uint32_t> stem_numbers_;
  std::vector<std::string> stems_;
  std::vector<double> idf_;
  std::vector<Xapian::doccount> df_;
  // 1 + ln(tf) for each count a signature stores (at most 255).
  std::array<double, 256> tf_weight_{};
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_SIGNATURE_TABLE_H_
