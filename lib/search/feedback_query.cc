#include "lib/search/feedback_query.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lib/index/schema.h"

namespace quarry::detail {
namespace {

// A stem found in more than this share of all articles (the, of, said)
// marks no topic, and the index keeps such words. 0.3 ranked best on TIME,
// MED, CRAN and CISI of 0.03, 0.1, 0.3, 0.5 and 1 (bench/eval-time).
constexpr double kMaxArticleShare = 0.3;

struct WeightedTerm {
  std::string term;
  double weight;
};

bool is_body_stem(const std::string& term) {
  return term.size() > 2 && term[0] == kStemPrefix[0] && term[1] != kTitlePrefix[0];
}

// Relevance model 1 (Lavrenko and Croft), estimated as Anserini's RM3 does:
// each top hit's body stems by their share of its words, weighted by the
// hit's share of the top hits' weights (its score to the power `power`),
// summed; the `terms` heaviest that mark a topic.
std::vector<WeightedTerm> relevance_model(const Xapian::Database& db, const Xapian::MSet& first,
                                          unsigned docs, unsigned terms, double power) {
  const Xapian::MSetIterator top_end =
      first.size() > docs ? first[static_cast<Xapian::doccount>(docs)] : first.end();
  // Scores are scaled to the best one first, so that a power of them stays
  // finite.
  const double best = first.begin().get_weight();
  const auto hit_weight = [&](const Xapian::MSetIterator& hit) {
    return best > 0 ? std::pow(std::max(hit.get_weight(), 0.0) / best, power) : 1.0;
  };
  double total_weight = 0;
  for (auto hit = first.begin(); hit != top_end; ++hit) total_weight += hit_weight(hit);
  std::map<std::string, double> model;
  std::vector<std::pair<std::string, double>> words;
  for (auto hit = first.begin(); hit != top_end; ++hit) {
    const double share = hit_weight(hit) / total_weight;
    words.clear();
    double length = 0;
    for (auto term = db.termlist_begin(*hit); term != db.termlist_end(*hit); ++term) {
      if (!is_body_stem(*term)) continue;
      words.emplace_back(*term, term.get_wdf());
      length += term.get_wdf();
    }
    for (const auto& [term, wdf] : words) model[term] += share * wdf / length;
  }
  std::vector<WeightedTerm> ranked;
  ranked.reserve(model.size());
  for (const auto& [term, weight] : model) ranked.push_back({term, weight});
  std::sort(ranked.begin(), ranked.end(), [](const WeightedTerm& a, const WeightedTerm& b) {
    return a.weight > b.weight || (a.weight == b.weight && a.term < b.term);
  });
  const double max_articles = kMaxArticleShare * db.get_doccount();
  std::vector<WeightedTerm> kept;
  for (const WeightedTerm& candidate : ranked) {
    if (kept.size() == terms) break;
    if (db.get_termfreq(candidate.term) <= max_articles) kept.push_back(candidate);
  }
  return kept;
}

// The documents of a sorted list, each matching with no weight: a filter
// that keeps a second pass to the first pass's best matches. Local only:
// it cannot be sent to a remote database.
class DocumentList : public Xapian::PostingSource {
 public:
  explicit DocumentList(std::vector<Xapian::docid> ids) : ids_(std::move(ids)) {}

  DocumentList* clone() const override { return new DocumentList(ids_); }
  void init(const Xapian::Database&) override { at_ = kBeforeFirst; }

  Xapian::doccount get_termfreq_min() const override { return size(); }
  Xapian::doccount get_termfreq_est() const override { return size(); }
  Xapian::doccount get_termfreq_max() const override { return size(); }

  void next(double) override { at_ = at_ == kBeforeFirst ? 0 : at_ + 1; }
  void skip_to(Xapian::docid did, double) override {
    const auto from = ids_.begin() + static_cast<std::ptrdiff_t>(at_ == kBeforeFirst ? 0 : at_);
    at_ = static_cast<std::size_t>(std::lower_bound(from, ids_.end(), did) - ids_.begin());
  }
  bool at_end() const override { return at_ != kBeforeFirst && at_ >= ids_.size(); }
  Xapian::docid get_docid() const override { return ids_[at_]; }

 private:
  static constexpr std::size_t kBeforeFirst = std::numeric_limits<std::size_t>::max();
  Xapian::doccount size() const { return static_cast<Xapian::doccount>(ids_.size()); }

