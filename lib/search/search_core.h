// The core of a search: the query read, its matches ranked into a page and
// counted exactly (up to a limit), on one index or shards, read again when
// a commit overtakes the search. Everything else a search does is a
// module's (search_module.h).
#ifndef QUARRY_LIB_SEARCH_SEARCH_CORE_H_
#define QUARRY_LIB_SEARCH_SEARCH_CORE_H_

#include <xapian.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/index/article_store.h"
#include "lib/index/index_error.h"
#include "lib/index/language_analyzers.h"
#include "lib/search/bm25_source.h"
#include "lib/search/query_parser.h"
#include "lib/search/search_module.h"
#include "lib/search/shard_group.h"
#include "quarry/error.h"
#include "quarry/search/open_options.h"
#include "quarry/search/search_options.h"
#include "quarry/search/search_result.h"
#include "quarry/text/analyzer.h"

namespace quarry::detail {

// Not thread-safe: it keeps what it read of the index between searches.
class SearchCore {
 public:
  // Opens the shards (see ShardGroup) and the analyzer they were indexed
  // with.
  SearchCore(const std::vector<std::string>& paths, const OpenOptions& options);
  ~SearchCore();

  // The searches of Searcher::search and Searcher::count, on the index as
  // last committed. Throw QueryError, UnknownArticleError, IndexError.
  SearchResult search(std::string_view query, const SearchOptions& options);
  CountResult count(std::string_view query, const SearchOptions& options);
  // The query as search() reads it with these options, without searching:
  // to be called within with_shards. Throws as search() does.
  ParsedQuery parse(std::string_view query, const SearchOptions& options);

  // Runs `read` on the shards as last committed. Retries when a commit
  // overtakes it, on another replica of a shard that stopped answering,
  // and, with partial results allowed, without the shards none of whose
  // replicas answers.
  template <typename Read>
  auto with_shards(Read read) -> decltype(read());
  // As with_shards, but reads again however often a commit overtakes the
  // read, never giving up: for a reader beside a writer that commits
  // continuously, whose reads are each short enough to end between two
  // commits (saved_search_matcher.cc). Searches keep with_shards' limit,
  // an answer late by seconds being worse than a failure.
  template <typename Read>
  auto with_shards_until_read(Read read) -> decltype(read());

  ShardGroup& shards() { return shards_; }
  // The analyzer of the index's main language.
  const Analyzer& analyzer() const { return analyzers_.main(); }
  // The analyzer of an article in `language` (a stemmer's name; empty:
  // the main one).
  const Analyzer& analyzer_of(const std::string& language);
  // The analyzers of the languages the index holds, the main one first.
  // Throws Xapian::Error.
  const std::vector<const Analyzer*>& languages();
  // Reads the stored articles, with the dictionaries of every shard.
  ArticleStore& article_store();
  // How many distinct words the vocabulary holds. Throws Xapian::Error.
  std::size_t distinct_words();

 private:
  class Runner;

  // How options ask the parser to read a query.
  static QueryParserConfig parser_config(const SearchOptions& options);
  // `asked`, ranked by relevance when it sorts by date and no article has
  // one: sorted by a value none holds, the matches would be in relevance's
  // order, but matched as a date sort matches them (every word), finding
  // fewer than the relevance search they are shown as.
  SearchOptions sorted_as_dated(const SearchOptions& asked);
  // `text` parsed as options.parse says, and rewritten by the modules.
  ParsedQuery read(std::string_view text, const SearchContext& context);
  // The core's stages between rewriting and filling the hits.
  SearchResult run(const ParsedQuery& parsed, std::string_view query, const SearchContext& context);
  Xapian::Query scored_query(const ParsedQuery& parsed, const SearchOptions& options);
  void forget_index();
  // with_shards and with_shards_until_read: `max_overtaken` reads a
  // commit overtakes before giving up, 0 for none.
  template <typename Read>
  auto read_shards(Read read, int max_overtaken) -> decltype(read());
  // What tells whether the lengths of the documents held so far may have
  // changed: the database and how many articles were replaced in place in
  // it. Empty unless the index is one local database.
  std::string lengths_stamp();

  ShardGroup shards_;
  LanguageAnalyzers analyzers_;
  // Read from the index when first needed after it changed.
  std::optional<std::vector<const Analyzer*>> languages_;
  std::vector<std::unique_ptr<SearchModule>> modules_;
  // Every article's length, as BM25 weighs it, for scoring free words (see
  // bm25_source.h): read when a second search shows that more will follow,
  // and dropped when the index changes.
  std::shared_ptr<const LengthNorms> norms_;
  // The state of the index the table's lengths are true of (lengths_stamp):
  // the table is kept across commits that only add articles.
  std::string norms_stamp_;
  std::size_t searches_ = 0;
  // Made again when a shard changes, as a rebuilt index has a new
  // dictionary.
  std::optional<ArticleStore> store_;
  // Counting them reads all of the vocabulary, so once per state of the
  // index.
  std::optional<std::size_t> distinct_words_;
};

template <typename Read>
auto SearchCore::with_shards(Read read) -> decltype(read()) {
  // Another process may commit while we read; Xapian then asks us to
  // reopen. A few attempts always suffice unless the index is rewritten
  // continuously.
  constexpr int kMaxReopenAttempts = 5;
  return read_shards(read, kMaxReopenAttempts);
}

template <typename Read>
auto SearchCore::with_shards_until_read(Read read) -> decltype(read()) {
  return read_shards(read, 0);
}

template <typename Read>
auto SearchCore::read_shards(Read read, int max_overtaken) -> decltype(read()) {
  // Each replica may fail once in a read; more is a fault that moving from
  // one to another does not cure.
  std::size_t failovers = 0;
  int overtaken = 0;
  for (;;) {
    try {
      if (shards_.reopen()) {
        // A commit that only added articles leaves the lengths read true.
        std::shared_ptr<const LengthNorms> kept = std::move(norms_);
        forget_index();
        const std::string stamp = kept ? lengths_stamp() : "";
        if (!stamp.empty() && stamp == norms_stamp_) norms_ = std::move(kept);
      }
      return read();
    } catch (const Xapian::DatabaseModifiedError&) {
      if (max_overtaken > 0 && ++overtaken == max_overtaken) {
        throw IndexError("index " + shards_.label() + " changes too fast to be read; try again");
      }
    } catch (const Xapian::Error& error) {
      forget_index();
      if (++failovers > shards_.replica_count() || !shards_.fail_over(error)) {
        throw index_error("index " + shards_.label(), error);
      }
    }
  }
}

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_SEARCH_CORE_H_
