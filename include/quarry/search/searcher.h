// Searching an index: ranked hits with snippets.
#ifndef QUARRY_SEARCH_SEARCHER_H_
#define QUARRY_SEARCH_SEARCHER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/input/article.h"
#include "quarry/search/facet.h"
#include "quarry/search/feedback.h"
#include "quarry/search/open_options.h"
#include "quarry/search/query_parser.h"
#include "quarry/search/ranking.h"
#include "quarry/search/snippet.h"
#include "quarry/text/analyzer.h"

namespace quarry {

enum class SortOrder { kRelevance, kOldestFirst, kNewestFirst };

// When a search runs the spelling suggestion (SearchResult::suggestion)
// instead of the query.
enum class Correction {
  kNever,   // never: the suggestion is only offered
  kAuto,    // when the query matches nothing and the suggestion matches something
  kAlways,  // whenever there is a suggestion
};

// Which matching articles a search shows apart (see README, Stories).
enum class Collapse {
  kNone,        // every one
  kStory,       // one article a story, its best ranked, the others listed under it
  kDuplicates,  // one article of each group of near-duplicates (the same text, lightly edited)
};

struct SearchOptions {
  std::size_t limit = 10;
  std::size_t offset = 0;
  bool snippets = true;
  SnippetConfig snippet;
  // The query is plain words (natural language), with no syntax.
  bool plain = false;
  // A query that cannot be parsed is an error (QueryError). Otherwise it is
  // searched as plain words, with a warning saying why
  // (QueryParser::parse_or_plain).
  bool strict = false;
  QueryParserConfig parser;
  RankingConfig ranking;
  SortOrder sort = SortOrder::kRelevance;
  Correction correct = Correction::kAuto;
  // Fill Hit::explanation.
  bool explain = false;
  // Matches are counted exactly up to this many; past it the total is
  // this many, as a lower bound (SearchResult::total_exact).
  std::size_t count_limit = kDefaultCountLimit;
  // Count every match by these fields (SearchResult::facets); the total is
  // then exact, whatever count_limit.
  std::vector<FacetField> facets;
  // The programs show each story once unless told otherwise; the library
  // leaves the choice to its caller.
  Collapse collapse = Collapse::kNone;
  // Pseudo-relevance feedback on ranked queries (see feedback.h).
  FeedbackConfig feedback;
  // The id of an article: find articles like it, rather than those matching
  // the query, and leave it out. A query given with it narrows the hits to
  // those it matches. An id the index lacks is an UnknownArticleError.
  std::string like;
  // Articles like another are found by this many of its words.
  unsigned like_terms = 25;

  static constexpr std::size_t kDefaultCountLimit = 10000;
};

// What one query term added to a hit's score.
struct Contribution {
  std::string part;  // the query's word, phrase or wildcard, as typed
  double weight = 0;
};

struct Hit {
  std::size_t rank = 0;  // 1-based, counting from the first hit of the result set
  std::string id;
  std::string title;
  std::vector<Highlight> title_highlights;  // as in snippets (with SearchOptions::snippets)
  double score = 0;
  std::string date;  // as the article gives them; empty when it has none
  std::string source;
  std::string category;
  Snippet snippet;
  std::vector<Contribution> explanation;  // with SearchOptions::explain
  // When the search collapses (SearchOptions::collapse) and the hit's story
  // or duplicate group has other articles: the group's key (its smallest
  // id), the others' ids in id order (at most kMaxMoreReports), and how
  // many others there are. Else empty.
  std::string story;
  std::vector<std::string> more;
  std::size_t more_total = 0;

