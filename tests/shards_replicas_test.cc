// Replicas: each shard served twice, its stub line followed by a "#replica"
// line. A search reads one copy of each shard and goes on with the other
// when it fails, before a search or in the middle of one.
#include <gtest/gtest.h>
#include <xapian.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/common/json_documents.h"
#include "quarry/error.h"
#include "tests/shard_fixture.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

TEST(Replicas, ReplicaDownBeforeASearchIsPassedOver) {
  TempDir dir;
  Searcher one(build(dir, "one", 0));
  ReplicatedSet served(dir);

  // Both copies answer, and say what they hold; searchers opened one after
  // the other start at different copies.
  Searcher first(std::vector<std::string>{served.stub});
  Searcher second(std::vector<std::string>{served.stub});
  EXPECT_NE(searched_replica(first, 1), searched_replica(second, 1));
  const IndexStats stats = first.stats();
  for (const ShardStats& shard : stats.shard_replicas) {
    for (const ReplicaStats& replica : shard.replicas) {
      EXPECT_TRUE(replica.answers) << replica.name << ": " << replica.error;
    }
  }
  EXPECT_EQ(stats.shard_replicas[1].replicas[0].name, served.lines[2]);

  // Killed while the searchers hold connections to it: one of them reads
  // shard 1 from it.
  served.servers[2]->stop();
  expect_same_results(one, first, "one replica of shard 1 gone, first searcher");
  expect_same_results(one, second, "one replica of shard 1 gone, second searcher");
  EXPECT_EQ(searched_replica(first, 1), 1u);
  const IndexStats after = second.stats();
  EXPECT_FALSE(after.shard_replicas[1].replicas[0].answers);
  EXPECT_FALSE(after.shard_replicas[1].replicas[0].error.empty());
  EXPECT_TRUE(after.shard_replicas[1].replicas[1].answers);

  // Killed before opening: whichever copy each searcher starts at.
  for (int n = 0; n < 2; ++n) {
    Searcher opened(std::vector<std::string>{served.stub});
    expect_same_results(one, opened, "opened with one replica of shard 1 gone",
                        {"oil prices", "harb*"});
  }
  for (int n = 0; n < 2; ++n) {
    RunResult run = run_quarry({"--db", served.stub, "--format", "json", "oil prices"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.err, "");
    const json result = json::parse(run.out);
    EXPECT_FALSE(result.contains("warnings") && !result["warnings"].empty()) << run.out;
    std::vector<std::string> ids, expected;
    for (const json& hit : result.at("hits")) ids.push_back(hit.at("id"));
    for (const Hit& hit : one.search("oil prices").hits) expected.push_back(hit.id);
    EXPECT_EQ(ids, expected);
  }
}

TEST(Replicas, ReplicaFailingMidSearchIsPassedOver) {
  TempDir dir;
  Searcher one(build(dir, "one", 0));
  ReplicatedSet served(dir);
  served.add_proxies(dir);
  Searcher searcher(std::vector<std::string>{served.stub});
  const SearchOptions options = page_with_facets();
  const std::string query = "category:sport penalty OR match";
  expect_same(one.search(query, options), searcher.search(query, options), "both copies");

  // How many messages shard 1's copy sends during this search; the next
  // one is ended in the middle of one of them, half way.
  const std::size_t copy = searched_replica(searcher, 1);
  CuttingProxy& read = *served.proxies[2 + copy];
  const std::size_t before = read.messages();
  expect_same(one.search(query, options), searcher.search(query, options), "counted");
  const std::size_t sent = read.messages() - before;
  ASSERT_GT(sent, 2u);
  read.cut_at(read.messages() + sent / 2 + 1);
  expect_same(one.search(query, options), searcher.search(query, options), "cut in the middle");
  EXPECT_TRUE(read.cut());
  EXPECT_EQ(searched_replica(searcher, 1), 1 - copy) << "the other copy now serves shard 1";
  expect_same_results(one, searcher, "after the cut", {"oil prices", "\"dressing room\" penalty"});
}

TEST(Replicas, HungReplicaGivesWayToTheNext) {
  TempDir dir;
  Searcher one(build(dir, "one", 0));
  const std::string set = build(dir, "set", 2);
  TcpServer first({shard_path(set, 0)});
  TcpServer second({shard_path(set, 1)});
  SilentListener hung;
  write_file(dir / "hung.stub", "auto " + lexicon_path(set) + "\n" + first.stub_line() +
                                    "\n#replica remote 127.0.0.1:" + std::to_string(hung.port()) +
                                    "\n" + second.stub_line() + "\n");
  OpenOptions options;
  options.connect_timeout = 1;
  options.timeout = 1;
  // Opened one after the other, one of them starts at the hung copy.
  for (int n = 0; n < 2; ++n) {
    Searcher searcher(std::vector<std::string>{(dir / "hung.stub").string()}, options);
    expect_same_results(one, searcher, "a replica of shard 0 hangs", {"oil prices", "harb*"});
  }
}

TEST(Replicas, ShardWithNoReplicaLeftIsNamedOrLeftOut) {
  TempDir dir;
  ReplicatedSet served(dir);
  const OpenOptions partial = allowing_partial();
  Searcher lenient(std::vector<std::string>{served.stub}, partial);
  served.servers[2]->stop();
  served.servers[3]->stop();
  const std::string name = served.shard_name(1);

  RunResult failed = run_quarry({"--db", served.stub, "oil"});
  EXPECT_EQ(failed.exit_code, 1);
  EXPECT_NE(failed.err.find("quarry: " + name + " is unreachable: " + served.lines[2] + ": "),
            std::string::npos)
      << failed.err;
  EXPECT_NE(failed.err.find("; " + served.lines[3] + ": "), std::string::npos) << failed.err;
  EXPECT_EQ(failed.out, "");

  // The other shard's answer: what its copy and the lexicon give alone.
  Searcher rest(std::vector<std::string>{lexicon_path(served.set), shard_path(served.set, 0)});
  std::vector<std::string> expected;
  for (const Hit& hit : rest.search("oil", all_hits()).hits) expected.push_back(hit.id);
  ASSERT_FALSE(expected.empty());

  RunResult partial_run = run_quarry(
      {"--db", served.stub, "--allow-partial", "--format", "json", "--limit", "100", "oil"});
  ASSERT_EQ(partial_run.exit_code, 0) << partial_run.err;
  const json result = json::parse(partial_run.out);
  ASSERT_EQ(result.at("warnings").size(), 1u);
  EXPECT_NE(result["warnings"][0].get<std::string>().find(name + " is unreachable"),
            std::string::npos)
      << result["warnings"][0];
  std::vector<std::string> ids;
  for (const json& hit : result.at("hits")) ids.push_back(hit.at("id"));
  EXPECT_EQ(ids, expected);

  // Gone during a session: left out with a warning naming the shard.
  const SearchResult left = lenient.search("oil", all_hits());
  ASSERT_EQ(left.warnings.size(), 1u);
  EXPECT_NE(left.warnings[0].find(name + " is unreachable"), std::string::npos) << left.warnings[0];
  ids.clear();
  for (const Hit& hit : left.hits) ids.push_back(hit.id);
  EXPECT_EQ(ids, expected);
  const IndexStats stats = lenient.stats();
  ASSERT_EQ(stats.shard_replicas.size(), 2u);
  for (const ReplicaStats& replica : stats.shard_replicas[1].replicas) {
    EXPECT_FALSE(replica.answers) << replica.name;
    EXPECT_FALSE(replica.searched) << replica.name;
  }
}

TEST(Replicas, StatsShowEachReplicaWhetherItAnswersAndItsRevision) {
  TempDir dir;
  const std::string set = build(dir, "set", 2);
  const fs::path copy = dir / "shard-1-copy";
  fs::copy(shard_path(set, 1), copy, fs::copy_options::recursive);
  const std::string gone = "remote 127.0.0.1:" + std::to_string(free_loopback_port());
  const TcpServer served({shard_path(set, 0)});
  write_file(dir / "stats.stub", "auto " + lexicon_path(set) + "\nauto " + shard_path(set, 0) +
                                     "\n#replica " + gone + "\n#replica " + served.stub_line() +
                                     "\nauto " + shard_path(set, 1) + "\n#replica auto " +
                                     copy.string() + "\n");
  Searcher searcher(std::vector<std::string>{(dir / "stats.stub").string()});
  // As /api/stats shows them.
  const json stats = json::parse(stats_json(searcher.stats()));
  const json& shards = stats.at("shard_replicas");
  ASSERT_EQ(shards.size(), 2u) << stats.dump();
  const json& first = shards[0].at("replicas");
  ASSERT_EQ(first.size(), 3u);
  const Xapian::Database shard0(shard_path(set, 0));
  EXPECT_EQ(first[0].at("name"), shard_path(set, 0));
  EXPECT_TRUE(first[0].at("answers"));
  EXPECT_NE(first[0].at("searched").get<bool>(), first[2].at("searched").get<bool>())
      << "one of the copies that answer serves the shard";
  EXPECT_EQ(first[0].at("revision"), shard0.get_revision());
  EXPECT_EQ(first[0].at("articles"), shard0.get_doccount());
  EXPECT_EQ(first[1].at("name"), gone);
  EXPECT_FALSE(first[1].at("answers"));
  EXPECT_FALSE(first[1].at("searched"));
  EXPECT_TRUE(first[1].at("revision").is_null());
  EXPECT_TRUE(first[1].at("articles").is_null());
  EXPECT_NE(first[1].at("error").get<std::string>().find("Connection refused"), std::string::npos);
  // A remote copy tells how many articles it holds, not its revision.
  EXPECT_EQ(first[2].at("name"), served.stub_line());
  EXPECT_TRUE(first[2].at("answers"));
  EXPECT_TRUE(first[2].at("revision").is_null());
  EXPECT_EQ(first[2].at("articles"), shard0.get_doccount());
  const json& second = shards[1].at("replicas");
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[1].at("name"), copy.string());
  EXPECT_NE(second[0].at("searched"), second[1].at("searched"));
  for (const json& replica : second) {
    EXPECT_TRUE(replica.at("answers")) << replica.dump();
    EXPECT_EQ(replica.at("revision"), Xapian::Database(shard_path(set, 1)).get_revision());
  }
}

}  // namespace
}  // namespace quarry::testing
