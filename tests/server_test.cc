// Runs `quarry serve` as a user would and talks HTTP to it on loopback: the
// API against `quarry --format json`, bad requests, the page without
// JavaScript, an index changing under it, and stopping it.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "app/server/page_markup.h"
#include "tests/child_process.h"
#include "tests/http_client.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// The sample articles (see cli_test.cc).
constexpr char kRaucous[] = "000_574c536d11495eda.txt";

std::chrono::milliseconds allowed(std::chrono::milliseconds idle) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(time_allowed(idle));
}

// `quarry serve` on a free loopback port, stopped (killed) when this goes out
// of scope.
class Server {
 public:
  Server(const fs::path& db, const std::vector<std::string>& options = {}) {
    std::vector<std::string> args{"serve", "--db", db.string(), "--listen", "127.0.0.1:0"};
    if (std::find(options.begin(), options.end(), "-j") == options.end()) {
      args.insert(args.end(), {"-j", "2"});
    }
    args.insert(args.end(), options.begin(), options.end());
    process_ = std::make_unique<ChildProcess>(QUARRY_BIN, args, logs_.path());
    const auto deadline = Clock::now() + allowed(std::chrono::milliseconds(10000));
    constexpr std::string_view kFirstLine = "listening on http://127.0.0.1:";
    std::string out;
    while (Clock::now() < deadline) {
      out = process_->out();
      const std::size_t end = out.find('\n');
      if (end != std::string::npos) {
        if (!out.starts_with(kFirstLine)) break;
        port_ = static_cast<unsigned>(std::stoul(out.substr(kFirstLine.size())));
        return;
      }
      if (!process_->running()) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    throw std::runtime_error("quarry serve did not say where it listens: " + out + process_->err());
  }

  unsigned port() const { return port_; }
  ChildProcess& process() { return *process_; }
  HttpReply get(std::string_view target) const { return http_get(port_, target); }
  json get_json(std::string_view target) const {
    const HttpReply reply = get(target);
    EXPECT_EQ(reply.header("content-type"), "application/json") << target;
    return json::parse(reply.body);
  }

 private:
  TempDir logs_;
  std::unique_ptr<ChildProcess> process_;
  unsigned port_ = 0;
};

// The sample corpus, and one server of it for the tests that only read.
class ServerTest : public SharedIndexTest {
 public:
  static void SetUpTestSuite() {
    SharedIndexTest::SetUpTestSuite();
    open_server();
  }
  static void TearDownTestSuite() {
    server_.reset();
    SharedIndexTest::TearDownTestSuite();
  }

 protected:
  static void open_server() { server_ = std::make_unique<Server>(db_path()); }
  static Server& server() { return *server_; }