  std::vector<Xapian::docid> ids_;
  std::size_t at_ = kBeforeFirst;
};

// A word's stem in one of an index's languages, weighed by how rare it is
// there (see TermExpander::weighed_stems).
bool is_weighed_stem(const Xapian::Query& query) {
  return query.get_type() == Xapian::Query::OP_SCALE_WEIGHT &&
         query.get_subquery(0).get_type() == Xapian::Query::LEAF_TERM &&
         is_body_stem(*query.get_subquery(0).get_terms_begin());
}

// One word's stems in several languages, at least one of them weighed: an
// OR of terms and weighed stems.
bool is_word_in_languages(const Xapian::Query& query) {
  if (query.get_type() != Xapian::Query::OP_OR) return false;
  bool weighed = false;
  for (std::size_t i = 0; i < query.get_num_subqueries(); ++i) {
    const Xapian::Query part = query.get_subquery(i);
    weighed = weighed || is_weighed_stem(part);
    if (part.get_type() != Xapian::Query::LEAF_TERM && !is_weighed_stem(part)) return false;
  }
  return weighed;
}

// The distinct words of a bag of words that are terms, not weighed stems.
// In an index of a main language and a few stray articles of others, the
// main language's words are terms, and a stem a stray language adds is no
// word more; where several languages hold many articles every stem is
// weighed, and a word's stems cannot be told from other words: none count.
void add_plain_words(const Xapian::Query& query, std::set<std::string>* plain) {
  if (query.get_type() == Xapian::Query::LEAF_TERM) plain->insert(*query.get_terms_begin());
  if (query.get_type() != Xapian::Query::OP_OR) return;
  for (std::size_t i = 0; i < query.get_num_subqueries(); ++i) {
    add_plain_words(query.get_subquery(i), plain);
  }
}

std::size_t plain_words(const Xapian::Query& query) {
  std::set<std::string> plain;
  add_plain_words(query, &plain);
  return plain.size();
}

}  // namespace

bool is_bag_of_words(const Xapian::Query& query) {
  if (query.get_type() == Xapian::Query::LEAF_TERM || is_weighed_stem(query)) return true;
  if (query.get_type() != Xapian::Query::OP_OR) return false;
  for (std::size_t i = 0; i < query.get_num_subqueries(); ++i) {
    const Xapian::Query part = query.get_subquery(i);
    if (part.get_type() != Xapian::Query::LEAF_TERM && !is_weighed_stem(part) &&
        !is_word_in_languages(part)) {
      return false;
    }
  }
  return true;
}

bool feedback_helps(const Xapian::Query& query, const FeedbackConfig& config) {
  if (!is_bag_of_words(query)) return false;
  return plain_words(query) >= config.min_words;
}

std::optional<Feedback> feedback_query(const Xapian::Database& db, Xapian::Enquire& enquire,
                                       const Xapian::Query& query, const Xapian::Query& scored,
                                       const FeedbackConfig& config,
                                       Xapian::doccount check_at_least, bool rescore,
                                       Xapian::doccount window) {
  if (config.terms == 0 || config.weight <= 0) return std::nullopt;
  window = std::max({window, kRescoreWindow, static_cast<Xapian::doccount>(config.docs)});
  Xapian::MSet first =
      enquire.get_mset(0, rescore ? window : config.docs,
                       std::max<Xapian::doccount>(config.min_matches, check_at_least));
  if (first.empty() || first.get_matches_lower_bound() < config.min_matches) return std::nullopt;
  const std::vector<WeightedTerm> model =
      relevance_model(db, first, config.docs, config.terms, config.power);
  if (model.empty()) return std::nullopt;
  // RM3 mixes the query's own model, each of its n words 1/n, with the
  // relevance model, normalized: scaled by n, the query's words keep a
  // weight of 1 - weight each.
  double total = 0;
  for (const WeightedTerm& term : model) total += term.weight;
  std::size_t words = is_bag_of_words(query) ? plain_words(query) : 0;
  if (words == 0) {
    words = static_cast<std::size_t>(
        std::distance(query.get_unique_terms_begin(), query.get_unique_terms_end()));
  }
  const auto query_words = static_cast<double>(words);
  const double share = config.weight;
  std::vector<Xapian::Query> added;
  for (const WeightedTerm& term : model) {
    added.emplace_back(Xapian::Query::OP_SCALE_WEIGHT, Xapian::Query(term.term),
                       share * std::max(query_words, 1.0) * term.weight / total);
  }
  // AND_MAYBE: the matches stay the query's.
  Xapian::Query expanded(Xapian::Query::OP_AND_MAYBE,
                         Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, scored, 1 - share),
                         Xapian::Query(Xapian::Query::OP_OR, added.begin(), added.end()));
  if (rescore) {
    std::vector<Xapian::docid> best(first.begin(), first.end());
    std::sort(best.begin(), best.end());
    // release() hands the source to the query, which owns it from here.
    auto* list = new DocumentList(std::move(best));
    expanded = Xapian::Query(Xapian::Query::OP_FILTER, expanded, Xapian::Query(list->release()));
  }
  return Feedback{std::move(expanded), std::move(first)};
}

}  // namespace quarry::detail
