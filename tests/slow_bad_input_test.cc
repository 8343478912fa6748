// Articles far longer than is indexed: each is cut at the limit, said so,
// and indexed up to it. Slow (see CMakeLists.txt): they write and read
// tens of megabytes.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "quarry/input/article_reader.h"
#include "quarry/search/searcher.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

TEST(SlowBadInputTest, TenMegabyteLineIsCutAndIndexed) {
  TempDir dir;
  std::string body;
  body.reserve(11 << 20);
  while (body.size() < (10u << 20)) body += "wombat marmot ";
  body += "lastword";
  write_file(dir / "long.jsonl",
             json({{"id", "long"}, {"title", "Long"}, {"body", body}}).dump() + "\n");
  const fs::path db = dir / "index";
  const RunResult indexed =
      run_program(QUARRY_INDEX_BIN, {"--db", db.string(), (dir / "long.jsonl").string()});
  EXPECT_EQ(indexed.exit_code, 0) << indexed.err;
  const std::string line = line_naming(indexed.err, (dir / "long.jsonl").string() + ":1");
  EXPECT_NE(line.find("only its first 4.0 MiB are indexed"), std::string::npos) << indexed.err;
  EXPECT_LT(line.size(), 600u) << line.substr(0, 600);
  EXPECT_EQ(hit_ids(db, "wombat"), std::set<std::string>{"long"});
  EXPECT_EQ(hit_ids(db, "lastword"), std::set<std::string>{});  // past what is indexed
}

// A single article of 100 MB.
TEST(SlowBadInputTest, HundredMegabyteArticleIsCutAndIndexed) {
  TempDir dir;
  {
    std::string body = "Huge\n\nbeginning ";
    body.reserve(101 << 20);
    while (body.size() < (100u << 20)) body += "lorem ipsum dolor sit amet ";
    body += "theend\n";
    write_file(dir / "huge.txt", body);
  }
  write_file(dir / "small.txt", "Small\n\nThis article is about the aardvark.\n");
  const fs::path db = dir / "index";
  const RunResult indexed = run_program(QUARRY_INDEX_BIN, {"--db", db.string(), dir.path()});
  EXPECT_EQ(indexed.exit_code, 0) << indexed.err;
  EXPECT_NE(line_naming(indexed.err, (dir / "huge.txt").string())
                .find("article of 100.0 MiB: only its first 4.0 MiB are indexed"),
            std::string::npos)
      << indexed.err;
  EXPECT_EQ(hit_ids(db, "beginning"), std::set<std::string>{"huge.txt"});
  EXPECT_EQ(hit_ids(db, "theend"), std::set<std::string>{});
  EXPECT_EQ(hit_ids(db, "aardvark"), std::set<std::string>{"small.txt"});
  const auto fetched = Searcher(db.string()).fetch("huge.txt");
  ASSERT_TRUE(fetched.has_value());
  EXPECT_LE(fetched->body.size(), kMaxBodyBytes);
  EXPECT_GT(fetched->body.size(), kMaxBodyBytes - 1024);
}

}  // namespace
}  // namespace quarry::testing
