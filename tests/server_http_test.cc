// quarry serve speaking HTTP to what clients send: unknown paths and
// methods, HEAD, requests for another host, malformed requests, kept-alive
// connections and clients that send nothing.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/server_fixture.h"

namespace quarry::testing {
namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

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

}  // namespace
}  // namespace quarry::testing
