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
// often the article holds it (at most 255, as stored).
struct LinkedStem {
  std::uint32_t stem;
  std::uint32_t count;
};

// Where an article's stems lie in its table's arena (see SignatureTable).
struct StemRun {
  std::size_t first = 0;
  std::uint8_t size = 0;
};

struct Signature {
  std::string id;
  int day = kNoDate;  // days since 1970
  bool has_sketch = false;
  MinHash sketch{};
  // The stems weighed (see SignatureTable::weight), in number order
  // (SignatureTable::stems), and the vector's length.
  StemRun stems;
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

  // The article's signature, read on first use. The reference lasts as
  // long as the table.
  const Signature& signature(Xapian::docid did);
  // The article's id and stored keys (Signature::id, stored_keys()), from
  // its signature when read, else from those values alone: the members of
  // a group an article joins need no more. References last as long as the
  // table.
  const std::string& id(Xapian::docid did);
  const StoryKeys& stored_keys(Xapian::docid did);
  // The article's day (Signature::day), from its signature when read, else
  // from its date alone: one value, where a signature is six, each a
  // lookup of its own in Xapian's tables.
  int day(Xapian::docid did);
  // The stems of `s`, one of this table's signatures, in number order.
  class Stems {
   public:
    class Iterator {
     public:
      Iterator(const SignatureTable* table, std::size_t at) : table_(table), at_(at) {}
      LinkedStem operator*() const {
        return {table_->stem_numbers_of_[at_], table_->stem_counts_of_[at_]};
      }
      Iterator& operator++() {
        ++at_;
        return *this;
      }
      bool operator==(const Iterator& other) const { return at_ == other.at_; }

     private:
      const SignatureTable* table_;
      std::size_t at_;
    };
    Iterator begin() const { return {table_, run_.first}; }
    Iterator end() const { return {table_, run_.first + run_.size}; }

   private:
    friend class SignatureTable;
    Stems(const SignatureTable* table, StemRun run) : table_(table), run_(run) {}
    const SignatureTable* table_;
    StemRun run_;
  };
  Stems stems(const Signature& s) const { return {this, s.stems}; }
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
  // A new index's every article is read: each signature takes a slot in
  // chunks that never move (references to them last), found by docid, and
  // its stems a run of the two arrays below, rather than a hash node and a
  // vector each. At a million articles that is the difference between
  // fitting in a gigabyte and not.
  Signature* find(Xapian::docid did);
  Signature& add(Xapian::docid did);
  Signature& at(std::size_t slot) { return chunks_[slot / kChunk][slot % kChunk]; }
  static constexpr std::size_t kChunk = 4096;
  std::vector<std::unique_ptr<Signature[]>> chunks_;
  std::size_t slots_ = 0;
  std::vector<std::uint32_t> slot_of_;  // by docid; kNoSlot when not read
  static constexpr std::uint32_t kNoSlot = static_cast<std::uint32_t>(-1);
  // Ids and keys of articles whose signature is not read (see id()).
  struct Keys {
    std::string id;
    StoryKeys stored;
  };
  const Keys& keys(Xapian::docid did);
  std::unordered_map<Xapian::docid, Keys> keys_;
  std::vector<std::uint32_t> stem_numbers_of_;
  std::vector<std::uint8_t> stem_counts_of_;
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
