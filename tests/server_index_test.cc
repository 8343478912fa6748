// Servers of an index of their own: articles indexed after it started,
// ids at their limit, recency, an index that cannot be opened yet, hostile
// titles, and a folder replaced under it.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/server_fixture.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

TEST(ServerIndexTest, SeesArticlesIndexedAfterItStarted) {
  TempDir dir;
  index_articles(dir, served_news());
  Server server(index_path(dir));
  EXPECT_EQ(server.get_json("/api/search?q=zebra").at("total"), 0);
  write_file(
      dir / "more.jsonl",
      to_json_lines({{"c.txt", "Zebra escapes", "A zebra ran.", "2017-12-12", "news", "Reuters"}}));
  const RunResult indexed =
      run_program(QUARRY_INDEX_BIN, index_args(index_path(dir), {dir / "more.jsonl"}));
  ASSERT_EQ(indexed.exit_code, 0) << indexed.err;
  // Every worker sees it, whichever answers.
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(server.get_json("/api/search?q=zebra").at("total"), 1);
    EXPECT_EQ(server.get("/api/articles/c.txt").status, 200);
  }
}

// An id may be as long as kMaxIdBytes, and a URL still reaches it: at the
// limit, in letters of two bytes each percent-encoded in three, it is
// indexed and served; one byte more is refused at indexing, naming the
// line and the limit.
TEST(ServerIndexTest, AnIdAtTheLimitIsServedAndOnePastItIsRefusedAtIndexing) {
  TempDir dir;
  std::string at_limit;
  std::string encoded;
  for (int i = 0; i < 256; ++i) {
    at_limit += "\xC3\xA9";
    encoded += "%C3%A9";
  }
  write_file(dir / "ids.jsonl",
             to_json_lines({{at_limit, "Zebra", "A zebra ran.", "", "", ""},
                            {at_limit + "x", "Zebra again", "Another zebra.", "", "", ""}}));
  const RunResult indexed = run_program(
      QUARRY_INDEX_BIN, {"--db", (dir / "index").string(), (dir / "ids.jsonl").string()});
  EXPECT_EQ(indexed.exit_code, 3) << indexed.err;
  EXPECT_NE(indexed.err.find((dir / "ids.jsonl").string() + ":2: id '"), std::string::npos)
      << indexed.err;
  EXPECT_NE(indexed.err.find("…' is 513 bytes long; an id may be 512 bytes at most (skipped)\n"),
            std::string::npos)
      << indexed.err;
  Server server(dir / "index");
  const json found = server.get_json("/api/search?q=zebra");
  EXPECT_EQ(found.at("total"), 1);
  EXPECT_EQ(found.at("hits").at(0).at("id"), at_limit);
  const HttpReply article = server.get("/api/articles/" + encoded);
  ASSERT_EQ(article.status, 200) << article.body;
  EXPECT_EQ(json::parse(article.body).at("id"), at_limit);
  EXPECT_EQ(server.get("/articles/" + encoded + "?q=zebra").status, 200);
}

TEST(ServerIndexTest, RecencyRanksNewerArticlesHigher) {
  TempDir dir;
  index_articles(dir, recency_articles());
  Server server(index_path(dir));
  const auto ids = [&](const std::string& target) {
    std::vector<std::string> ranked;
    const json answer = server.get_json(target);
    for (const json& hit : answer.at("hits")) ranked.push_back(hit.at("id"));
    if (ranked.empty()) ADD_FAILURE() << answer.dump();
    return ranked;
  };
  EXPECT_EQ(ids("/api/search?q=lighthouse"),
            (std::vector<std::string>{"lighthouse-old", "lighthouse-new"}));
  EXPECT_EQ(ids("/api/search?q=lighthouse&recency=7d&as_of=2024-05-01"),
            (std::vector<std::string>{"lighthouse-new", "lighthouse-old"}));
}

// The page's "Newest relevant" ranks by relevance weighed by recency.
TEST(ServerIndexTest, PageRanksNewestRelevantFirst) {
  TempDir dir;
  index_articles(dir, recency_articles());
  Server server(index_path(dir));
  const auto first = [&](const std::string& target) {
    const HttpReply reply = server.get(target);
    EXPECT_EQ(reply.status, 200) << reply.body;
    const std::size_t old = reply.body.find("/articles/lighthouse-old");
    const std::size_t young = reply.body.find("/articles/lighthouse-new");
    EXPECT_TRUE(old != std::string::npos && young != std::string::npos) << reply.body;
    return old < young ? "lighthouse-old" : "lighthouse-new";
  };
  EXPECT_EQ(first("/?q=lighthouse&collapse=none"), std::string("lighthouse-old"));
  EXPECT_EQ(first("/?q=lighthouse&collapse=none&sort=recent"), std::string("lighthouse-new"));
}

