// A search is the core's (search_core.h: read the query, rank a page of its
// matches, count them) with modules taking part at fixed stages: each
// module is a class over this interface, in a file pair of its own, with
// its own options (a struct of SearchOptions) and its own results (fields
// of SearchResult and Hit). search_modules.cc lists them; the core knows
// none of them by name, so a new module adds its files and one line there.
//
// The stages, in the order a search reaches them:
//   search     around all the others: a module may search something else
//              instead, or as well (spelling searches its suggestion)
//   rewrite    the query as read, before it is ranked (more-like-this)
//   rank       the matcher, before it ranks (stories set the collapse key;
//              feedback runs its first pass and sets the query it ranks by;
//              recency sets a factor each match's relevance is weighed by)
//   count      the matches counted (facets count every one, so the core
//              does not count; stories count the groups)
//   fill_hit   each hit of the page (snippets, explanations, story reports)
// At each stage the modules run in the order search_modules.cc lists them.
#ifndef QUARRY_LIB_SEARCH_SEARCH_MODULE_H_
#define QUARRY_LIB_SEARCH_SEARCH_MODULE_H_

#include <xapian.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/index/language_analyzers.h"
#include "lib/search/deadline.h"
#include "lib/search/query_parser.h"
#include "lib/search/shard_group.h"
#include "quarry/search/search_options.h"
#include "quarry/search/search_result.h"
#include "quarry/text/analyzer.h"

namespace quarry::detail {

// What every stage of one search may read: the index as the search reads
// it, what was asked, and when the time asked for is up (a stage that
// loops or matches stops then; see deadline.h).
struct SearchContext {
  ShardGroup& shards;
  const Analyzer& analyzer;  // the main language's
  // The analyzers of every language, for reading an article in its own.
  LanguageAnalyzers& languages;
  // Those of the languages the index holds, the main one first.
  const std::vector<const Analyzer*>& held_languages;
  const SearchOptions& options;
  const Deadline& deadline;
};

// The rest of a search, as a module's search stage sees it.
class SearchRunner {
 public:
  // `text` read as the query is: parsed as options.parse says, then
  // rewritten. Throws QueryError as search() does.
  virtual ParsedQuery read(std::string_view text) = 0;
  // The results of `parsed` (the later stages run on it), as an answer to
  // the query asked.
  virtual SearchResult run(const ParsedQuery& parsed) = 0;

 protected:
  ~SearchRunner() = default;
};

// A factor of at most 1 that each match's relevance is multiplied by, from
// what its document holds (recency's decay of its age). The core then ranks
// by relevance times the factor, exactly (see rescored_page.h).
class Rescorer {
 public:
  virtual ~Rescorer() = default;
  // In (0, 1]. Throws Xapian::Error when the document cannot be read.
  virtual double factor(const Xapian::Document& document) const = 0;
};

// The matcher, set up to rank the query's matches by relevance or by date.
struct Ranking {
  Xapian::Enquire& enquire;  // its query is `parsed`'s as the core scores it
  const ParsedQuery& parsed;
  // What the ranking is asked to look at, for its bounds to count (see
  // match_count.h's ranking_check_at_least).
  Xapian::doccount check_at_least;
  Xapian::doccount page_end;  // offset + limit of the page asked for
  // Set when the enquire collapses hits on a value: the core then orders
  // ties as Xapian does.
  std::optional<Xapian::valueno> collapse_key;
  // A first pass of the query, ranking its best matches only, when one
  // was run: its bounds count the matches (rather than the page's).
  std::optional<Xapian::MSet> first_pass;
  // Set when relevance is to be weighed (by relevance only); it belongs to
  // the module that set it.
  const Rescorer* rescorer = nullptr;
};

// The matches, as counted once the page is ranked.
struct Matches {
  const Xapian::Query& query;  // every match, unweighted
  const Xapian::MSet& ranked;  // the ranking whose bounds count them
};

// A hit of the page, as the index holds it.
struct StoredHit {
  const ParsedQuery& parsed;
  const Xapian::Weight& weight;  // what ranked it
  Xapian::docid did;
  const std::string& body;      // its text (the other fields are in the Hit)
  const std::string& language;  // the stemmer's name it is analyzed by
};

// One module of a search. A searcher holds one of each, for all its
// searches, so a module may keep what it read of the index; like its
// searcher, it is used from one thread at a time.
class SearchModule {
 public:
  virtual ~SearchModule() = default;

  // Returns rest.run(parsed), or results of the module's choosing.
  virtual SearchResult search(const SearchContext& /*context*/, std::string_view /*query*/,
                              const ParsedQuery& parsed, SearchRunner& rest) {
    return rest.run(parsed);
  }
  virtual void rewrite(const SearchContext& /*context*/, ParsedQuery* /*parsed*/) {}
  virtual void rank(const SearchContext& /*context*/, Ranking* /*ranking*/) {}
  // Whether count() counts every match exactly, setting the total: the
  // core then neither counts nor asks the ranking to look at more matches
  // than the page needs. Asked before the ranking.
  virtual bool counts_every_match(const SearchContext& /*context*/) const { return false; }
  virtual void count(const SearchContext& /*context*/, const Matches& /*matches*/,
                     SearchResult* /*result*/) {}
  virtual void fill_hit(const SearchContext& /*context*/, const StoredHit& /*stored*/,
                        Hit* /*hit*/) {}

  // The index has changed (or a shard was left out): drops what was read
  // of it.
  virtual void forget() {}
};

// One of each module, in the order their stages run (search_modules.cc).
std::vector<std::unique_ptr<SearchModule>> make_search_modules();

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_SEARCH_MODULE_H_
