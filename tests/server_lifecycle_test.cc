// quarry serve at work and stopping: slow searches and time limits, one
// log line per request, signals, and its own usage errors.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "app/server/page_markup.h"
#include "tests/server_fixture.h"

namespace quarry::testing {
namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// An index where `a*` stands for 500 words, each in most of its articles:
// a query of 300 of them keeps a worker busy for seconds, on any machine,
// when the server lets it (slow_server).
void index_of_many_words(const TempDir& dir) {
  std::vector<std::string> words;
  std::uint32_t seed = 7;
  const auto next = [&seed] { return seed = seed * 1664525u + 1013904223u; };
  for (int i = 0; i < 500; ++i) {
    std::string word = "a";
    for (int letter = 0; letter < 7; ++letter) word += static_cast<char>('a' + next() % 26);
    words.push_back(word);
  }
  std::vector<Article> articles;
  for (int i = 0; i < 600; ++i) {
    std::string body;
    for (int w = 0; w < 100; ++w) body += words[next() % words.size()] + ' ';
    articles.push_back({"g" + std::to_string(i) + ".txt", "Words", body, "", "", ""});
  }
  index_articles(dir, articles);
}

// Options that let a search of many wildcards run as long as it takes.
const std::vector<std::string> kNoSearchLimits = {"--time-limit", "0", "--max-query-terms",
                                                  "1000000"};

std::vector<std::string> slow_server(std::vector<std::string> options) {
  options.insert(options.end(), kNoSearchLimits.begin(), kNoSearchLimits.end());
  return options;
}

std::string slow_search() {
  std::string query;
  for (int i = 0; i < 300; ++i) query += "a* ";
  return "/api/search?q=" + url_encode(query);
}

// "START 12.3 ms": a log line, the request it names and how long it took.
bool is_log_line(const std::string& line, const std::string& start) {
  if (!line.starts_with(start) || !line.ends_with(" ms")) return false;
  const std::string took = line.substr(start.size(), line.size() - start.size() - 3);
  return !took.empty() && took.find_first_not_of("0123456789.") == std::string::npos;
}

TEST(ServerSlowSearchTest, HealthzAnswersWhileEveryWorkerSearches) {
  TempDir dir;
  index_of_many_words(dir);
  Server server(index_path(dir), slow_server({"-j", "1"}));
  HttpConnection slow(server.port());
  slow.send_get(slow_search());
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  HttpConnection health(server.port());
  health.send_get("/healthz");
  const std::optional<HttpReply> reply = health.receive(allowed(std::chrono::milliseconds(5000)));
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 200);
}

// A search still running when the grace runs out is answered 503, and the
// server exits without waiting for it.
TEST(ServerSlowSearchTest, ASignalDuringASlowSearchStopsTheServer) {
  TempDir dir;
  index_of_many_words(dir);
  Server server(index_path(dir), slow_server({"-j", "1", "--quiet"}));
  HttpConnection slow(server.port());
  slow.send_get(slow_search());
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  server.process().signal(SIGTERM);
  const std::optional<HttpReply> reply = slow.receive(allowed(std::chrono::milliseconds(5000)));
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 503) << reply->body;
  EXPECT_EQ(json::parse(reply->body).at("status"), 503);
  EXPECT_EQ(server.process().wait(allowed(std::chrono::milliseconds(5000))), 0);
}

// A search past its time limit answers with what it found by then, and
// says so; a request may ask for less time than the server allows.
TEST(ServerTimeLimitTest, ASearchPastItsTimeLimitAnswersTimedOut) {
  TempDir dir;
  index_of_many_words(dir);
  Server server(index_path(dir), {"-j", "1", "--quiet"});
  const json unhurried = server.get_json(slow_search());
  EXPECT_EQ(unhurried.at("timed_out"), false) << unhurried.dump();
  EXPECT_EQ(unhurried.at("total_relation"), "eq");
  const HttpReply reply = server.get(slow_search() + "&time_limit=0.000000001");
  ASSERT_EQ(reply.status, 200) << reply.body;
  const json hurried = json::parse(reply.body);
  EXPECT_EQ(hurried.at("timed_out"), true) << reply.body;
  EXPECT_EQ(hurried.at("total_relation"), "gte");
  EXPECT_FALSE(hurried.at("hits").empty()) << reply.body;
}

TEST(ServerTimeLimitTest, ARequestCannotAskForMoreTimeThanTheServerAllows) {
  TempDir dir;
  index_of_many_words(dir);
  Server server(index_path(dir), {"-j", "1", "--quiet", "--time-limit", "0.000000001"});
  for (const std::string asked : {"", "&time_limit=0", "&time_limit=60"}) {
    const json answer = server.get_json(slow_search() + asked);
    EXPECT_EQ(answer.at("timed_out"), true) << asked;
  }
}

