#include "lib/search/bm25_source.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace quarry::detail {
namespace {

constexpr Xapian::docid kPastEnd = std::numeric_limits<Xapian::docid>::max();

// Past this many words a query is rare enough, and the per-candidate walk
// over the words long enough, that Xapian's own matcher does as well.
constexpr std::size_t kMaxWords = 32;

// One word of the bag: its postings and what BM25 makes of them.
struct Word {
  Xapian::PostingIterator postings;
  Xapian::PostingIterator end;
  Xapian::docid at = 0;   // the current posting's document, kPastEnd when done
  double termweight = 0;  // BM25Weight's termweight, (k1 + 1) included
  double max_weight = 0;  // BM25Weight::get_maxpart()

  void settle() { at = postings == end ? kPastEnd : *postings; }
  void advance() {
    if (at == kPastEnd) return;
    ++postings;
    settle();
  }
  void skip_to(Xapian::docid did) {
    if (at >= did) return;
    postings.skip_to(did);
    settle();
  }
};

class Bm25WordsSource : public Xapian::PostingSource {
 public:
  Bm25WordsSource(std::vector<std::string> terms, const Bm25Parameters& parameters,
                  std::shared_ptr<const LengthNorms> norms)
      : terms_(std::move(terms)), parameters_(parameters), norms_(std::move(norms)) {}

  Bm25WordsSource* clone() const override {
    return new Bm25WordsSource(terms_, parameters_, norms_);
  }

  std::string name() const override { return "quarry::Bm25WordsSource"; }

  void init(const Xapian::Database& db) override;

  Xapian::doccount get_termfreq_min() const override { return termfreq_min_; }
  Xapian::doccount get_termfreq_est() const override { return termfreq_est_; }
  Xapian::doccount get_termfreq_max() const override { return termfreq_max_; }

  void next(double min_weight) override {
    if (at_end()) return;
    find(started_ ? current_ + 1 : 1, min_weight);
  }

  void skip_to(Xapian::docid did, double min_weight) override {
    if (started_ && current_ >= did) return;
    find(did, min_weight);
  }

  bool at_end() const override { return current_ == kPastEnd; }
  Xapian::docid get_docid() const override { return current_; }
  double get_weight() const override { return weight_; }

  std::string get_description() const override {
    return "Bm25WordsSource(" + std::to_string(terms_.size()) + " words)";
  }

 private:
  std::optional<double> known_norm(Xapian::docid did) const;
  double weight_at(Xapian::docid candidate, double norm) const;
  void pass(Xapian::docid candidate);
  void find(Xapian::docid from, double min_weight);

  std::vector<std::string> terms_;
  Bm25Parameters parameters_;
  std::shared_ptr<const LengthNorms> norms_;

