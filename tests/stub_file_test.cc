// Reading Xapian stub files: every line form Xapian accepts, and a message
// naming the file and line for one it does not.
#include "lib/index/stub_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "quarry/error.h"
#include "tests/test_util.h"

namespace quarry::detail {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;
using testing::write_file;
using Kind = ShardLocation::Kind;

// The message of the IndexError that reading `path` throws; empty when none.
std::string resolve_failure(const std::string& path) {
  try {
    resolve_shards({path});
  } catch (const IndexError& error) {
    return error.what();
  }
  return "";
}

TEST(StubFile, ReadsEachLineForm) {
  const TempDir dir;
  const fs::path folder = dir / "set";
  const struct {
    std::string line;
    ShardLocation expected;
  } cases[] = {
      {"auto shard-0", {Kind::kLocal, (folder / "shard-0").string(), "", 0, ""}},
      {"glass ./a/../shard-1", {Kind::kLocal, (folder / "shard-1").string(), "", 0, ""}},
      {"chert ../elsewhere", {Kind::kLocal, (dir / "elsewhere").string(), "", 0, ""}},
      {"auto /srv/news/shard-2", {Kind::kLocal, "/srv/news/shard-2", "", 0, ""}},
      {"remote 10.0.0.2:5001", {Kind::kTcp, "", "10.0.0.2", 5001, ""}},
      {"remote shardhost:65535", {Kind::kTcp, "", "shardhost", 65535, ""}},
      {"tcp 10.0.0.3 5002", {Kind::kTcp, "", "10.0.0.3", 5002, ""}},
      {"remote :xapian-progsrv /srv/a", {Kind::kProgram, "xapian-progsrv", "", 0, "/srv/a"}},
      {"remote :ssh host xapian-progsrv /srv/b",
       {Kind::kProgram, "ssh", "", 0, "host xapian-progsrv /srv/b"}},
      {"remote :local-server", {Kind::kProgram, "local-server", "", 0, ""}},
      {"prog xapian-progsrv /srv/c", {Kind::kProgram, "xapian-progsrv", "", 0, "/srv/c"}},
  };
  for (const auto& c : cases) {
    write_file(folder / kStubFileName, c.line + "\n");
    const std::vector<ShardLocation> shards = resolve_shards({folder.string()});
    ASSERT_EQ(shards.size(), 1u) << c.line;
    EXPECT_EQ(shards[0].kind, c.expected.kind) << c.line;
    EXPECT_EQ(shards[0].path, c.expected.path) << c.line;
    EXPECT_EQ(shards[0].host, c.expected.host) << c.line;
    EXPECT_EQ(shards[0].port, c.expected.port) << c.line;
    EXPECT_EQ(shards[0].args, c.expected.args) << c.line;
  }
}

TEST(StubFile, SkipsCommentsAndBlankLinesAndKeepsOrder) {
  const TempDir dir;
  write_file(dir / "stub", "# the lexicon first\n\nauto lexicon\r\n#auto ignored\nauto shard-0\n");
  const std::vector<ShardLocation> shards = resolve_shards({(dir / "stub").string()});
  ASSERT_EQ(shards.size(), 2u);
  EXPECT_EQ(shards[0].path, (dir / "lexicon").string()) << "a Windows line end is not the name's";
  EXPECT_EQ(shards[1].path, (dir / "shard-0").string());
}

TEST(StubFile, FollowsStubsNamedByStubs) {
  const TempDir dir;
  write_file(dir / "set" / kStubFileName, "auto lexicon\nauto shard-0\n");
  write_file(dir / "all", "auto set\nremote 10.0.0.9:5009\n");
  fs::create_directories(dir / "plain");
  const std::vector<ShardLocation> shards =
      resolve_shards({(dir / "all").string(), (dir / "plain").string()});
  ASSERT_EQ(shards.size(), 4u);
  EXPECT_EQ(shards[0].path, (dir / "set" / "lexicon").string());
  EXPECT_EQ(shards[1].path, (dir / "set" / "shard-0").string());
  EXPECT_EQ(shards[2].name(), "remote 10.0.0.9:5009");
  EXPECT_EQ(shards[3].path, (dir / "plain").string()) << "a path with no stub is one database";
}

TEST(StubFile, BadLinesNameTheFileAndLine) {
  const TempDir dir;
  const std::string stub = (dir / "stub").string();
  const struct {
    const char* line;
    std::string message;
  } cases[] = {
      {"auto", "'auto' needs a path"},
      {"glass   ", "'glass' needs a path"},
      {"remote shardhost", "expected 'remote HOST:PORT'"},
      {"remote :", "a remote program needs a name"},
      {"prog", "a remote program needs a name"},
      {"remote shardhost:0", "'0' is not a port number"},
      {"remote shardhost:65536", "'65536' is not a port number"},
      {"remote shardhost:50x1", "'50x1' is not a port number"},
      {"tcp shardhost", "'' is not a port number"},
      {"flint shard-0",
       "expected 'auto PATH', 'remote HOST:PORT' or 'remote :PROGRAM ARGS', not "
       "'flint'"},
  };
  for (const auto& c : cases) {
    // Comments and blank lines count: the bad line is the file's fourth.
    write_file(stub, std::string("# a stub\nauto shard-0\n\n") + c.line + "\nauto shard-1\n");
    EXPECT_EQ(resolve_failure(stub), stub + ":4: " + c.message) << c.line;
  }
}

TEST(StubFile, ReplicaLinesFollowTheDatabaseTheyCopy) {
  const TempDir dir;
  write_file(dir / "copy" / kStubFileName, "auto replica_1\n");
  write_file(dir / "stub",
             "auto lexicon\n"
             "remote 10.0.0.2:5001\n"
             "#replica remote 10.0.0.3:5001\n"
             "#replica tcp 10.0.0.4 5001\n"
             "# a comment between shards\n"
             "remote 10.0.0.2:5002\n"
             "#replica auto copy\n");
  const std::vector<std::vector<ShardLocation>> shards =
      resolve_replicas({(dir / "stub").string()});
  ASSERT_EQ(shards.size(), 3u);
  ASSERT_EQ(shards[0].size(), 1u);
  EXPECT_EQ(shards[0][0].path, (dir / "lexicon").string());
  ASSERT_EQ(shards[1].size(), 3u);
  EXPECT_EQ(shards[1][0].name(), "remote 10.0.0.2:5001");
  EXPECT_EQ(shards[1][1].name(), "remote 10.0.0.3:5001");
  EXPECT_EQ(shards[1][2].name(), "remote 10.0.0.4:5001");
  ASSERT_EQ(shards[2].size(), 2u);
  EXPECT_EQ(shards[2][0].name(), "remote 10.0.0.2:5002");
  EXPECT_EQ(shards[2][1].path, (dir / "copy" / "replica_1").string())
      << "a replica's stub naming one database is that database";

  // As Xapian reads the stub: the first copy of each database.
  const std::vector<ShardLocation> first = resolve_shards({(dir / "stub").string()});
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(first[1].name(), "remote 10.0.0.2:5001");
  EXPECT_EQ(first[2].name(), "remote 10.0.0.2:5002");
}

TEST(StubFile, AReplicaOfNoOneDatabaseIsAnError) {
  const TempDir dir;
  write_file(dir / "set" / kStubFileName, "auto shard-0\nauto shard-1\n");
  const std::string stub = (dir / "stub").string();
  const struct {
    std::string text;
    std::string message;
  } cases[] = {
      {"#replica remote 10.0.0.3:5001\n",
       stub + ":1: a replica must follow the line of the one database it copies"},
      {"auto set\n#replica remote 10.0.0.3:5001\n",
       stub + ":2: a replica must follow the line of the one database it copies"},
      {"remote 10.0.0.2:5001\n#replica auto set\n", stub + ":2: a replica must name one database"},
      {"remote 10.0.0.2:5001\n#replica remote shardhost\n",
       stub + ":2: expected 'remote HOST:PORT'"},
  };
  for (const auto& c : cases) {
    write_file(stub, c.text);
    EXPECT_EQ(resolve_failure(stub), c.message) << c.text;
  }
}

TEST(StubFile, ALoopOfStubsIsAnError) {
  const TempDir dir;
  write_file(dir / "a", "auto b\n");
  write_file(dir / "b", "auto a\n");
  EXPECT_NE(resolve_failure((dir / "a").string()).find(": stub files name each other in a loop"),
            std::string::npos);
}

TEST(StubFile, AMissingPathIsIndexNotFound) {
  const TempDir dir;
  const std::string missing = (dir / "missing").string();
  try {
    resolve_shards({missing});
    FAIL() << "no error";
  } catch (const IndexNotFoundError& error) {
    EXPECT_EQ(
        std::string(error.what()),
        "no index at " + missing + "; build one with: quarry-index --db " + missing + " FOLDER");
  }
  write_file(dir / "stub", "auto missing\n");
  const std::vector<ShardLocation> named = resolve_shards({(dir / "stub").string()});
  ASSERT_EQ(named.size(), 1u) << "a database a stub names is listed, for opening it to tell";
  EXPECT_EQ(named[0].path, missing);
}

TEST(StubFile, StubFileOfFindsTheStubAPathStandsFor) {
  const TempDir dir;
  write_file(dir / "set" / kStubFileName, "auto shard-0\n");
  write_file(dir / "stub", "auto set\n");
  fs::create_directories(dir / "database");
  const struct {
    fs::path path;
    std::string stub;
  } cases[] = {
      {dir / "set", (dir / "set" / kStubFileName).string()},
      {dir / "stub", (dir / "stub").string()},
      {dir / "database", ""},
      {dir / "missing", ""},
  };
  for (const auto& c : cases) EXPECT_EQ(stub_file_of(c.path.string()), c.stub) << c.path;
}

TEST(StubFile, NamesShardsAsAPersonWouldWriteThem) {
  const struct {
    ShardLocation shard;
    const char* name;
  } cases[] = {
      {{Kind::kLocal, "/srv/news/shard-0", "", 0, ""}, "/srv/news/shard-0"},
      {{Kind::kTcp, "", "10.0.0.2", 5001, ""}, "remote 10.0.0.2:5001"},
      {{Kind::kProgram, "xapian-progsrv", "", 0, "/srv/a"}, "remote :xapian-progsrv /srv/a"},
      {{Kind::kProgram, "local-server", "", 0, ""}, "remote :local-server"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(c.shard.name(), c.name);
    EXPECT_EQ(c.shard.remote(), c.shard.kind != Kind::kLocal) << c.name;
  }
}

}  // namespace
}  // namespace quarry::detail
