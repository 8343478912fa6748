// A replica that hangs costs a search with a time limit its share of the
// limit, once: the library, the server's workers and the command line all
// go on with the other copy.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/server/request_handler.h"
#include "lib/search/slow_replicas.h"
#include "tests/server_fixture.h"
#include "tests/shard_fixture.h"

namespace quarry::testing {
namespace {

using nlohmann::json;

// A replica of shard 1 stopped (SIGSTOP), as a machine that froze: the
// kernel still accepts connections for it, but nothing answers them, and
// Xapian waits for an answer as long as its timeout (10 s by default).
// Searches with a time limit of kTimeLimit wait for it their share,
// kTimeLimit / 2, then read the other; the bounds below are generous, as
// the point is that nothing waits the 10–20 s of Xapian's timeouts.
constexpr double kTimeLimit = 4;
constexpr auto kShare = std::chrono::milliseconds(2000);
constexpr auto kWithinLimit = std::chrono::milliseconds(4000 + 4000);

struct HungReplica {
  explicit HungReplica(TcpServer& server) : server(server) { server.pause(); }
  ~HungReplica() {
    server.resume();
    detail::slow_replicas().clear(server.stub_line());
  }
  TcpServer& server;
};

TEST(Replicas, HungReplicaCostsOneSearchItsShareOfTheTimeLimit) {
  using Clock = std::chrono::steady_clock;
  TempDir dir;
  Searcher one(build(dir, "one", 0));
  ReplicatedSet served(dir);
  OpenOptions open;
  open.time_limit = kTimeLimit;
  SearchOptions limited = all_hits();
  limited.time_limit = kTimeLimit;
  const std::vector<std::string> stub{served.stub};
  // Searchers opened one after the other start at alternate replicas: the
  // first and the third read shard 1 from the same one.
  Searcher first(stub, open);
  Searcher second(stub, open);
  Searcher third(stub, open);
  const std::size_t copy = searched_replica(first, 1);
  ASSERT_EQ(searched_replica(third, 1), copy);
  ASSERT_NE(searched_replica(second, 1), copy);
  const SearchResult expected = one.search("oil prices", all_hits());

  const HungReplica hung(*served.servers[2 + copy]);
  Clock::time_point start = Clock::now();
  const SearchResult result = first.search("oil prices", limited);
  EXPECT_LT(Clock::now() - start, kWithinLimit);
  expect_same(expected, result, "a replica of shard 1 hangs");
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(searched_replica(first, 1), 1 - copy);

  // The replica is marked slow: the third searcher reads the other before
  // it waits, and a searcher opened now starts at the other.
  start = Clock::now();
  expect_same(expected, third.search("oil prices", limited), "the third searcher");
  EXPECT_LT(Clock::now() - start, kShare);
  EXPECT_EQ(searched_replica(third, 1), 1 - copy);
  start = Clock::now();
  Searcher opened(stub, open);
  expect_same(expected, opened.search("oil prices", limited), "a searcher opened after");
  EXPECT_LT(Clock::now() - start, kShare);
  expect_same(expected, second.search("oil prices", limited), "the second searcher");
  const IndexStats stats = opened.stats();
  EXPECT_FALSE(stats.shard_replicas.at(1).replicas.at(copy).answers);
}

TEST(Replicas, HungReplicaKeepsServerAndCommandLineWithinTheTimeLimit) {
  using Clock = std::chrono::steady_clock;
  TempDir dir;
  Searcher one(build(dir, "one", 0));
  ReplicatedSet served(dir);
  const std::vector<std::string> expected = ids_of(one.search("oil prices", all_hits()).hits);
  // As quarry serve's workers: each handler reads shard 1 from one of its
  // replicas, the two from different ones.
  SearchLimits limits;
  limits.time_limit = kTimeLimit;
  std::vector<RequestHandler> handlers;
  for (int n = 0; n < 2; ++n) {
    handlers.emplace_back(std::vector<std::string>{served.stub}, OpenOptions{}, nullptr, limits);
    ASSERT_FALSE(handlers.back().open().has_value());
  }
  const HungReplica hung(*served.servers[2]);
  for (int round = 0; round < 2; ++round) {
    for (RequestHandler& handler : handlers) {
      const Clock::time_point start = Clock::now();
      const HttpResponse response = handler.handle("GET", "/api/search?q=oil+prices&n=100");
      const auto took = Clock::now() - start;
      ASSERT_EQ(response.status, 200) << response.body;
      const json answer = json::parse(response.body);
      std::vector<std::string> ids;
      for (const json& hit : answer.at("hits")) ids.push_back(hit.at("id"));
      EXPECT_EQ(ids, expected);
      // The one that met the hung replica waited its share; later ones
      // read the other without waiting.
      EXPECT_LT(took, round == 0 ? kWithinLimit : kShare) << "round " << round;
    }
  }

  // Each run of quarry starts at either replica; a batch of two threads
  // opens a searcher at each. A searcher that starts at the hung one waits
  // its share for it.
  Clock::time_point start = Clock::now();
  const RunResult run = run_quarry(
      {"--db", served.stub, "--time-limit", "4", "--format", "json", "-n", "100", "oil prices"});
  EXPECT_LT(Clock::now() - start, kWithinLimit);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(hit_ids(run), expected);
  start = Clock::now();
  const RunResult batch = run_program(
      QUARRY_BIN,
      {"--db", served.stub, "--time-limit", "4", "-n", "100", "--batch", "-", "-j", "2"},
      "1\toil prices\n2\toil prices\n");
  EXPECT_LT(Clock::now() - start, kWithinLimit);
  ASSERT_EQ(batch.exit_code, 0) << batch.err;
  const std::vector<std::string> answers = lines_of(batch.out);
  ASSERT_EQ(answers.size(), 2u) << batch.out;
  for (const std::string& answer : answers) {
    EXPECT_EQ(hit_ids(RunResult{0, answer, ""}), expected);
  }
}

// Stopping closes every shard's connection without waiting for an answer:
// a server of shards, one of which has frozen since it was opened, stops
// on SIGTERM within the second it promises.
TEST(Replicas, AServerStopsWithinASecondThoughAShardHangs) {
  TempDir dir;
  ServedSet served(dir);
  Server server(served.stub, {"--quiet"});
  ASSERT_EQ(server.get("/api/search?q=oil+prices").status, 200);
  served.second.pause();
  server.process().signal(SIGTERM);
  EXPECT_EQ(server.process().wait(allowed(std::chrono::milliseconds(1000))), 0);
  served.second.resume();
}

}  // namespace
}  // namespace quarry::testing
