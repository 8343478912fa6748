// Pseudo-relevance feedback: a query's best hits are taken as relevant, and
// the words that mark them add to the scores of the query's matches, so that
// articles about what the best hits are about rank higher. The matches
// themselves, and so counts and facets, stay those of the query.
#ifndef QUARRY_SEARCH_FEEDBACK_H_
#define QUARRY_SEARCH_FEEDBACK_H_

namespace quarry {

enum class FeedbackMode {
  kAuto,  // for ranked queries of min_words plain words or more
  kOn,    // for every ranked query
  kOff,
};

struct FeedbackConfig {
  FeedbackMode mode = FeedbackMode::kAuto;
  // RM3: the first pass's best `docs` hits are taken as relevant, and the
  // `terms` words that weigh most in them (by their share of each hit's
  // words times the hit's weight; words in more than 30% of all articles
  // left out) make a relevance model. A hit weighs its score to the power
  // `power`: RM3 weighs a hit by the query's likelihood in it, which falls
  // steeply down the ranking, as BM25's scores do not. The query's words
  // keep 1 - `weight` of their weight and the model's words add `weight`,
  // as much in all as the query's words had. The defaults ranked best over
  // TIME, MED, CRAN and CISI together (bench/eval-time, bench/README.md).
  unsigned docs = 10;
  unsigned terms = 20;
  double weight = 0.5;
  double power = 4;
  // No feedback when the first pass matches fewer articles: too few to say
  // what the query is about.
  unsigned min_matches = 10;
  // FeedbackMode::kAuto: only for queries of at least this many distinct
  // words. Feedback lifts queries that describe what is wanted (a median of
  // 15 to 73 words on TIME, MED, CRAN and CISI) and hurts short ones that
  // name one article (BBC headlines, a median of 5 words); short queries also
  // keep their faster ranking.
  unsigned min_words = 8;
};

}  // namespace quarry

#endif  // QUARRY_SEARCH_FEEDBACK_H_
