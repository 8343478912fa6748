// Searching an index: ranked hits, and what the modules a search runs add
// to them (snippets, stories, facets …).
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
#include "quarry/search/open_options.h"
#include "quarry/search/search_options.h"
#include "quarry/search/search_result.h"
#include "quarry/text/analyzer.h"

namespace quarry {

class Searcher;
namespace detail {
class SearchCore;
// The core under a searcher, for the library's other readers of an index.
SearchCore& core_of(Searcher& searcher);
}  // namespace detail

// One copy of a shard, as IndexStats found it.
struct ReplicaStats {
  std::string name;       // as the stub file names it: "remote HOST:PORT", a folder
  bool searched = false;  // the copy searches read this shard from
  bool answers = false;   // whether it answered when the stats were read
  // The revision (commit) it holds, when it answers and Xapian tells: of a
  // local folder only, as Xapian's remote protocol does not carry it.
  std::optional<std::uint64_t> revision;
  // How many articles it holds, when it answers: beside the others', how
  // far a remote copy lags.
  std::optional<std::uint64_t> articles;
  std::string error;  // why it does not answer
};

// A shard and its copies (see Searcher): the first is the one its stub line
// names, the others its "#replica" lines'.
struct ShardStats {
  std::vector<ReplicaStats> replicas;
};

struct IndexStats {
  std::size_t articles = 0;
  std::size_t distinct_words = 0;
  std::size_t total_words = 0;  // word occurrences indexed, titles included
  std::uintmax_t bytes_on_disk = 0;
  // The language asked of the index: a stemmer's name, or "auto" (each
  // article's identified from its text).
  std::string language;
  // The languages its articles are in, as Hit::language names them.
  std::vector<std::string> languages;
  std::string last_update;        // local time of the last commit, "YYYY-MM-DD HH:MM"
  std::size_t shards = 1;         // databases searched together
  std::size_t remote_shards = 0;  // of which remote: bytes_on_disk counts local ones only
  // Every shard holding articles, in order, those left out included, with
  // the copies each has: each copy is asked whether it answers.
  std::vector<ShardStats> shard_replicas;
};

// An index open for searching: one database, or shards searched as one.
// Opening reads the analyzer settings the index was built with. Not
// thread-safe (it keeps what it read of the index between searches): use
// one Searcher per thread.
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
//
// A shard may have replicas, copies kept current elsewhere (by Xapian's
// replication), named in the stub file by "#replica LINE" lines after the
// shard's own line. A searcher reads each shard from one of its copies, the
// searchers of a process (and processes) starting at different ones to share
// the load; when that copy cannot be opened, or refuses, times out or fails
// during a search, the search goes on with the shard's next copy, and the
// caller sees the same answer and no warning. Only a shard none of whose
// copies answers is an error, or, with allow_partial, left out.
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
  // with options.sort, and how many articles match; with what the modules
  // options ask for. Throws QueryError for a query that cannot be parsed
  // (with ParseMode::kStrict), UnknownArticleError for options.like naming
  // no article, IndexError when the index cannot be read.
  // A shard that fails during the search is read from its next replica; one
  // none of whose replicas answers is an IndexError naming it, or, with
  // allow_partial, left out of this and later searches, with a warning in
  // each result.
  SearchResult search(std::string_view query, const SearchOptions& options = {});

  // How many articles match `query`, counted exactly with no limit, and
  // how the query was read. options.parse, options.parser, options.like and
  // (for MatchMode::kAuto) options.sort apply; throws as search() does.
  CountResult count(std::string_view query, const SearchOptions& options = {});

  // The stored article with this id, if the index has it.
  std::optional<Article> fetch(const std::string& id);

  // Words in the index that start with `prefix` (as typed: it is normalized
  // first), most frequent first, at most `limit`, each in the case typed
  // (Analyzer::in_typed_case: "Bla" → "Blair", "MANCH" → "MANCHESTER").
  std::vector<std::string> complete(std::string_view prefix, std::size_t limit);

  // Asks every copy of every shard whether it answers (each one not
  // searched is opened for it, within the timeouts of OpenOptions).
  IndexStats stats();
  // A string that changes whenever the index as last committed does (a
  // commit to any shard, a shard rebuilt or left out), for keeping answers
  // while it stays the same; empty when that cannot be told (remote shards).
  std::string revision();

  // The analyzer of the index's main language, which reads queries.
  const Analyzer& analyzer() const;
  // The analyzer `article` (as fetch() gives it) was indexed with, which
  // highlights the forms of the query's words in its language.
  const Analyzer& analyzer(const Article& article);
  std::size_t article_count();

 private:
  friend detail::SearchCore& detail::core_of(Searcher& searcher);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace quarry

#endif  // QUARRY_SEARCH_SEARCHER_H_
