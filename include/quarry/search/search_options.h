// What a search is asked: the core's options (how the query is read, how
// its matches are ranked and counted, which page), and one struct for each
// module a search may run besides (see docs/architecture.md).
#ifndef QUARRY_SEARCH_SEARCH_OPTIONS_H_
#define QUARRY_SEARCH_SEARCH_OPTIONS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "quarry/search/facet.h"
#include "quarry/search/feedback.h"
#include "quarry/search/query_language.h"
#include "quarry/search/ranking.h"
#include "quarry/search/recency.h"
#include "quarry/search/snippet.h"

namespace quarry {

enum class SortOrder { kRelevance, kOldestFirst, kNewestFirst };

// Which matching articles a search shows apart (see docs/stories.md).
enum class Collapse {
  kNone,        // every one
  kStory,       // one article a story, its best ranked, the others listed under it
  kDuplicates,  // one article of each group of near-duplicates (the same text, lightly edited)
};

// When a search runs the spelling suggestion (SearchResult::suggestion)
// instead of the query.
enum class Correction {
  kNever,   // never: the suggestion is only offered
  kAuto,    // when the suggestion matches something, and ten times as many
            // articles as the query (which may match none)
  kAlways,  // whenever there is a suggestion
};

// Articles like another: the article's most telling words, as the query,
// rather than the query's matches.
struct LikeOptions {
  // The article's id; none when empty. The article itself is left out; a
  // query given with it narrows the hits to those it matches. An id the
  // index lacks is an UnknownArticleError.
  std::string id;
  // How many of its words find its likes.
  unsigned terms = 25;
};

// Stories: matches grouped, each group shown once as its best-ranked
// article, with its others listed (Hit::story) and the groups counted
// (SearchResult::stories).
struct CollapseOptions {
  // The programs show each story once unless told otherwise; the library
  // leaves the choice to its caller.
  Collapse by = Collapse::kNone;
};

// Spelling: a suggestion for a query's rare words (SearchResult::suggestion),
// searched instead when `correct` says.
struct SpellingOptions {
  Correction correct = Correction::kAuto;
};

// Explanations: what each part of the query added to each hit's score
// (Hit::explanation).
struct ExplainOptions {
  bool enabled = false;
};

// Every option of a search; the defaults search as the library's callers
// mostly want. A value.
struct SearchOptions {
  // The core: how the query is read, how its matches are ranked, which page
  // of them, and how exactly they are counted.
  ParseMode parse = ParseMode::kQueryOrPlain;
  QueryParserConfig parser;
  RankingConfig ranking;
  // Relevance weighed by each article's age (see recency.h): the ranking
  // by relevance alone; sorted by date it takes no part, and a note says so.
  RecencyOptions recency;
  SortOrder sort = SortOrder::kRelevance;
  std::size_t limit = 10;
  std::size_t offset = 0;
  // Matches are counted exactly up to this many; past it the total is
  // this many, as a lower bound (SearchResult::total_exact).
  std::size_t count_limit = kDefaultCountLimit;
  // Seconds the search may take (0: as long as it needs). Once they have
  // passed, each phase stops where it is (expanding wildcards, matching,
  // counting, snippets, spelling) and the search returns what it found by
  // then, with SearchResult::timed_out set. The programs set a default; the
  // library leaves the choice to its caller.
  double time_limit = 0;

  // The modules, each with its own options; one left as it is here takes
  // no part, but for snippets and feedback, which are on by default.
  LikeOptions like;
  FeedbackConfig feedback;  // pseudo-relevance feedback (see feedback.h)
  CollapseOptions collapse;
  FacetOptions facets;
  SpellingOptions spelling;
  SnippetOptions snippets;
  ExplainOptions explain;

  static constexpr std::size_t kDefaultCountLimit = 10000;
};

}  // namespace quarry

#endif  // QUARRY_SEARCH_SEARCH_OPTIONS_H_