TEST(ServerLogTest, OneLinePerRequestUnlessQuiet) {
  TempDir dir;
  index_articles(dir, served_news());
  {
    Server server(index_path(dir));
    server.get("/api/search?q=secret+words");
    server.get("/api/nothing");
    server.process().signal(SIGTERM);
    ASSERT_TRUE(server.process().wait(allowed(std::chrono::milliseconds(1000))));
    const std::vector<std::string> lines = lines_of(server.process().err());
    ASSERT_EQ(lines.size(), 2u) << server.process().err();
    EXPECT_TRUE(is_log_line(lines[0], "quarry: GET /api/search 200 ")) << lines[0];
    EXPECT_TRUE(is_log_line(lines[1], "quarry: GET /api/nothing 404 ")) << lines[1];
  }
  Server quiet(index_path(dir), {"--quiet"});
  quiet.get("/api/search?q=penalty");
  quiet.process().signal(SIGTERM);
  ASSERT_TRUE(quiet.process().wait(allowed(std::chrono::milliseconds(1000))));
  EXPECT_EQ(quiet.process().err(), "");
}

// Requests received before the signal are answered, and one that has begun
// to arrive; idle connections are closed; then the server exits 0, within a
// second.
TEST(ServerSignalTest, StopsAnsweringWhatItReceived) {
  TempDir dir;
  index_articles(dir, served_news());
  for (const int signal : {SIGTERM, SIGINT}) {
    Server server(index_path(dir), {"--quiet"});
    HttpConnection idle(server.port());
    std::vector<std::unique_ptr<HttpConnection>> busy;
    for (int i = 0; i < 8; ++i) {
      busy.push_back(std::make_unique<HttpConnection>(server.port()));
      busy.back()->send_get("/api/search?q=penalty&facets=source,category,date");
    }
    // A request that has begun to arrive is waited for, within the grace.
    HttpConnection partial(server.port());
    partial.send("GET /api/search?q=penalty HTTP/1.1\r\n");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const auto start = Clock::now();
    server.process().signal(signal);
    // Idle connections are closed at once, not at the end of the grace.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_TRUE(idle.closed_by_server(std::chrono::milliseconds(400)));
    partial.send("Host: 127.0.0.1\r\n\r\n");
    const std::optional<HttpReply> late = partial.receive();
    ASSERT_TRUE(late) << signal;
    EXPECT_EQ(late->status, 200);
    for (auto& connection : busy) {
      const std::optional<HttpReply> reply = connection->receive();
      ASSERT_TRUE(reply) << signal;
      ASSERT_EQ(reply->status, 200) << reply->body;
      EXPECT_EQ(json::parse(reply->body).at("total"), 1);
    }
    EXPECT_EQ(server.process().wait(allowed(std::chrono::milliseconds(1000))), 0) << signal;
    EXPECT_LT(Clock::now() - start, allowed(std::chrono::milliseconds(1000)));
    EXPECT_THROW(HttpConnection{server.port()}, std::runtime_error);
  }
}

TEST(ServerSignalTest, ASignalRightAfterTheFirstLineStopsItCleanly) {
  TempDir dir;
  index_articles(dir, served_news());
  for (const int signal : {SIGTERM, SIGINT}) {
    Server server(index_path(dir), {"--quiet"});
    server.process().signal(signal);
    EXPECT_EQ(server.process().wait(allowed(std::chrono::milliseconds(1000))), 0) << signal;
  }
}

TEST(ServerCliTest, UsageErrorsExit2AndABusyPortExits1) {
  TempDir dir;
  index_articles(dir, served_news());
  const std::string db = index_path(dir);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"serve", "--db", db, "--listen", "127.0.0.1"},
        {"serve", "--db", db, "--listen", "127.0.0.1:99999"},
        {"serve", "--db", db, "--listen", "example.com:80"},
        {"-n", "5", "serve", "--db", db}}) {
    const RunResult result = run_program(QUARRY_BIN, args);
    EXPECT_EQ(result.exit_code, 2) << args.back() << ": " << result.err;
    EXPECT_EQ(result.out, "");
  }
  Server server(db);
  const RunResult busy = run_program(
      QUARRY_BIN, {"serve", "--db", db, "--listen", "127.0.0.1:" + std::to_string(server.port())});
  EXPECT_EQ(busy.exit_code, 1);
  EXPECT_NE(busy.err.find("quarry: cannot listen on 127.0.0.1:" + std::to_string(server.port())),
            std::string::npos)
      << busy.err;
}

TEST(ServerCliTest, ServeAfterDoubleDashIsAWord) {
  TempDir dir;
  index_articles(dir, served_news());
  const RunResult result = run_program(QUARRY_BIN, {"--db", index_path(dir), "--", "serve"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "No articles match.\n");
}

}  // namespace
}  // namespace quarry::testing
