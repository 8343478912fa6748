// Replicas kept current by Xapian's replication, killed while a copy or a
// change is on its way: a replica is only ever served whole, at the last
// revision it received complete, and the next update finishes the job.
#include <gtest/gtest.h>
#include <signal.h>
#include <xapian.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "lib/index/shard_set.h"
#include "quarry/error.h"
#include "quarry/search/searcher.h"
#include "tests/child_process.h"
#include "tests/tcp_proxy.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;

// A proxy for one connection at a time that passes on from the server only
// the first `budget` bytes, then stops reading from it: a copy held in the
// middle, for as long as the test likes. It counts the bytes the server
// sent, so that a first pass can tell how long an update is.
class HoldingProxy : private TcpProxy::ServerBytes {
 public:
  explicit HoldingProxy(unsigned target)
      : proxy_(target, this, TcpProxy::Connections::kOneAtATime) {}

  unsigned port() const { return proxy_.port(); }
  // Passes on at most `bytes` of what the server sends from now on.
  void hold_after(std::size_t bytes) { budget_ = bytes; }
  std::size_t passed() const { return proxy_.passed(); }
  bool holding() const { return proxy_.passed() == budget_; }
  // The loopback port the client connected from, once it has.
  unsigned client_port() const { return proxy_.client_port(); }

 private:
  std::size_t readable() override { return budget_ - proxy_.passed(); }

  std::atomic<std::size_t> budget_{std::numeric_limits<std::size_t>::max()};
  TcpProxy proxy_;  // last: its thread stops before the budget goes
};

// Whether the loopback connection from `local_port` to `remote_port` has
// bytes its process has not read yet (/proc/net/tcp's rx_queue).
bool unread_bytes(unsigned local_port, unsigned remote_port) {
  std::ifstream table("/proc/net/tcp");
  std::string line;
  std::getline(table, line);  // the heading
  while (std::getline(table, line)) {
    std::istringstream fields(line);
    std::string slot, local, remote, state, queues;
    fields >> slot >> local >> remote >> state >> queues;
    const auto port_of = [](const std::string& address) {
      return std::stoul(address.substr(address.find(':') + 1), nullptr, 16);
    };
    if (port_of(local) != local_port || port_of(remote) != remote_port) continue;
    return std::stoul(queues.substr(queues.find(':') + 1), nullptr, 16) != 0;
  }
  return false;
}

// Process `pid`'s state letter (R, S, D …).
char state_of(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  const std::size_t end = line.rfind(')');
  return end != std::string::npos && end + 2 < line.size() ? line[end + 2] : '?';
}