  static constexpr std::size_t kMaxMoreReports = 10;
};

struct SearchResult {
  std::string query;  // as it was given, whatever was searched
  // How many articles match: exactly when total_exact, else at least this
  // many (SearchOptions::count_limit). Whatever the page asked for.
  std::size_t total = 0;
  bool total_exact = true;
  // How many stories (or duplicate groups, or articles, as
  // SearchOptions::collapse groups them) the matches are: exactly when
  // stories_exact, else Xapian's estimate.
  std::size_t stories = 0;
  bool stories_exact = true;
  std::vector<Hit> hits;
  // The matches counted by the fields SearchOptions::facets asked for.
  std::vector<Facet> facets;
  std::vector<std::string> notes;  // how a not-quite-well-formed query was read
  HighlightTerms highlight;        // what the hits' snippets mark
  // The query with its rare words replaced by much more frequent ones of
  // the index, one or two edits away (see lib/search/spelling.h); empty when
  // there are none.
  std::string suggestion;
  bool corrected = false;  // the hits are the suggestion's (SearchOptions::correct)
  // One line each: what of the query was not searched as written
  // (ParsedQuery::warnings, of the query searched), then the shards left
  // out of the search (OpenOptions::allow_partial), naming each and why.
  std::vector<std::string> warnings;
};

struct IndexStats {
  std::size_t articles = 0;
  std::size_t distinct_words = 0;
  std::size_t total_words = 0;  // word occurrences indexed, titles included
  std::uintmax_t bytes_on_disk = 0;
  std::string language;
  std::string last_update;        // local time of the last commit, "YYYY-MM-DD HH:MM"
  std::size_t shards = 1;         // databases searched together
  std::size_t remote_shards = 0;  // of which remote: bytes_on_disk counts local ones only
};

// An index open for searching: one database, or shards searched as one.
// Opening reads the analyzer settings the index was built with. Not
// thread-safe: use one Searcher per thread.
//
// Shards come from several paths, or from Xapian stub files (a file, or a
// folder holding XAPIANDB, as quarry-index --shards writes) that name local
// folders and remote databases served by xapian-tcpsrv. Hits, scores and
// snippets are those of the same articles in one database: ranking
// statistics are the whole set's, and hits of equal score are ordered by
// date (newest first), then by id, however they are stored. Spelling
// suggestions, synonyms, wildcards and completions come from a shard set's
// lexicon when it has one (the remote protocol carries neither), else from
// its shards.
class Searcher {
 public:
  // Throws IndexNotFoundError when `db_path` holds no index, IndexError when
  // it cannot be opened.
  explicit Searcher(const std::string& db_path);
  // The same for the shards of every path, in order. A shard that cannot be
  // opened is an IndexError naming it, unless options.allow_partial (and
  // another shard opens). Throws ConfigError when `db_paths` is empty.
  explicit Searcher(const std::vector<std::string>& db_paths, const OpenOptions& options = {});
  ~Searcher();
  Searcher(Searcher&&) noexcept;
  Searcher& operator=(Searcher&&) noexcept;

  // Hits ranked by the weighting scheme of options.ranking (BM25 unless
  // told otherwise; equal scores newest first, then by id), or by date
  // with options.sort, and how many articles match. Throws QueryError for a
  // query that cannot be parsed (with options.strict), IndexError when the
  // index cannot be read.
  // A shard that fails during the search is an IndexError naming it; with
  // allow_partial it is left out of this and later searches instead, with a
  // warning in each result.
  SearchResult search(std::string_view query, const SearchOptions& options = {});

  // How many articles match `query`, counted exactly with no limit.
  // options.plain and options.parser apply; throws as search() does.
  std::size_t count(std::string_view query, const SearchOptions& options = {});

  // The stored article with this id, if the index has it.
  std::optional<Article> fetch(const std::string& id);

  // Words in the index that start with `prefix` (as typed: it is normalized
  // first), most frequent first, at most `limit`.
  std::vector<std::string> complete(std::string_view prefix, std::size_t limit);

  IndexStats stats();
  // A string that changes whenever the index as last committed does (a
  // commit to any shard, a shard rebuilt or left out), for keeping answers
  // while it stays the same; empty when that cannot be told (remote shards).
  std::string revision();

  const Analyzer& analyzer() const;
  std::size_t article_count();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace quarry

#endif  // QUARRY_SEARCH_SEARCHER_H_