 private:
  static std::unique_ptr<Server> server_;
};

std::unique_ptr<Server> ServerTest::server_;

TEST_F(ServerTest, FirstLineNamesTheAddressAndHealthzAnswers) {
  const HttpReply reply = server().get("/healthz");
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(json::parse(reply.body), json::parse(R"({"status": "ok", "articles": 3})"));
}

// One contract, one serializer: the API's answer is quarry's own output.
TEST_F(ServerTest, SearchIsTheCommandLinesJsonByteForByte) {
  struct Case {
    std::string parameters;
    std::vector<std::string> options;
    std::string query;
  };
  const Case cases[] = {
      {"", {}, "penalty Herrera"},
      {"&n=1&offset=1", {"-n", "1", "--offset", "1"}, "penalty"},
      {"&n=0", {"-n", "0"}, "Portuguese"},
      {"&sort=date", {"--sort", "date"}, "penalty"},
      {"&sort=-date", {"--sort", "-date"}, "penalty"},
      {"&match=all", {"--match", "all"}, "Ederson Portuguese"},
      {"&facets=source,category,date", {"--facets", "source,category,date"}, "penalty"},
      {"&count_limit=1", {"--count-limit", "1"}, "penalty"},
      {"&plain=true", {"--plain"}, "What did Herrera say about the penalty?"},
      {"&correct=never", {"--correct", "never"}, "pennalty"},
      {"&correct=always", {"--correct", "always"}, "pennalty"},
      {"", {}, "pennalty"},
      {"&explain=true", {"--explain"}, "penalty Herrera"},
      {"&snippets=false", {"--no-snippets"}, "penalty Herrera"},
      {"&weight=tfidf", {"--weight", "tfidf"}, "penalty"},
      {"&weight=bm25&bm25=k1%3D1.2%2Cb%3D0.75",
       {"--weight", "bm25", "--bm25", "k1=1.2,b=0.75"},
       "penalty"},
      {"&title_weight=2", {"--title-weight", "2"}, "derby"},
      {"", {}, "\"dressing room"},
      {"", {}, "Mourinho AND"},
      {"", {}, "zzyzx"},
      {"", {}, ""},
      {"", {}, "Guardiola’s NEAR Ederson"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args{"--db", db_path(), "--format", "json"};
    args.insert(args.end(), c.options.begin(), c.options.end());
    args.push_back("--");
    args.push_back(c.query);
    const RunResult cli = run_program(QUARRY_BIN, args);
    ASSERT_EQ(cli.exit_code, 0) << c.query << ": " << cli.err;
    const HttpReply reply = server().get("/api/search?q=" + url_encode(c.query) + c.parameters);
    EXPECT_EQ(reply.status, 200) << c.query << c.parameters << ": " << reply.body;
    EXPECT_EQ(reply.header("content-type"), "application/json");
    EXPECT_EQ(reply.body, cli.out) << c.query << c.parameters;
    // Asked again, parameters first: the answer kept is the same.
    const std::string again = c.parameters.empty() ? "/api/search?q=" + url_encode(c.query)
                                                   : "/api/search?" + c.parameters.substr(1) +
                                                         "&q=" + url_encode(c.query);
    EXPECT_EQ(server().get(again).body, cli.out) << again;
  }
}

// Answers are kept by their parameters: none is mistaken for another,
// whatever its values hold.
TEST_F(ServerTest, KeptAnswersAreTheirOwnRequests) {
  EXPECT_EQ(server().get_json("/api/search?q=penalty&sort=date").at("query"), "penalty");
  EXPECT_EQ(server().get_json("/api/search?q=penalty%0Asort%3Ddate").at("query"),
            "penalty\nsort=date");
  EXPECT_EQ(server().get_json("/api/search?q=penalty&collapse=none&n=1").at("hits").size(), 1u);
  EXPECT_EQ(server().get_json("/api/search?q=penalty&collapse=none&n=2").at("hits").size(), 2u);
}

TEST_F(ServerTest, AQueryThatDoesNotParseUnderStrictIs400WithItsColumn) {
  const HttpReply reply = server().get("/api/search?strict=true&q=Mourinho%20AND");
  EXPECT_EQ(reply.status, 400);
  const json answer = json::parse(reply.body);
  EXPECT_EQ(answer.at("status"), 400);
  EXPECT_EQ(answer.at("query"), "Mourinho AND");
  EXPECT_EQ(answer.at("column"), 10);
  const RunResult cli =
      run_program(QUARRY_BIN, {"--db", db_path(), "--strict", "--", "Mourinho AND"});
  EXPECT_EQ(cli.exit_code, 2);
  EXPECT_EQ("quarry: " + answer.at("error").get<std::string>() + "\n", cli.err);
}

// A query of more words than the most a query may hold is refused, not
// searched as its first words.
TEST_F(ServerTest, AQueryOfMoreWordsThanTheMostIs400) {
  std::string words;
  for (int i = 0; i < 1025; ++i) words += "x%20";
  const HttpReply reply = server().get("/api/search?q=" + words);
  EXPECT_EQ(reply.status, 400);
  const json answer = json::parse(reply.body);
  EXPECT_NE(
      answer.at("error").get<std::string>().find("more than 1024 words, the most a query may hold"),
      std::string::npos)
      << answer.dump();
  EXPECT_EQ(answer.at("column"), 2049);
}

// A page that reaches past the count limit is counted as far as it
// reaches: the total never says fewer than the hits it comes with.
TEST_F(ServerTest, APageBeyondTheCountLimitIsCountedToItsEnd) {
  const json two = server().get_json("/api/search?q=penalty&collapse=none&count_limit=1&n=2");
  EXPECT_EQ(two.at("hits").size(), 2u);
  EXPECT_EQ(two.at("total"), 2);
  EXPECT_EQ(two.at("total_relation"), "gte");
  const json all = server().get_json("/api/search?q=penalty&collapse=none&count_limit=1&n=10");
  EXPECT_EQ(all.at("hits").size(), 3u);
  EXPECT_EQ(all.at("total"), 3);
  EXPECT_EQ(all.at("total_relation"), "eq");
}

TEST_F(ServerTest, BadParametersAre400AndSayWhich) {
  struct Case {
    std::string target;
    std::string error;  // a part of the message
  };
  const std::string long_query(5000, 'a');
  const Case cases[] = {
      {"/api/search", "parameter q (the query) is missing"},
      {"/api/search?q=penalty&n=10000000", "parameter n must be a whole number from 0 to 100"},
      {"/api/search?q=penalty&n=-1", "parameter n must be"},
      {"/api/search?q=penalty&n=ten", "parameter n must be"},
      {"/api/search?q=penalty&offset=-1", "parameter offset must be a whole number from 0 to"},
      {"/api/search?q=penalty&offset=99999999999999999999999", "parameter offset must be"},
      {"/api/search?q=" + long_query, "parameter q is longer than 4096 bytes"},
      {"/api/search?q=%FF%FE", "parameter q is not valid UTF-8"},
      {"/api/search?q=%C0%AF", "parameter q is not valid UTF-8"},
      {"/api/search?q=%ED%A0%80", "parameter q is not valid UTF-8"},
      {"/api/search?q=a%00b", "parameter q holds a NUL character"},
      {"/api/search?q=a%2", "parameter q has a malformed %-escape"},
      {"/api/search?q=a%zz", "parameter q has a malformed %-escape"},
      {"/api/search?q=a&q=b", "parameter q given twice"},
      {"/api/search?q=a&limit=5", "unknown parameter limit"},
      {"/api/search?q=a&sort=newest", "parameter sort must be one of relevance, date, -date"},
      {"/api/search?q=a&match=some", "parameter match must be one of auto, any, all"},
      {"/api/search?q=a&plain=yes", "parameter plain must be true or false"},
      {"/api/search?q=a&correct=maybe", "parameter correct must be one of never, auto, always"},
      {"/api/search?q=a&facets=author", "parameter facets"},
      {"/api/search?q=a&count_limit=0", "parameter count_limit must be"},
      {"/api/search?q=a&weight=pagerank", "parameter weight"},
      {"/api/search?q=a&weight=tfidf&bm25=k1%3D1", "parameter bm25 goes with weight bm25"},
      {"/api/search?q=a&bm25=k9%3D1", "parameter bm25"},
      {"/api/search?q=a&title_weight=-1", "parameter title_weight must be"},
      {"/api/search?q=a&recency=7x", "parameter recency: '7x' is not a half-life"},
      {"/api/search?q=a&recency=0d", "parameter recency: '0d' is not a half-life"},
      {"/api/search?q=a&as_of=yesterday", "parameter as_of: 'yesterday' is not a date"},
      {"/api/suggest", "parameter q (the query) is missing"},
      {"/api/suggest?q=a&n=1000", "parameter n must be a whole number from 0 to 50"},
      {"/api/articles/a%00b", "the article id holds a NUL character"},
      {"/api/articles/%FF", "the article id is not valid UTF-8"},
      {"/api/stats?verbose=1", "unknown parameter verbose (this takes none)"},
  };
  for (const Case& c : cases) {
    const HttpReply reply = server().get(c.target);
    EXPECT_EQ(reply.status, 400) << c.target.substr(0, 100) << ": " << reply.body;
    EXPECT_EQ(reply.header("content-type"), "application/json");
    const json answer = json::parse(reply.body);
    EXPECT_EQ(answer.at("status"), 400);
    EXPECT_NE(answer.at("error").get<std::string>().find(c.error), std::string::npos)
        << c.target.substr(0, 100) << ": " << reply.body;
  }
  EXPECT_EQ(server().get("/healthz").status, 200);
}

TEST_F(ServerTest, ArticlesAreFoundByIdAndOthersAre404) {
  const json article = server().get_json("/api/articles/" + std::string(kRaucous));
  EXPECT_EQ(article.at("id"), kRaucous);
  const std::optional<Article> stored = searcher().fetch(kRaucous);
  ASSERT_TRUE(stored);
  EXPECT_EQ(article.at("title"), stored->title);
  EXPECT_EQ(article.at("body"), stored->body);
  EXPECT_FALSE(article.contains("highlights"));

  for (const std::string target :
       {"/api/articles/nothing.txt", "/api/articles/..%2f..%2fetc%2fpasswd",
        "/api/articles/../../etc/passwd", "/api/articles/%2Fetc%2Fpasswd", "/api/articles/"}) {
    const HttpReply reply = server().get(target);
    EXPECT_EQ(reply.status, 404) << target;
    EXPECT_EQ(reply.body.find("root:"), std::string::npos) << target;
    EXPECT_EQ(json::parse(reply.body).at("status"), 404);
  }
}

TEST_F(ServerTest, ArticleHighlightsMarkTheQueryInCodePoints) {
  const json article = server().get_json("/api/articles/" + std::string(kRaucous) + "?q=Herrera");
  const std::u32string body = to_u32(article.at("body").get<std::string>());
  ASSERT_FALSE(article.at("highlights").empty());
  for (const json& range : article.at("highlights")) {
    const auto begin = range.at(0).get<std::size_t>(), end = range.at(1).get<std::size_t>();
    ASSERT_LE(end, body.size());
    EXPECT_EQ(body.substr(begin, end - begin), U"Herrera");
  }
}

TEST_F(ServerTest, SuggestCompletesTheLastWordInTheCaseTyped) {
  const json answer = server().get_json("/api/suggest?q=penalty%20%2BHerr");
  EXPECT_EQ(answer.at("query"), "penalty +Herr");
  EXPECT_EQ(answer.at("words"), json::parse(R"(["Herrera"])"));
  EXPECT_EQ(answer.at("completions"), json::parse(R"(["penalty +Herrera"])"));
  EXPECT_EQ(server().get_json("/api/suggest?q=Ander%20HERR").at("completions"),
            json::parse(R"(["Ander HERRERA"])"));
  EXPECT_EQ(server().get_json("/api/suggest?q=penalty%20herr").at("completions"),
            json::parse(R"(["penalty herrera"])"));
  EXPECT_TRUE(server().get_json("/api/suggest?q=penalty%20").at("completions").empty());
  EXPECT_TRUE(server().get_json("/api/suggest?q=zzyzx").at("completions").empty());
}

TEST_F(ServerTest, StatsAreTheIndexs) {
  const json stats = server().get_json("/api/stats");
  EXPECT_EQ(stats.at("articles"), 3);
  EXPECT_EQ(stats.at("language"), "auto");
  EXPECT_EQ(stats.at("languages"), json::array({"en"}));
  EXPECT_EQ(stats.at("shards"), 1);
  EXPECT_GT(stats.at("distinct_words").get<int>(), 100);
}

TEST_F(ServerTest, UnknownPathsAre404AndOtherMethods405) {
  EXPECT_EQ(server().get("/api/nothing").status, 404);
  EXPECT_EQ(server().get("/etc/passwd").status, 404);
  EXPECT_EQ(server().get("/../../etc/passwd").status, 404);
  HttpConnection connection(server().port());
  connection.send("POST /api/search?q=x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n");
  const std::optional<HttpReply> reply = connection.receive();
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 405);
  EXPECT_EQ(reply->header("allow"), "GET, HEAD");
}

// HEAD is GET without the body.
TEST_F(ServerTest, HeadIsAnsweredAsGetWithoutItsBody) {
  for (const std::string target :
       {"/api/search?q=penalty", "/healthz", "/?q=penalty", "/nothing"}) {
    const HttpReply get = server().get(target);
    HttpConnection connection(server().port());
    connection.send("HEAD " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    const std::optional<HttpReply> head = connection.receive(HttpConnection::kPatience, true);
    ASSERT_TRUE(head) << target;
    EXPECT_EQ(head->status, get.status) << target;
    EXPECT_EQ(head->header("content-type"), get.header("content-type")) << target;
    EXPECT_EQ(head->header("content-length"), std::to_string(get.body.size())) << target;
    EXPECT_EQ(head->body, "") << target;
    // Nothing of a body follows: the next answer on the connection is whole.
    connection.send_get("/healthz");
    const std::optional<HttpReply> next = connection.receive();
    ASSERT_TRUE(next) << target;
    EXPECT_EQ(next->status, 200) << target;
  }
}

// A page of another site whose name is made to resolve to 127.0.0.1 (DNS
// rebinding) sends its own name as the Host: it is refused.
TEST_F(ServerTest, RequestsForAnotherHostAre421) {
  struct Case {
    std::string host;
    int status;
  };
  const Case cases[] = {
      {"127.0.0.1", 200},      {"127.0.0.1:8080", 200}, {"localhost", 200},
      {"LocalHost:80", 200},   {"localhost.", 200},     {"[::1]:8080", 200},
      {"10.0.0.7", 200},       {"evil.example", 421},   {"evil.example:8080", 421},
      {"localhost.evil", 421}, {"127.0.0.1.evil", 421}, {"[::1", 421},
  };
  for (const Case& c : cases) {
    HttpConnection connection(server().port());
    connection.send("GET /api/stats HTTP/1.1\r\nHost: " + c.host + "\r\n\r\n");
    const std::optional<HttpReply> reply = connection.receive();
    ASSERT_TRUE(reply) << c.host;
    EXPECT_EQ(reply->status, c.status) << c.host << ": " << reply->body;
    EXPECT_EQ(reply->header("content-type"), "application/json") << c.host;
    if (c.status == 421) {
      EXPECT_EQ(json::parse(reply->body).at("status"), 421) << c.host;
      EXPECT_EQ(lines_of(reply->body).size(), 1u) << c.host;
    }
  }
  // An HTTP/1.0 client may send no Host.
  HttpConnection old(server().port());
  old.send("GET /healthz HTTP/1.0\r\n\r\n");
  const std::optional<HttpReply> reply = old.receive();
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 200);
}

// Of two Hosts, which one a proxy before the server went by is not known,
// and HTTP/1.1 always names one (RFC 9112, section 3.2): 400, whatever the
// names.
TEST_F(ServerTest, TwoHostsOrAnHttp11RequestWithoutOneIs400) {
  const std::string cases[] = {
      "GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n",
      "GET /api/stats HTTP/1.1\r\nHost: evil.example\r\nHost: 127.0.0.1\r\n\r\n",
      "GET /api/stats HTTP/1.1\r\nHost: localhost\r\nX-A: b\r\nhost: localhost\r\n\r\n",
      "GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1\r\n\r\n",
      "GET /api/stats HTTP/1.1\r\n\r\n",
      "GET /healthz HTTP/1.1\r\nConnection: keep-alive\r\n\r\n",
  };
  for (const std::string& request : cases) {
    HttpConnection connection(server().port());
    connection.send(request);
    const std::optional<HttpReply> reply = connection.receive();
    ASSERT_TRUE(reply) << request;
    EXPECT_EQ(reply->status, 400) << request << reply->body;
    EXPECT_EQ(reply->header("content-type"), "application/json") << request;
    EXPECT_EQ(lines_of(reply->body).size(), 1u) << reply->body;
    // HTTP/1.0 closes unless asked otherwise, and says nothing of it.
    if (request.find("HTTP/1.1") != std::string::npos) {
      EXPECT_EQ(reply->header("connection"), "close") << request;
    }
    EXPECT_TRUE(connection.closed_by_server()) << request;
  }
  EXPECT_EQ(server().get("/healthz").status, 200);
}

TEST(ServerHostTest, AllowHostNamesMoreHosts) {
  TempDir dir;
  index_articles(dir, {{"a.txt", "Penalty", "A penalty.", "", "", ""}});
  for (const std::vector<std::string>& options :
       {std::vector<std::string>{"--allow-host", "news.example,search.example"},
        {"--allow-host", "*"}}) {
    Server server(index_path(dir), options);
    for (const std::string host : {"news.example", "NEWS.example:8080", "search.example"}) {
      HttpConnection connection(server.port());
      connection.send("GET /healthz HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
      const std::optional<HttpReply> reply = connection.receive();
      ASSERT_TRUE(reply) << host;
      EXPECT_EQ(reply->status, 200) << host;
    }
    HttpConnection connection(server.port());
    connection.send("GET /healthz HTTP/1.1\r\nHost: evil.example\r\n\r\n");
    const std::optional<HttpReply> reply = connection.receive();
    ASSERT_TRUE(reply);
    EXPECT_EQ(reply->status, options.back() == "*" ? 200 : 421);
  }
}

// What a broken or hostile client sends is refused, and the server goes on.
TEST_F(ServerTest, MalformedRequestsAreRefusedAndTheServerGoesOn) {
  struct Case {
    std::string request;
    int status;
  };
  const Case cases[] = {
      {"GARBAGE\r\n\r\n", 400},
      {"GET / HTTP/9.9\r\n\r\n", 400},
      {"GET / HTTP/1.1\r\nBad Header\r\n\r\n", 400},
      {"GET /api/search?q=" + std::string(1 << 20, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n", 414},
      {"GET / HTTP/1.1\r\nX-Big: " + std::string(1 << 20, 'a') + "\r\n\r\n", 431},
      {"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n", 413},
  };
  for (const Case& c : cases) {
    HttpConnection connection(server().port());
    connection.send(c.request);
    const std::optional<HttpReply> reply = connection.receive();
    ASSERT_TRUE(reply) << c.request.substr(0, 40);
    EXPECT_EQ(reply->status, c.status) << c.request.substr(0, 40);
    EXPECT_EQ(reply->header("connection"), "close");
    EXPECT_TRUE(connection.closed_by_server()) << c.request.substr(0, 40);
    EXPECT_EQ(server().get("/healthz").status, 200);
  }
}

// An answer to HEAD goes without its body; a refusal of the request after
// it on the same connection does not.
TEST_F(ServerTest, ARefusalAfterHeadComesWithItsBody) {
  HttpConnection connection(server().port());
  connection.send("HEAD /healthz HTTP/1.1\r\nHost: localhost\r\n\r\nGARBAGE\r\n\r\n");
  const std::optional<HttpReply> head = connection.receive(HttpConnection::kPatience, true);
  ASSERT_TRUE(head);
  EXPECT_EQ(head->status, 200);
  const std::optional<HttpReply> refusal = connection.receive();
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->status, 400);
  EXPECT_EQ(json::parse(refusal->body).at("status"), 400);
}

TEST_F(ServerTest, KeepsAConnectionAliveForSeveralRequests) {
  HttpConnection connection(server().port());
  for (int i = 0; i < 3; ++i) {
    connection.send_get("/api/search?q=penalty");
    const std::optional<HttpReply> reply = connection.receive();
    ASSERT_TRUE(reply);
    EXPECT_EQ(json::parse(reply->body).at("total"), 3);
  }
}

TEST_F(ServerTest, ClientsThatSendNothingDoNotStopOthers) {
  std::vector<std::unique_ptr<HttpConnection>> idle;
  for (int i = 0; i < 500; ++i) idle.push_back(std::make_unique<HttpConnection>(server().port()));
  idle.back()->send("GET /api/sea");  // and one that stops halfway
  const auto start = Clock::now();
  const HttpReply reply = server().get("/api/search?q=penalty");
  EXPECT_EQ(reply.status, 200);
  EXPECT_LT(Clock::now() - start, allowed(std::chrono::milliseconds(500)));
}

std::size_t count_of(const std::string& text, std::string_view part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

TEST_F(ServerTest, PageListsHitsWithoutJavaScript) {
  const HttpReply reply = server().get("/?q=penalty+Herrera");
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.header("content-type"), "text/html; charset=utf-8");
  EXPECT_NE(reply.header("content-security-policy").find("script-src 'self'"), std::string::npos);
  const std::string& page = reply.body;
  // The sample's three reports are one story, shown once, the others
  // listed under it by their titles.
  EXPECT_EQ(count_of(page, "<li class=\"hit\">"), 1u);
  EXPECT_NE(page.find("3 articles match, 1 story"), std::string::npos);
  EXPECT_NE(page.find("<mark>Herrera</mark>"), std::string::npos);
  EXPECT_NE(page.find("value=\"penalty Herrera\""), std::string::npos);
  EXPECT_NE(page.find("href=\"/articles/" + std::string(kRaucous) + "?q=penalty%20Herrera\""),
            std::string::npos);
  EXPECT_NE(page.find("<summary>+2 more reports</summary>"), std::string::npos);
  EXPECT_NE(page.find(">Mourinho and Ederson in dressing-room bust-up after Manchester derby</a>"),
            std::string::npos);
  EXPECT_NE(page.find(">United kept City&#39;s cameras out before the derby flashpoint</a>"),
            std::string::npos);
  EXPECT_NE(page.find("href=\"/?like=" + std::string(kRaucous) +
                      "&amp;from=penalty%20Herrera\">More like this"),
            std::string::npos);
}

TEST_F(ServerTest, PageShowsAllReportsWhenAsked) {
  const std::string page = server().get("/?q=penalty+Herrera&collapse=none").body;
  EXPECT_EQ(count_of(page, "<li class=\"hit\">"), 3u);
  EXPECT_NE(page.find("<p class=\"count\" id=\"count\">3 articles match</p>"), std::string::npos);
  EXPECT_EQ(page.find("more reports"), std::string::npos);
  EXPECT_NE(page.find("<option value=\"none\" selected>"), std::string::npos);
  // The page offers what it has a control for.
  EXPECT_EQ(server().get("/?q=penalty&collapse=duplicates").status, 400);
}

TEST_F(ServerTest, PageOfArticlesLikeOneLeavesItOut) {
  const std::string like = "/?like=" + std::string(kRaucous) + "&from=penalty+Herrera";
  HttpReply reply = server().get(like + "&collapse=none");
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(count_of(reply.body, "<li class=\"hit\">"), 2u);
  EXPECT_EQ(reply.body.find("<h2 class=\"title\"><a href=\"/articles/" + std::string(kRaucous)),
            std::string::npos);
  EXPECT_NE(reply.body.find("Articles like <a href=\"/articles/" + std::string(kRaucous) +
                            "\">Mourinho in heated exchange with City players after derby "
                            "defeat</a>"),
            std::string::npos);
  EXPECT_NE(reply.body.find("<a href=\"/?q=penalty%20Herrera&amp;collapse=none\">← Results for "
                            "penalty Herrera</a>"),
            std::string::npos);
  // One hit a story: its own story is left out with it.
  reply = server().get(like);
  EXPECT_EQ(count_of(reply.body, "<li class=\"hit\">"), 0u);
  EXPECT_NE(reply.body.find("show all reports"), std::string::npos);
  reply = server().get("/?like=nothing.txt");
  EXPECT_EQ(reply.status, 404);
  EXPECT_NE(reply.body.find("no article has the id"), std::string::npos);
}

TEST_F(ServerTest, PageExplainsABadRequest) {
  const HttpReply reply = server().get("/?q=penalty&offset=-1");
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(reply.header("content-type"), "text/html; charset=utf-8");
  EXPECT_NE(reply.body.find("parameter offset must be"), std::string::npos);
}

TEST_F(ServerTest, ArticlePageMarksTheQuery) {
  const HttpReply reply = server().get("/articles/" + std::string(kRaucous) + "?q=Herrera");
  EXPECT_EQ(reply.status, 200);
  EXPECT_NE(reply.body.find("<mark>Herrera</mark>"), std::string::npos);
  EXPECT_EQ(server().get("/articles/nothing.txt").status, 404);
}

TEST_F(ServerTest, ServesItsStylesheetAndScript) {
  const HttpReply css = server().get("/search.css");
  EXPECT_EQ(css.status, 200);
  EXPECT_EQ(css.header("content-type"), "text/css; charset=utf-8");
  const HttpReply script = server().get("/search.js");
  EXPECT_EQ(script.status, 200);
  EXPECT_EQ(script.header("content-type"), "text/javascript; charset=utf-8");
  EXPECT_NE(script.body.find("/api/search"), std::string::npos);
}

// English and French reports of one event, and one server of them.
class ServerLanguageTest : public ServerTest {
 public:
  static void SetUpTestSuite() {
    index_suite_articles(english_and_french_articles());
    open_server();
  }
};

TEST_F(ServerLanguageTest, HitsAndArticlesSayTheirLanguage) {
  const json answer = server().get_json("/api/search?q=trains&collapse=none");
  std::map<std::string, std::string> languages;
  for (const json& hit : answer.at("hits")) languages[hit.at("id")] = hit.at("language");
  EXPECT_EQ(languages,
            (std::map<std::string, std::string>{{"strike-en", "en"}, {"strike-fr", "fr"}}));
  EXPECT_EQ(server().get_json("/api/articles/strike-fr").at("language"), "fr");
  EXPECT_EQ(server().get_json("/api/articles/strike-en").at("language"), "en");
}

TEST_F(ServerLanguageTest, LanguagesAreCounted) {
  const json answer = server().get_json("/api/search?q=trains&facets=language");
  EXPECT_EQ(answer.at("facets").at("language"), json::parse(R"([["en", 1], ["fr", 1]])"));
}

// The language parameter is --language: the same answer, byte for byte.
TEST_F(ServerLanguageTest, LanguageParameterSearchesOneLanguage) {
  for (const std::string french : {"fr", "FR", "french"}) {
    const HttpReply reply = server().get("/api/search?q=trains&language=" + french);
    ASSERT_EQ(reply.status, 200) << reply.body;
    const json answer = json::parse(reply.body);
    ASSERT_EQ(answer.at("hits").size(), 1u) << french << ": " << reply.body;
    EXPECT_EQ(answer.at("hits")[0].at("id"), "strike-fr");
    const RunResult cli = run_program(
        QUARRY_BIN, {"--db", db_path(), "--format", "json", "--language", french, "trains"});
    EXPECT_EQ(reply.body, cli.out) << french;
  }
  const HttpReply unknown = server().get("/api/search?q=trains&language=klingon");
  EXPECT_EQ(unknown.status, 400);
  EXPECT_EQ(json::parse(unknown.body).at("error"),
            "parameter language: no language 'klingon': name one by its ISO 639-1 code (fr) or "
            "its name (french)");
}

TEST_F(ServerLanguageTest, PageShowsCountsAndKeepsTheLanguage) {
  const std::string every = server().get("/?q=trains&collapse=none").body;
  EXPECT_EQ(count_of(every, "<li class=\"hit\">"), 2u);
  EXPECT_NE(every.find("<span class=\"language\">fr</span>"), std::string::npos) << every;
  EXPECT_NE(every.find("href=\"/?q=trains%20language%3Afr&amp;collapse=none\">fr</a>"),
            std::string::npos)
      << every;

  const std::string french = server().get("/?q=trains&collapse=none&language=fr").body;
  EXPECT_EQ(count_of(french, "<li class=\"hit\">"), 1u);
  EXPECT_NE(french.find("/articles/strike-fr"), std::string::npos);
  EXPECT_EQ(french.find("/articles/strike-en"), std::string::npos);
  EXPECT_NE(french.find("Only articles in <span>fr</span>"), std::string::npos) << french;
  EXPECT_NE(french.find("name=\"language\" type=\"hidden\" value=\"fr\""), std::string::npos);

  const HttpReply unknown = server().get("/?q=trains&language=klingon");
  EXPECT_EQ(unknown.status, 400);
  EXPECT_NE(unknown.body.find("no language &#39;klingon&#39;"), std::string::npos) << unknown.body;
}

// Servers of an index of their own.

std::vector<Article> news() {
  return {{"a.txt", "Penalty drama at the derby", "Herrera argued about the penalty.", "2017-12-10",
           "sport", "Press Association"},
          {"b.txt", "Markets", "Shares fell.", "2017-12-11", "business", "Reuters"}};
}

TEST(ServerIndexTest, SeesArticlesIndexedAfterItStarted) {
  TempDir dir;
  index_articles(dir, news());
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
  index_articles(dir, news());
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
  index_articles(old_index, news());
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

// "START 12.3 ms": a log line, the request it names and how long it took.
bool is_log_line(const std::string& line, const std::string& start) {
  if (!line.starts_with(start) || !line.ends_with(" ms")) return false;
  const std::string took = line.substr(start.size(), line.size() - start.size() - 3);
  return !took.empty() && took.find_first_not_of("0123456789.") == std::string::npos;
}

TEST(ServerLogTest, OneLinePerRequestUnlessQuiet) {
  TempDir dir;
  index_articles(dir, news());
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
  index_articles(dir, news());
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
  index_articles(dir, news());
  for (const int signal : {SIGTERM, SIGINT}) {
    Server server(index_path(dir), {"--quiet"});
    server.process().signal(signal);
    EXPECT_EQ(server.process().wait(allowed(std::chrono::milliseconds(1000))), 0) << signal;
  }
}

TEST(ServerCliTest, UsageErrorsExit2AndABusyPortExits1) {
  TempDir dir;
  index_articles(dir, news());
  const std::string db = index_path(dir);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"serve", "--db", db, "--listen", "127.0.0.1"},
        {"serve", "--db", db, "--listen", "127.0.0.1:99999"},
        {"serve", "--db", db, "--listen", "example.com:80"},
        {"--db", db, "serve"}}) {
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

// GET `target` with `headers` ("Name: value\r\n" each), on a connection of
// its own: the answer, or with `stream` (an event stream, which has no end)
// its status and headers.
HttpReply get_with(unsigned port, const std::string& target, const std::string& headers,
                   bool stream = false) {
  HttpConnection connection(port);
  connection.send("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + "\r\n");
  const std::optional<HttpReply> reply = stream ? connection.receive_head() : connection.receive();
  if (!reply) throw std::runtime_error("no answer to " + target);
  return *reply;
}

constexpr char kToken[] = "Jx8aQ2vL0pR7tY4wE1uI9oZ3";

TEST(ServerTokenTest, EveryRequestNeedsOneOfTheFilesTokens) {
  TempDir dir;
  index_articles(dir, news());
  write_private_file(dir / "tokens",
                     "\n  first-token-of-the-newsroom\n" + std::string(kToken) + "\n");
  for (const std::vector<std::string>& options :
       {std::vector<std::string>{"--token-file", (dir / "tokens").string()},
        {"--token-file", (dir / "tokens").string(), "--public"}}) {
    Server server(index_path(dir), options);
    for (const std::string target :
         {"/api/search?q=penalty", "/api/stats", "/healthz", "/search.js", "/api/alerts"}) {
      for (const std::string& wrong :
           {std::string(), "Authorization: Bearer " + std::string(kToken).substr(1) + "\r\n",
            std::string("Authorization: Bearer wrong-token-of-the-newsroom\r\n")}) {
        const HttpReply refused = get_with(server.port(), target, wrong);
        EXPECT_EQ(refused.status, 401) << target << ' ' << wrong;
        EXPECT_EQ(refused.header("www-authenticate"), "Bearer") << target;
        EXPECT_EQ(refused.header("content-type"), "application/json") << target;
        if (refused.header("content-type") == "application/json") {
          EXPECT_EQ(json::parse(refused.body)["status"], 401) << target;
        }
      }
      const HttpReply served =
          get_with(server.port(), target, "Authorization: Bearer " + std::string(kToken) + "\r\n",
                   target == "/api/alerts");
      EXPECT_EQ(served.status, 200) << target << ' ' << served.body;
    }
    // The page asks a person for a token, and a browser signed in sends it
    // as a cookie.
    const HttpReply page = get_with(server.port(), "/?q=penalty", "");
    EXPECT_EQ(page.status, 401);
    EXPECT_NE(page.body.find("action=\"/sign-in\""), std::string::npos) << page.body;
    EXPECT_EQ(count_of(page.body, "<li class=\"hit\">"), 0u);
    const HttpReply signed_in = get_with(server.port(), "/?q=penalty",
                                         "Cookie: quarry_token=" + std::string(kToken) + "\r\n");
    EXPECT_EQ(signed_in.status, 200);
    EXPECT_GT(count_of(signed_in.body, "<li class=\"hit\">"), 0u);
  }
}

// On a port a server holds: were the file not read before listening, the
// second server would exit 1 rather than 2 (and never serve on).
TEST(ServerTokenTest, ATokenFileThatCannotBeUsedExits2NamingIt) {
  TempDir dir;
  index_articles(dir, news());
  write_private_file(dir / "empty", "\n\n");
  write_private_file(dir / "short", std::string(kToken) + "\nshort\n");
  Server held(index_path(dir));
  for (const std::string name : {"missing", "empty", "short"}) {
    const std::string file = (dir / name).string();
    const RunResult result =
        run_program(QUARRY_BIN, {"serve", "--db", index_path(dir), "--listen",
                                 "127.0.0.1:" + std::to_string(held.port()), "--token-file", file});
    EXPECT_EQ(result.exit_code, 2) << name << ": " << result.err;
    EXPECT_EQ(result.out, "") << name;
    EXPECT_TRUE(result.err.starts_with("quarry: --token-file " + file + ": ") ||
                result.err.starts_with("quarry: --token-file " + file + ", line 2: "))
        << result.err;
    EXPECT_EQ(count_of(result.err, "\n"), 1u) << result.err;
  }
  const RunResult empty_name =
      run_program(QUARRY_BIN, {"serve", "--db", index_path(dir), "--listen",
                               "127.0.0.1:" + std::to_string(held.port()), "--token-file", ""});
  EXPECT_EQ(empty_name.exit_code, 2) << empty_name.err;
  EXPECT_NE(empty_name.err.find("--token-file"), std::string::npos) << empty_name.err;
}

// A token file others may read has leaked its tokens; a device or a FIFO
// named by mistake would be read without end or wait for a writer forever.
// Each is refused at once, before anything listens. The FIFO's other end is
// never opened: a server that waited for a writer would be stopped after
// the wait's bound, and fail.
TEST(ServerTokenTest, ATokenFileThatIsNotAPrivateRegularFileIsRefusedAtOnce) {
  TempDir dir;
  index_articles(dir, news());
  write_file(dir / "readable", std::string(kToken) + "\n");
  fs::permissions(dir / "readable", fs::perms::owner_read | fs::perms::owner_write |
                                        fs::perms::group_read | fs::perms::others_read);
  std::string many;
  while (many.size() <= (1u << 20)) many += std::string(kToken) + "\n";
  write_private_file(dir / "large", many);
  const fs::path fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  Server held(index_path(dir));
  const std::map<std::string, std::string> refusals = {
      {(dir / "readable").string(),
       "users other than its owner may read it (mode 0644): chmod 600 " +
           (dir / "readable").string()},
      {(dir / "large").string(), "is larger than 1048576 bytes, more than it may hold"},
      {fifo.string(), "is a FIFO, not a regular file"},
      {"/dev/zero", "is a device, not a regular file"},
  };
  for (const auto& [file, reason] : refusals) {
    TempDir logs;
    ChildProcess serve(QUARRY_BIN,
                       {"serve", "--db", index_path(dir), "--listen",
                        "127.0.0.1:" + std::to_string(held.port()), "--token-file", file},
                       logs.path());
    const std::optional<int> code = serve.wait(std::chrono::seconds(60));
    if (!code) {
      ADD_FAILURE() << file << " was still being read after a minute";
      continue;
    }
    EXPECT_EQ(*code, 2) << file << ": " << serve.err();
    EXPECT_EQ(serve.out(), "") << file;
    EXPECT_EQ(serve.err(), "quarry: --token-file " + file + ": " + reason + "\n");
  }
}

// The port a server holds on 127.0.0.1 is taken for 0.0.0.0 too: a server
// that listened there would fail to (exit 1), so exit 2 says that it was
// refused before it tried, and no address other than loopback is ever
// listened on.
TEST(ServerTokenTest, AnAddressOtherThanLoopbackNeedsTokensOrPublic) {
  TempDir dir;
  index_articles(dir, news());
  write_private_file(dir / "tokens", std::string(kToken) + "\n");
  const std::string db = index_path(dir);
  Server held(db);
  const std::string port = std::to_string(held.port());
  for (const std::string address : {"0.0.0.0:", "192.0.2.1:"}) {
    const RunResult refused =
        run_program(QUARRY_BIN, {"serve", "--db", db, "--listen", address + port});
    EXPECT_EQ(refused.exit_code, 2) << address << ": " << refused.err;
    EXPECT_EQ(refused.out, "");
    EXPECT_EQ(refused.err, "quarry: --listen " + address + port +
                               " is not loopback: give --token-file FILE to ask every request for "
                               "a token, or --public to let anyone who can reach it read the "
                               "index\n");
  }
  for (const std::vector<std::string>& allowed :
       {std::vector<std::string>{"--public"},
        {"--token-file", (dir / "tokens").string()},
        {"--token-file", (dir / "tokens").string(), "--public"}}) {
    std::vector<std::string> args{"serve", "--db", db, "--listen", "0.0.0.0:" + port};
    args.insert(args.end(), allowed.begin(), allowed.end());
    const RunResult tried = run_program(QUARRY_BIN, args);
    EXPECT_EQ(tried.exit_code, 1) << allowed.front() << ": " << tried.err;
    EXPECT_NE(tried.err.find("quarry: cannot listen on 0.0.0.0:" + port), std::string::npos)
        << tried.err;
  }
}

TEST(ServerCliTest, ServeAfterDoubleDashIsAWord) {
  TempDir dir;
  index_articles(dir, news());
  const RunResult result = run_program(QUARRY_BIN, {"--db", index_path(dir), "--", "serve"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "No articles match.\n");
}

}  // namespace
}  // namespace quarry::testing
