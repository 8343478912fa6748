// Free words scored with BM25 faster than Xapian's matcher scores them.
//
// Xapian reads each candidate's length from the index and scores every
// candidate of every word. For a bag of free words (the common query),
// Bm25WordsSource reads lengths from a table held in memory and prunes as
// Lucene and PISA do (max-score): once the matcher's worst kept hit outweighs
// the rarer words' best possible score, only articles holding a frequent
// word are looked at. Scores are Xapian's BM25Weight's, term for term.
#ifndef QUARRY_LIB_SEARCH_BM25_SOURCE_H_
#define QUARRY_LIB_SEARCH_BM25_SOURCE_H_

#include <xapian.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quarry/search/ranking.h"

namespace quarry::detail {

// BM25Weight's parameters that a word's weight depends on here. k3 scales
// a word by its frequency in the query, which is 1 for every word a source
// takes: it leaves the weight as it is.
struct Bm25Parameters {
  double k1;
  double b;
  double min_normlen;

  bool operator==(const Bm25Parameters&) const = default;
};

// BM25's parameters when `ranking` is a BM25 this source computes exactly
// as Xapian's BM25Weight (no k2 part); nothing otherwise.
std::optional<Bm25Parameters> bm25_parameters(const RankingConfig& ranking);

// Every document's length, for one database, read once: a batch or a
// prompt scores hundreds of thousands of them per query. Lengths rather
// than what BM25 makes of them, which moves with the average length at
// each commit: the table stays true as articles are added (those added
// after it was read are read from the index), until one is replaced in
// place (see kReplacedKey).
class LengthNorms {
 public:
  LengthNorms(const Xapian::Database& db, const Bm25Parameters& parameters);
  const Bm25Parameters& parameters() const { return parameters_; }
  // Nothing for a document added after the table was read.
  std::optional<Xapian::termcount> operator[](Xapian::docid did) const {
    if (did >= lengths_.size() || lengths_[did] == kNone) return std::nullopt;
    return lengths_[did];
  }

 private:
  static constexpr Xapian::termcount kNone = static_cast<Xapian::termcount>(-1);
  Bm25Parameters parameters_;
  std::vector<Xapian::termcount> lengths_;  // kNone where no document is
};

// `query` with its bag of plain words (an OR of terms only, or one term, at
// its top or under a filter or a NOT) scored by one Bm25WordsSource. Other
// queries, and those mixing words with phrases, synonyms, wildcards or
// weighted parts, are left to Xapian.
// The query must then be run on one local database (a posting source does
// not travel to a remote one), the one `norms` was read from; without them,
// lengths are read from the database.
Xapian::Query with_bm25_sources(const Xapian::Query& query, const Bm25Parameters& parameters,
                                std::shared_ptr<const LengthNorms> norms);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_BM25_SOURCE_H_
