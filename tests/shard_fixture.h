// What the tests of sharded indexes share: a corpus of news built into one
// database or into shards, the queries whose answers must agree, shards
// served by xapian-tcpsrv (with replicas), and the checks that the answers
// of shards are those of one database.
#ifndef QUARRY_TESTS_SHARD_FIXTURE_H_
#define QUARRY_TESTS_SHARD_FIXTURE_H_

#include <sys/types.h>
#include <xapian.h>

#include <atomic>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "quarry/search/searcher.h"
#include "tests/child_process.h"
#include "tests/tcp_proxy.h"
#include "tests/test_util.h"

namespace quarry::testing {

// How many articles news() makes.
constexpr std::size_t kShardArticles = 40;

// News-like articles with sources, dates and categories to filter on. The
// words come from a fixed generator, so every run indexes the same text.
std::vector<Article> news();

// `count` reports of one harbour strike, with ids PREFIX0, PREFIX1 …
std::vector<Article> later_news(const std::string& prefix, std::size_t count);

// Queries of every kind, among them a misspelt one and a synonym.
extern const std::vector<std::string> kShardQueries;

// Indexes the articles (with the synonyms) into dir/NAME, in `shards` shards
// (0: one database).
std::string build(const TempDir& dir, const std::string& name, std::size_t shards,
                  const std::vector<Article>& articles = news());

// The first 100 hits.
SearchOptions all_hits();

// A page further on, with the matches counted by every field.
SearchOptions page_with_facets();

// Expects the same hits in the same order, with the same scores, texts and
// highlights, the same count and the same facets.
void expect_same(const SearchResult& one, const SearchResult& shards, const std::string& label);

// Expects the same answers, pages and counts for each query.
void expect_same_results(Searcher& one, Searcher& shards, const std::string& label,
                         const std::vector<std::string>& queries = kShardQueries);

// `queries` without `query`.
std::vector<std::string> without(std::vector<std::string> queries, const std::string& query);

std::string shard_path(const std::string& set, std::size_t index);
std::string lexicon_path(const std::string& set);

// The shard of `set` that holds the article, or -1.
int shard_holding(const std::string& set, std::size_t shards, const std::string& id);

// The spelling data of `db`: each word and its frequency.
std::vector<std::pair<std::string, Xapian::doccount>> spelling_of(const Xapian::Database& db);

// dir/remote.stub: the lexicon of `set`, and the shards `servers` serve.
std::string remote_stub(const TempDir& dir, const std::string& set,
                        const std::vector<const TcpServer*>& servers);

// Options that search on without a shard none of whose replicas answers.
OpenOptions allowing_partial();

RunResult run_quarry(const std::vector<std::string>& args);

// The ids of the hits of quarry's JSON answer, in order.
std::vector<std::string> hit_ids(const RunResult& run);

// The ids of `hits`, in order.
std::vector<std::string> ids_of(const std::vector<Hit>& hits);

// Whether process `pid` runs: exists and is no zombie, which stays until
// whoever adopted it reaps it.
bool runs(pid_t pid);

// A set of two shards in `dir`, each served by xapian-tcpsrv, and the stub
// file that names the servers.
struct ServedSet {
  explicit ServedSet(const TempDir& dir);

  std::string set;
  TcpServer first;
  TcpServer second;
  std::string stub;
};

// A proxy that reads the server's side as Xapian frames its messages (a
// type byte, a length, the bytes), so that a test can count the answers of
// a search and end the connection in the middle of one: a replica that
// dies during a query.
class CuttingProxy : private TcpProxy::ServerBytes {
 public:
  explicit CuttingProxy(unsigned target) : proxy_(target, this) {}

  std::string stub_line() const { return proxy_.stub_line(); }
  // Messages the server has begun to send, over every connection.
  std::size_t messages() const { return messages_; }
  // Ends the connection carrying the server's message number `message`
  // (as messages() counts) after its first byte.
  void cut_at(std::size_t message) { cut_at_ = message; }
  bool cut() const { return cut_; }

 private:
  // Where a connection's server side is in a message: its type, its
  // length's first byte, its length's further bytes, or `left` bytes of it.
  struct Frame {
    enum class At { kType, kLength, kLongLength, kBody } at = At::kType;
    std::size_t left = 0, shift = 0;
  };

  std::size_t pass(std::size_t link, const char* bytes, std::size_t size, bool* end) override;

  std::map<std::size_t, Frame> frames_;  // by connection; the proxy's thread's alone
  std::atomic<std::size_t> messages_{0};
  std::atomic<std::size_t> cut_at_{0};
  std::atomic<bool> cut_{false};
  TcpProxy proxy_;  // last: its thread stops before the rest goes
};

// Two shards, each served by two xapian-tcpsrv of the same folder, and a
// stub naming the first of each as the shard and the second as its replica.
struct ReplicatedSet {
  explicit ReplicatedSet(const TempDir& dir);

  // With proxies between the searcher and the servers.
  void add_proxies(const TempDir& dir);
  void write_stub(const TempDir& dir);
  // "shard A or B", as messages name shard `index`.
  std::string shard_name(std::size_t index) const;

  std::string set;
  std::unique_ptr<TcpServer> servers[4];  // shard 0's two, then shard 1's
  std::vector<std::unique_ptr<CuttingProxy>> proxies;
  std::vector<std::string> lines;  // the stub lines of the four, in order
  std::string stub;
};

// Which of shard `index`'s two replicas `searcher` reads.
std::size_t searched_replica(Searcher& searcher, std::size_t index);

}  // namespace quarry::testing

#endif  // QUARRY_TESTS_SHARD_FIXTURE_H_