TEST(ServerIndexTest, AnIndexThatCannotBeOpenedIs503UntilItCan) {
  TempDir dir;
  Server server(index_path(dir));
  EXPECT_NE(server.process().err().find("answering 503 until it can be opened"), std::string::npos)
      << server.process().err();
  for (const std::string target : {"/healthz", "/api/search?q=penalty", "/api/stats"}) {
    const HttpReply reply = server.get(target);
    EXPECT_EQ(reply.status, 503) << target;
    EXPECT_FALSE(json::parse(reply.body).at("error").get<std::string>().empty());
  }
  EXPECT_EQ(server.get("/?q=penalty").status, 503);
  index_articles(dir, served_news());
  EXPECT_EQ(server.get("/healthz").status, 200);
  EXPECT_EQ(server.get_json("/api/search?q=penalty").at("total"), 1);
}

TEST(ServerIndexTest, AHostileTitleIsText) {
  TempDir dir;
  index_articles(dir, {{"x.txt", "<script>alert(1)</script> & \"quotes\"",
                        "<img src=x onerror=alert(2)> penalty", "", "", ""}});
  Server server(index_path(dir));
  const HttpReply page = server.get("/?q=penalty");
  EXPECT_EQ(page.body.find("<script>alert"), std::string::npos);
  EXPECT_EQ(page.body.find("<img"), std::string::npos);
  EXPECT_NE(page.body.find("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;"),
            std::string::npos);
  EXPECT_NE(page.body.find("&lt;img src=x onerror=alert(2)&gt; <mark>penalty</mark>"),
            std::string::npos);
  const HttpReply article = server.get("/articles/x.txt");
  EXPECT_EQ(article.body.find("<script>alert"), std::string::npos);
  EXPECT_EQ(server.get_json("/api/articles/x.txt").at("title"),
            "<script>alert(1)</script> & \"quotes\"");
}

// Another index moved or copied in place of the one served: every request
// after that, whichever worker answers, is the new index's, with none of the
// old one's articles and no error.
TEST(ServerIndexTest, AFolderReplacedUnderItIsServedAnew) {
  TempDir old_index, new_index, served;
  index_articles(old_index, served_news());
  index_articles(
      new_index,
      {{"z.txt", "Zebra escapes", "A zebra ran.", "2017-12-12", "news", "Reuters"},
       {"y.txt", "Zebra found", "The zebra came back.", "2017-12-13", "news", "Reuters"}});
  const fs::path live = served.path() / "live";
  for (const bool by_moving : {true, false}) {
    fs::remove_all(live);
    fs::copy(index_path(old_index), live, fs::copy_options::recursive);
    Server server(live, {"-j", "3"});
    EXPECT_EQ(server.get_json("/api/search?q=penalty").at("total"), 1);
    if (by_moving) {
      fs::copy(index_path(new_index), served.path() / "new", fs::copy_options::recursive);
      fs::rename(live, served.path() / "old");
      fs::rename(served.path() / "new", live);
      fs::remove_all(served.path() / "old");
    } else {
      fs::remove_all(live);
      fs::copy(index_path(new_index), live, fs::copy_options::recursive);
    }
    // Requests side by side, so that every worker answers some.
    for (int round = 0; round < 8; ++round) {
      std::vector<std::unique_ptr<HttpConnection>> connections;
      const std::string targets[] = {"/api/search?q=zebra",
                                     "/api/search?q=penalty",
                                     "/api/articles/z.txt",
                                     "/api/articles/a.txt",
                                     "/healthz",
                                     "/api/search?q=zebra&n=1"};
      for (const std::string& target : targets) {
        connections.push_back(std::make_unique<HttpConnection>(server.port()));
        connections.back()->send_get(target);
      }
      std::vector<HttpReply> replies;
      for (auto& connection : connections) {
        std::optional<HttpReply> reply = connection->receive();
        ASSERT_TRUE(reply) << by_moving;
        replies.push_back(*reply);
      }
      EXPECT_EQ(replies[0].status, 200) << by_moving << replies[0].body;
      EXPECT_EQ(json::parse(replies[0].body).value("total", -1), 2) << by_moving;
      EXPECT_EQ(json::parse(replies[1].body).value("total", -1), 0) << by_moving;
      EXPECT_EQ(replies[2].status, 200) << by_moving << replies[2].body;
      EXPECT_EQ(replies[3].status, 404) << by_moving << replies[3].body;
      EXPECT_EQ(json::parse(replies[4].body), json::parse(R"({"status": "ok", "articles": 2})"))
          << by_moving;
      EXPECT_EQ(json::parse(replies[5].body).value("total", -1), 2) << by_moving;
    }
  }
}

}  // namespace
}  // namespace quarry::testing