// Until `replicate` has taken in and acted on every byte the proxy passed
// on: nothing unread on its socket, and asleep (waiting for more) twice in
// a row. False when that does not happen within a minute.
bool waits_for_the_rest(ChildProcess& replicate, const HoldingProxy& proxy) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  int asleep = 0;
  while (std::chrono::steady_clock::now() < deadline && replicate.running()) {
    const bool idle = proxy.holding() && !unread_bytes(proxy.client_port(), proxy.port()) &&
                      state_of(replicate.pid()) == 'S';
    asleep = idle ? asleep + 1 : 0;
    if (asleep == 2) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

std::vector<Article> harbour_news(const std::string& prefix, std::size_t count) {
  std::vector<Article> articles;
  for (std::size_t n = 0; n < count; ++n) {
    Article article;
    article.id = prefix + std::to_string(n);
    article.title = "Harbour strike " + std::to_string(n);
    for (std::size_t w = 0; w < 40; ++w) {
      article.body += "Dockers at harbour " + std::to_string(n * 40 + w) + " went on strike. ";
    }
    article.date = "2017-12-30";
    articles.push_back(std::move(article));
  }
  return articles;
}

// A shard set that keeps changesets, served to replicas by
// xapian-replicate-server, and the articles added to it.
class Master {
 public:
  explicit Master(const TempDir& dir)
      : dir_(dir),
        set_((dir.path() / "master").string()),
        port_(free_loopback_port()),
        server_(find_xapian_tool("xapian-replicate-server"),
                {"--interface", "127.0.0.1", "--port", std::to_string(port_), set_}, dir.path()) {}

  // Indexes `articles` into the set (two shards), keeping changesets.
  void add(const std::vector<Article>& articles) {
    const fs::path file = dir_.path() / ("batch-" + std::to_string(++batches_) + ".jsonl");
    write_file(file, to_json_lines(articles));
    const RunResult made =
        run_program(QUARRY_INDEX_BIN,
                    {"--db", set_, "--shards", "2", "--changesets", "5", "-q", file.string()});
    ASSERT_EQ(made.exit_code, 0) << made.err;
  }

  bool serves() { return listens_soon(port_, server_); }
  const std::string& set() const { return set_; }
  unsigned port() const { return port_; }
  Xapian::rev revision() const {
    return Xapian::Database((fs::path(set_) / detail::shard_name(0)).string()).get_revision();
  }

 private:
  const TempDir& dir_;
  std::string set_;
  unsigned port_;
  ChildProcess server_;
  int batches_ = 0;
};

// xapian-replicate's arguments for one update of shard 0 into `replica`
// from `port`.
std::vector<std::string> update_args(unsigned port, const std::string& replica) {
  return {"--host",     "127.0.0.1",     "--port", std::to_string(port), "--master", "shard-0",
          "--one-shot", "--reader-time", "0",      "--verbose",          replica};
}

// One whole update of `replica`; its output.
std::string update(unsigned port, const std::string& replica) {
  const RunResult run =
      run_program(find_xapian_tool("xapian-replicate"), update_args(port, replica));
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  return run.out + run.err;
}

// How many bytes the master sends to bring a replica in the state of
// `replica` up to date: a copy of it is updated through a counting proxy.
std::size_t bytes_of_update(const Master& master, const fs::path& replica, const TempDir& dir,
                            std::string* output) {
  const fs::path probe = dir.path() / "probe";
  fs::remove_all(probe);
  if (fs::exists(replica)) fs::copy(replica, probe, fs::copy_options::recursive);
  HoldingProxy counting(master.port());
  *output = update(counting.port(), probe.string());
  return counting.passed();
}

// Starts an update of `replica` through a proxy that holds it halfway,
// waits until the replica has written what reached it, and kills it.
void kill_halfway(const Master& master, const fs::path& replica, std::size_t bytes,
                  const TempDir& dir) {
  HoldingProxy proxy(master.port());
  proxy.hold_after(bytes / 2);
  ChildProcess replicate(find_xapian_tool("xapian-replicate"),
                         update_args(proxy.port(), replica.string()), dir.path());
  ASSERT_TRUE(waits_for_the_rest(replicate, proxy))
      << "the update was not held halfway: " << proxy.passed() << " of " << bytes
      << " bytes passed; " << replicate.err();
  replicate.signal(SIGKILL);
  ASSERT_EQ(replicate.wait(), 128 + SIGKILL);
}

// Whether xapian-check finds the copy `replica` serves sound: the folder
// its stub file names, as xapian-check does not read stubs.
bool checks_out(const fs::path& replica) {
  std::ifstream stub(replica / "XAPIANDB");
  std::string line, live;
  while (std::getline(stub, line)) {
    if (line.rfind("auto ", 0) == 0) live = line.substr(5);
  }
  if (live.empty()) return false;
  const RunResult check =
      run_program(find_xapian_tool("xapian-check"), {(replica / live).string()});
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  return check.exit_code == 0;
}

std::vector<std::string> ids_of(const SearchResult& result) {
  std::vector<std::string> ids;
  for (const Hit& hit : result.hits) ids.push_back(hit.id);
  return ids;
}

SearchOptions every_hit() {
  SearchOptions options;
  options.limit = 1000;
  return options;
}

// A master of 200 articles served to replicas, and where the test's replica
// goes.
class Replication : public ::testing::Test {
 protected:
  void SetUp() override {
    master.add(harbour_news("first-", 200));
    ASSERT_TRUE(master.serves());
  }

  TempDir dir;
  Master master{dir};
  const fs::path replica = dir.path() / "replica";
};

TEST_F(Replication, AReplicaKilledInTheMiddleOfItsFirstCopyIsNeverServed) {
  std::string output;
  const std::size_t whole = bytes_of_update(master, replica, dir, &output);
  ASSERT_NE(output.find("Update complete: 1 copies"), std::string::npos) << output;
  ASSERT_NO_FATAL_FAILURE(kill_halfway(master, replica, whole, dir));

  // Half a copy is not a database: searching it is an error naming it,
  // never an answer from part of the shard.
  const RunResult search = run_program(QUARRY_BIN, {"--db", replica.string(), "harbour"});
  EXPECT_NE(search.exit_code, 0) << search.out;
  EXPECT_EQ(search.out, "");
  EXPECT_NE(search.err.find(replica.string()), std::string::npos) << search.err;
  EXPECT_EQ(std::count(search.err.begin(), search.err.end(), '\n'), 1) << search.err;

  // Named as one of a shard's replicas, it gives way to the next one: two
  // searchers, one of which starts at it, find every article.
  const fs::path set = master.set();
  write_file(dir.path() / "cluster.stub", "auto " + (set / detail::kLexiconName).string() +
                                              "\nauto " + replica.string() + "\n#replica auto " +
                                              (set / detail::shard_name(0)).string() + "\nauto " +
                                              (set / detail::shard_name(1)).string() + "\n");
  const std::uint64_t all = Searcher(set.string()).count("harbour").total;
  ASSERT_EQ(all, 200u);
  for (int searcher = 0; searcher < 2; ++searcher) {
    Searcher cluster(std::vector<std::string>{(dir.path() / "cluster.stub").string()});
    const CountResult counted = cluster.count("harbour");
    EXPECT_EQ(counted.total, all);
    EXPECT_TRUE(counted.warnings.empty());
  }

  // The next update makes the whole copy.
  EXPECT_NE(update(master.port(), replica.string()).find("Update complete: 1 copies"),
            std::string::npos);
  EXPECT_EQ(Xapian::Database(replica.string()).get_revision(), master.revision());
  EXPECT_TRUE(checks_out(replica));
}

TEST_F(Replication, AReplicaKilledInTheMiddleOfAChangeAnswersAsBeforeIt) {
  update(master.port(), replica.string());
  const Xapian::rev before = Xapian::Database(replica.string()).get_revision();
  ASSERT_EQ(before, master.revision());
  const std::vector<std::string> answered =
      ids_of(Searcher(replica.string()).search("harbour strike", every_hit()));
  ASSERT_FALSE(answered.empty());

  // A change large enough to be cut in the middle, which travels as
  // changesets applied to the replica in place.
  master.add(harbour_news("later-", 200));
  std::string output;
  const std::size_t change = bytes_of_update(master, replica, dir, &output);
  ASSERT_NE(output.find("Update complete: 0 copies"), std::string::npos) << output;
  ASSERT_NO_FATAL_FAILURE(kill_halfway(master, replica, change, dir));

  // The replica is whole, at the revision before the change, and answers
  // exactly as it did.
  EXPECT_TRUE(checks_out(replica));
  EXPECT_EQ(Xapian::Database(replica.string()).get_revision(), before);
  Searcher searcher(replica.string());
  EXPECT_EQ(ids_of(searcher.search("harbour strike", every_hit())), answered);
  EXPECT_EQ(searcher.count("id:later-7").total, 0u);

  // The next update brings the change whole.
  update(master.port(), replica.string());
  EXPECT_EQ(Xapian::Database(replica.string()).get_revision(), master.revision());
  EXPECT_TRUE(checks_out(replica));
  EXPECT_GT(Searcher(replica.string()).count("id:later-7").total, 0u);
}

}  // namespace
}  // namespace quarry::testing
