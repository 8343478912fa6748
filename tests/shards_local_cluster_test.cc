// deploy/local-cluster: replicated shards served, kept current and
// stopped, with nothing of theirs left running or listening.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>
#include <xapian.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "lib/index/shard_set.h"
#include "tests/shard_fixture.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;

// deploy/local-cluster, beside the sample articles.
std::string local_cluster() {
  return (fs::path(QUARRY_CORPUS_DIR).parent_path() / "deploy" / "local-cluster").string();
}

// A cluster started by deploy/local-cluster, stopped however the test ends.
struct LocalCluster {
  LocalCluster(const TempDir& dir, const std::vector<std::string>& corpora)
      : folder((dir / "cluster").string()) {
    std::vector<std::string> args{"start",      folder, "--shards",   "2",
                                  "--replicas", "2",    "--interval", "1"};
    args.insert(args.end(), corpora.begin(), corpora.end());
    started =
        run_program(local_cluster(), args, "", {std::string("QUARRY_INDEX=") + QUARRY_INDEX_BIN});
  }
  ~LocalCluster() { run_program(local_cluster(), {"stop", folder}); }

  // The pid in shard-K/NAME.pid.
  pid_t pid(std::size_t shard, const std::string& name) const {
    std::ifstream in(fs::path(folder) / detail::shard_name(shard) / (name + ".pid"));
    pid_t pid = 0;
    in >> pid;
    return pid;
  }
  // The port in shard-K/NAME.port: where the server NAME.pid names listens.
  unsigned port(std::size_t shard, const std::string& name) const {
    std::ifstream in(fs::path(folder) / detail::shard_name(shard) / (name + ".port"));
    unsigned port = 0;
    in >> port;
    return port;
  }

  std::string folder;
  RunResult started;
};

// A socket listening on loopback `port`, or -1.
int listen_on_port(unsigned port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int on = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  if (bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 ||
      listen(fd, 4) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// Waits (bounded) for process `pid` to end.
bool ends(pid_t pid) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (runs(pid) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return !runs(pid);
}

TEST(LocalCluster, ServesReplicatedShardsKeptCurrentAndStops) {
  TempDir dir;
  write_file(dir / "a.jsonl", to_json_lines(news()));
  Searcher one(build(dir, "one", 0));
  LocalCluster cluster(dir, {(dir / "a.jsonl").string()});
  ASSERT_EQ(cluster.started.exit_code, 0) << cluster.started.out << cluster.started.err;
  const std::vector<std::string> lines = lines_of(cluster.started.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back(), "--db " + cluster.folder);

  std::vector<std::string> expected;
  for (const Hit& hit : one.search("oil prices", all_hits()).hits) expected.push_back(hit.id);
  const std::vector<std::string> search{"--db", cluster.folder, "--format",  "json",
                                        "-n",   "100",          "oil prices"};
  RunResult run = run_quarry(search);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(hit_ids(run), expected);

  // Each shard's replicas answer, served by the processes in the pid files.
  Searcher searcher(std::vector<std::string>{cluster.folder});
  const IndexStats stats = searcher.stats();
  ASSERT_EQ(stats.shard_replicas.size(), 2u);
  for (const ShardStats& shard : stats.shard_replicas) {
    ASSERT_EQ(shard.replicas.size(), 2u);
    for (const ReplicaStats& replica : shard.replicas) EXPECT_TRUE(replica.answers) << replica.name;
  }
  for (std::size_t shard = 0; shard < 2; ++shard) {
    for (const char* name : {"master", "replica-0", "replica-1", "replicate-0", "replicate-1"}) {
      EXPECT_GT(cluster.pid(shard, name), 0) << shard << " " << name;
    }
  }

  // A replica killed: the same answer, from the other.
  ASSERT_EQ(kill(cluster.pid(1, "replica-0"), SIGKILL), 0);
  for (int n = 0; n < 2; ++n) {
    run = run_quarry(search);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.err, "");
    EXPECT_EQ(hit_ids(run), expected);
  }

  // Articles indexed into the master reach the replicas.
  write_file(dir / "b.jsonl", to_json_lines(later_news("later-", 10)));
  RunResult added =
      run_program(QUARRY_INDEX_BIN, {"--db", cluster.folder + "/master", "--changesets", "100",
                                     "-q", (dir / "b.jsonl").string()});
  ASSERT_EQ(added.exit_code, 0) << added.err;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  std::size_t found = 0;
  while (found != 10 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    run = run_quarry({"--db", cluster.folder, "--format", "json", "-n", "100", "dockers"});
    if (run.exit_code == 0) found = hit_ids(run).size();
  }
  EXPECT_EQ(found, 10u) << run.err;

  const pid_t server = cluster.pid(0, "replica-1");
  RunResult stopped = run_program(local_cluster(), {"stop", cluster.folder});
  EXPECT_EQ(stopped.exit_code, 0) << stopped.err;
  EXPECT_FALSE(fs::exists(fs::path(cluster.folder) / "shard-0" / "replica-1.pid"));
  EXPECT_FALSE(runs(server)) << "the server still runs";
  run = run_quarry(search);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("is unreachable"), std::string::npos) << run.err;
}