  Xapian::Database db_;
  double len_factor_ = 0;
  double least_norm_ = 0;  // the norm of the shortest document
  // Sorted by max_weight, least first; bound_[i] is the sum of the first
  // i + 1 words' max_weight.
  std::vector<Word> words_;
  std::vector<double> bound_;
  Xapian::doccount termfreq_min_ = 0, termfreq_est_ = 0, termfreq_max_ = 0;
  bool started_ = false;
  Xapian::docid current_ = 0;
  double weight_ = 0;
};

// BM25Weight's len_factor: 1 / the average length, or 0 when lengths do
// not count.
double len_factor(const Xapian::Database& db, const Bm25Parameters& p) {
  const double average_length = db.get_avlength();
  if (p.b == 0 || p.k1 == 0 || average_length == 0) return 0;
  return 1 / average_length;
}

// What BM25Weight::get_sumpart() adds to the wdf below the line for a
// document of that length.
double length_norm(Xapian::termcount length, double len_factor, const Bm25Parameters& p) {
  const double normlen = std::max(length * len_factor, p.min_normlen);
  return p.k1 * (normlen * p.b + (1 - p.b));
}

// Mirrors Xapian 1.4's BM25Weight::init() and get_maxpart() with a wqf of
// 1, no relevance set and no k2, so that scores agree to the last bit.
void Bm25WordsSource::init(const Xapian::Database& db) {
  db_ = db;
  started_ = false;
  current_ = 0;
  weight_ = 0;
  const Bm25Parameters& p = parameters_;
  const Xapian::doccount size = db.get_doccount();
  len_factor_ = len_factor(db, p);
  const Xapian::termcount shortest = db.get_doclength_lower_bound();
  least_norm_ = length_norm(shortest, len_factor_, p);

  words_.clear();
  double estimate = 0;
  termfreq_min_ = termfreq_max_ = 0;
  for (const std::string& term : terms_) {
    Word word;
    const Xapian::doccount termfreq = db.get_termfreq(term);
    double tw = (size - termfreq + 0.5) / (termfreq + 0.5);
    if (tw < 2) tw = tw * 0.5 + 1;
    word.termweight = std::log(tw) * (p.k1 + 1);

    const double wdf_max = db.get_wdf_upper_bound(term);
    double denom = p.k1;
    if (p.k1 != 0 && p.b != 0) {
      const double normlen_lb =
          std::max(std::max<double>(wdf_max, shortest) * len_factor_, p.min_normlen);
      denom *= normlen_lb * p.b + (1 - p.b);
    }
    denom += wdf_max;
    word.max_weight = denom > 0 ? word.termweight * (wdf_max / denom) : 0;

    word.postings = db.postlist_begin(term);
    word.end = db.postlist_end(term);
    word.at = 0;
    words_.push_back(std::move(word));

    // As Xapian estimates an OR: each word adds the articles the others
    // are not expected to hold.
    termfreq_min_ = std::max(termfreq_min_, termfreq);
    termfreq_max_ = std::min<Xapian::doccount>(size, termfreq_max_ + termfreq);
    estimate = size ? estimate + termfreq - estimate * termfreq / size : 0;
  }
  termfreq_est_ = static_cast<Xapian::doccount>(estimate + 0.5);
  termfreq_est_ = std::clamp(termfreq_est_, termfreq_min_, termfreq_max_);

  std::sort(words_.begin(), words_.end(),
            [](const Word& a, const Word& b) { return a.max_weight < b.max_weight; });
  bound_.clear();
  double sum = 0;
  for (const Word& word : words_) bound_.push_back(sum += word.max_weight);
  set_maxweight(sum);
  for (Word& word : words_) word.settle();
}

// The candidate's norm when the table holds it.
std::optional<double> Bm25WordsSource::known_norm(Xapian::docid did) const {
  if (!norms_) return std::nullopt;
  const std::optional<Xapian::termcount> length = (*norms_)[did];
  if (!length) return std::nullopt;
  return length_norm(*length, len_factor_, parameters_);
}

// A word's weight in a document of that norm, as BM25Weight::get_sumpart().
double word_weight(const Word& word, double norm) {
  const double wdf = word.postings.get_wdf();
  return word.termweight * (wdf / (norm + wdf));
}

// The candidate's weight from the words positioned on it.
double Bm25WordsSource::weight_at(Xapian::docid candidate, double norm) const {
  double weight = 0;
  for (std::size_t i = words_.size(); i-- > 0;) {
    if (words_[i].at == candidate) weight += word_weight(words_[i], norm);
  }
  return weight;
}

void Bm25WordsSource::pass(Xapian::docid candidate) {
  for (Word& word : words_) {
    if (word.at == candidate) word.advance();
  }
}

// Moves to the first article from `from` on that can weigh min_weight.
// Words whose best scores together fall short of it (the first `optional`
// of words_) cannot make an article qualify on their own: candidates come
// from the others, and the short ones are only looked up in a candidate
// that may still reach min_weight. They may therefore lag behind.
void Bm25WordsSource::find(Xapian::docid from, double min_weight) {
  started_ = true;
  const std::size_t n = words_.size();
  std::size_t optional = 0;
  while (optional < n && bound_[optional] < min_weight) ++optional;
  for (std::size_t i = optional; i < n; ++i) words_[i].skip_to(from);
  for (;;) {
    Xapian::docid candidate = kPastEnd;
    for (std::size_t i = optional; i < n; ++i) candidate = std::min(candidate, words_[i].at);
    if (candidate == kPastEnd) {
      current_ = kPastEnd;
      return;
    }
    // Without the table a length costs a walk along the index's list of
    // lengths: first weigh the candidate as if it were the shortest
    // document, which no document outweighs, and read its length only if
    // that reaches min_weight.
    const std::optional<double> known = known_norm(candidate);
    const double norm = known.value_or(least_norm_);
    double weight = 0;
    for (std::size_t i = n; i-- > optional;) {
      if (words_[i].at == candidate) weight += word_weight(words_[i], norm);
    }
    for (std::size_t i = optional; i-- > 0;) {
      if (weight + bound_[i] < min_weight) break;
      words_[i].skip_to(candidate);
      if (words_[i].at == candidate) weight += word_weight(words_[i], norm);
    }
    if (weight >= min_weight && !known) {
      weight =
          weight_at(candidate, length_norm(db_.get_doclength(candidate), len_factor_, parameters_));
    }
    if (weight >= min_weight) {
      current_ = candidate;
      weight_ = weight;
      return;
    }
    pass(candidate);
  }
}

// A bag of plain words: a term, or an OR of terms only. Mixed with other
// queries (a phrase, a synonym), the words are left to Xapian with the
// rest: beside other postlists the source would be pruned by Xapian's
// matcher, whose top hits for such mixed queries were seen to differ from
// those of ranking every match.
Xapian::Query bag_of_words(const Xapian::Query& query, const Bm25Parameters& parameters,
                           const std::shared_ptr<const LengthNorms>& norms);

Xapian::Query source_for(std::vector<std::string> terms, const Bm25Parameters& parameters,
                         const std::shared_ptr<const LengthNorms>& norms) {
  // release() hands the source to Xapian's reference counting: the query
  // owns it from here, which is how Xapian takes posting sources.
  auto* source = new Bm25WordsSource(std::move(terms), parameters, norms);
  return Xapian::Query(source->release());
}

Xapian::Query rewrite(const Xapian::Query& query, const Bm25Parameters& parameters,
                      const std::shared_ptr<const LengthNorms>& norms) {
  switch (query.get_type()) {
    case Xapian::Query::LEAF_TERM:
    case Xapian::Query::OP_OR:
      return bag_of_words(query, parameters, norms);
    case Xapian::Query::OP_FILTER:
    case Xapian::Query::OP_AND_NOT: {
      // Only the first part is weighted.
      std::vector<Xapian::Query> parts{rewrite(query.get_subquery(0), parameters, norms)};
      for (std::size_t i = 1; i < query.get_num_subqueries(); ++i) {
        parts.push_back(query.get_subquery(i));
      }
      return Xapian::Query(query.get_type(), parts.begin(), parts.end());
    }
    default:
      return query;
  }
}

Xapian::Query bag_of_words(const Xapian::Query& query, const Bm25Parameters& parameters,
                           const std::shared_ptr<const LengthNorms>& norms) {
  if (query.get_type() == Xapian::Query::LEAF_TERM) {
    return source_for({*query.get_terms_begin()}, parameters, norms);
  }
  std::vector<std::string> terms;
  for (std::size_t i = 0; i < query.get_num_subqueries(); ++i) {
    const Xapian::Query part = query.get_subquery(i);
    if (part.get_type() != Xapian::Query::LEAF_TERM) return query;
    terms.push_back(*part.get_terms_begin());
  }
  // The same word twice would be weighed with a query frequency of 2 by
  // Xapian; such rare queries are left to it.
  std::vector<std::string> distinct = terms;
  std::sort(distinct.begin(), distinct.end());
  if (terms.empty() || terms.size() > kMaxWords ||
      std::adjacent_find(distinct.begin(), distinct.end()) != distinct.end()) {
    return query;
  }
  return source_for(std::move(terms), parameters, norms);
}

}  // namespace

LengthNorms::LengthNorms(const Xapian::Database& db, const Bm25Parameters& parameters)
    : parameters_(parameters), lengths_(db.get_lastdocid() + 1, kNone) {
  const auto end = db.postlist_end("");
  for (auto it = db.postlist_begin(""); it != end; ++it) {
    if (*it < lengths_.size()) lengths_[*it] = it.get_doclength();
  }
}

std::optional<Bm25Parameters> bm25_parameters(const RankingConfig& ranking) {
  if (ranking.scheme != kBm25Scheme) return std::nullopt;
  const std::map<std::string, double> p = ranking_parameters(ranking);
  if (p.at("k2") != 0) return std::nullopt;
  return Bm25Parameters{p.at("k1"), p.at("b"), p.at("min_normlen")};
}

Xapian::Query with_bm25_sources(const Xapian::Query& query, const Bm25Parameters& parameters,
                                std::shared_ptr<const LengthNorms> norms) {
  return rewrite(query, parameters, norms);
}

}  // namespace quarry::detail
