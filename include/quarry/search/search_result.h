// What a search finds: the core's ranked hits and counts, and what each
// module it ran added (see search_options.h).
#ifndef QUARRY_SEARCH_SEARCH_RESULT_H_
#define QUARRY_SEARCH_SEARCH_RESULT_H_

#include <cstddef>
#include <string>
#include <vector>

#include "quarry/search/facet.h"
#include "quarry/search/highlight_terms.h"
#include "quarry/search/search_options.h"
#include "quarry/search/snippet.h"

namespace quarry {

// What one query term added to a hit's score.
struct Contribution {
  std::string part;  // the query's word, phrase or wildcard, as typed
  double weight = 0;
};

struct Hit {
  // The core's: the stored article's fields, and where and how high it ranks.
  std::size_t rank = 0;  // 1-based, counting from the first hit of the result set
  std::string id;
  std::string title;
  double score = 0;
  std::string date;  // as the article gives them; empty when it has none
  std::string source;
  std::string category;
  // The language it is analyzed in: an ISO 639-1 code ("fr"), or the
  // stemmer's name for one with none ("none").
  std::string language;
  // Snippets (SearchOptions::snippets).
  Snippet snippet;
  std::vector<Highlight> title_highlights;  // as in snippets
  // Explanations (SearchOptions::explain).
  std::vector<Contribution> explanation;
  // Stories: when the search collapses (SearchOptions::collapse) and the
  // hit's story or duplicate group has other articles: the group's key (its
  // smallest id), the others' ids in id order (at most kMaxMoreReports),
  // and how many others there are. Else empty.
  std::string story;
  std::vector<std::string> more;
  std::size_t more_total = 0;

  // More-like-this (SearchOptions::like): the hit is a report of the story
  // of the article it is like.
  bool same_story = false;

  static constexpr std::size_t kMaxMoreReports = 10;
};

// A value.
struct SearchResult {
  std::string query;  // as it was given, whatever was searched
  // How many articles match: exactly when total_exact, else at least this
  // many (SearchOptions::count_limit). Whatever the page asked for.
  std::size_t total = 0;
  bool total_exact = true;
  // The search stopped at its time limit (SearchOptions::time_limit): the
  // hits are the best of the matches found by then, the counts (total,
  // stories, facets) estimates or lower bounds, and hits past the first
  // may lack their snippets.
  bool timed_out = false;
  // Where the page begins among the hits, 0 for the first, as asked
  // (SearchOptions::offset).
  std::size_t offset = 0;
  std::vector<Hit> hits;
  std::vector<std::string> notes;  // how a not-quite-well-formed query was read
  HighlightTerms highlight;        // what the hits' snippets mark
  // One line each: what of the query was not searched as written (of the
  // query searched), then the shards left out of the search
  // (OpenOptions::allow_partial), naming each and why.
  std::vector<std::string> warnings;

  // Stories: how many hits the matches make, each group shown once, as
  // `collapse` (SearchOptions::collapse) groups them: stories, groups of
  // near-duplicates, or articles (then the total). Counted exactly up to
  // SearchOptions::count_limit matches, whatever the page, the order or
  // the facets asked for; past it (stories_exact false) an estimate from
  // the first matches in the index's order, which none of those move.
  std::size_t stories = 0;
  bool stories_exact = true;
  Collapse collapse = Collapse::kNone;
  // Facets: the matches counted by the fields SearchOptions::facets asked
  // for.
  std::vector<Facet> facets;
  // Spelling: the query with its rare words replaced by much more frequent
  // ones of the index, one or two edits away (see lib/search/spelling.h);
  // empty when there are none.
  std::string suggestion;
  bool corrected = false;  // the hits are the suggestion's (SearchOptions::spelling)
};

// What Searcher::count finds. A value.
struct CountResult {
  std::size_t total = 0;  // every match, counted exactly with no limit
  // How the query was read, and the shards left out of the count, as in
  // SearchResult.
  std::vector<std::string> notes;
  std::vector<std::string> warnings;
};

}  // namespace quarry

#endif  // QUARRY_SEARCH_SEARCH_RESULT_H_