TEST(LocalCluster, StopEndsTheChildrenOfServersKilledBeforeAndChecksThePorts) {
  TempDir dir;
  write_file(dir / "a.jsonl", to_json_lines(news()));
  LocalCluster cluster(dir, {(dir / "a.jsonl").string()});
  ASSERT_EQ(cluster.started.exit_code, 0) << cluster.started.out << cluster.started.err;
  std::vector<unsigned> ports;
  for (std::size_t shard = 0; shard < 2; ++shard) {
    for (const char* name : {"master", "replica-0", "replica-1"}) {
      ports.push_back(cluster.port(shard, name));
      EXPECT_TRUE(accepts_connections(ports.back())) << shard << " " << name;
    }
  }

  // A connection to three replicas' servers, which each fork a child to
  // serve; then each server killed by its pid file (SIGKILL: on SIGTERM
  // xapian-tcpsrv ends its group itself): one replica of shard 0, both of
  // shard 1. Their children serve on.
  const std::pair<std::size_t, std::string> killed[] = {
      {0, "replica-0"}, {1, "replica-0"}, {1, "replica-1"}};
  std::vector<Xapian::Database> connections;
  for (const auto& [shard, name] : killed) {
    connections.push_back(Xapian::Remote::open("127.0.0.1", cluster.port(shard, name), 10000));
  }
  for (const auto& [shard, name] : killed) {
    ASSERT_EQ(kill(cluster.pid(shard, name), SIGKILL), 0);
    ASSERT_TRUE(ends(cluster.pid(shard, name))) << shard << " " << name;
  }
  for (Xapian::Database& connection : connections) EXPECT_NO_THROW(connection.keep_alive());

  // Shard 0's other replica gone with its group, and its port taken by a
  // process the cluster did not start: stop names it.
  const unsigned taken = cluster.port(0, "replica-1");
  ASSERT_EQ(kill(-cluster.pid(0, "replica-1"), SIGKILL), 0);
  ASSERT_TRUE(ends(cluster.pid(0, "replica-1")));
  const int holder = listen_on_port(taken);
  ASSERT_GE(holder, 0) << std::strerror(errno);

  const RunResult stopped = run_program(local_cluster(), {"stop", cluster.folder});
  close(holder);
  EXPECT_EQ(stopped.exit_code, 1) << stopped.out << stopped.err;
  EXPECT_EQ(stopped.err, "local-cluster: still held after stopping: port " + std::to_string(taken) +
                             " (listening)\n");
  EXPECT_FALSE(fs::exists(fs::path(cluster.folder) / "shard-0" / "replica-0.pid"));
  for (Xapian::Database& connection : connections) {
    EXPECT_THROW(connection.keep_alive(), Xapian::Error) << "a killed server's child serves on";
  }
  for (const unsigned port : ports) EXPECT_FALSE(accepts_connections(port)) << port;
}

}  // namespace
}  // namespace quarry::testing
