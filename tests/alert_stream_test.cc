// quarry serve's /api/alerts, talked to over loopback: the events of alerts
// appended while a client listens, resuming from a cursor, the cap on
// streams, searches answered while streams are open, and a stop that ends
// them.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "app/server/alert_streams.h"
#include "quarry/search/alert_log.h"
#include "tests/child_process.h"
#include "tests/http_client.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

std::chrono::milliseconds allowed(std::chrono::seconds idle) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(time_allowed(idle));
}

// The status of a GET of `target` once it is not 503 (every stream
// taken), asking again every `interval`: 503 still after `patience`, 0
// when a request gets no answer.
int status_once_placed(unsigned port, const std::string& target, std::chrono::seconds patience,
                       std::chrono::milliseconds interval) {
  const auto deadline = Clock::now() + allowed(patience);
  int status = 503;
  while (status == 503 && Clock::now() < deadline) {
    HttpConnection connection(port);
    connection.send_get(target);
    const std::optional<HttpReply> head =
        connection.receive_head(allowed(std::chrono::seconds(10)));
    if (!head) return 0;
    status = head->status;
    if (status == 503) std::this_thread::sleep_for(interval);
  }
  return status;
}

// `quarry serve` of the English and French sample on a free loopback port,
// with `options`; killed when this goes out of scope.
class AlertServer {
 public:
  explicit AlertServer(const std::vector<std::string>& options = {}) {
    index_articles(dir_, english_and_french_articles());
    std::vector<std::string> args{"serve", "--db", index(), "--listen", "127.0.0.1:0", "-q"};
    args.insert(args.end(), options.begin(), options.end());
    process_ = std::make_unique<ChildProcess>(QUARRY_BIN, args, logs_.path());
    constexpr std::string_view kFirstLine = "listening on http://127.0.0.1:";
    const auto deadline = Clock::now() + allowed(std::chrono::seconds(10));
    while (Clock::now() < deadline && process_->running()) {
      const std::string out = process_->out();
      if (out.find('\n') != std::string::npos && out.starts_with(kFirstLine)) {
        port_ = static_cast<unsigned>(std::stoul(out.substr(kFirstLine.size())));
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    throw std::runtime_error("quarry serve did not start: " + process_->out() + process_->err());
  }

  std::string index() const { return index_path(dir_); }
  unsigned port() const { return port_; }
  ChildProcess& process() { return *process_; }

  std::vector<Alert> append(const std::string& id) {
    Alert alert;
    alert.alert = "strike";
    alert.id = id;
    alert.title = "Trains stop: " + id;
    alert.snippet = "…the <b>trains</b>…";
    alert.language = "en";
    alert.revision = 7;
    return AlertLog(index()).append({alert});
  }

 private:
  TempDir dir_;
  TempDir logs_;
  std::unique_ptr<ChildProcess> process_;
  unsigned port_ = 0;
};

std::string event_of(const Alert& alert) {
  return "id: " + std::to_string(alert.cursor) + "\nevent: alert\ndata: " + alert_json(alert) +
         "\n\n";
}

// A stream opened with `headers` (lines ending "\r\n"), its head and its
// first event (the retry) read.
std::unique_ptr<HttpConnection> open_stream(unsigned port, const std::string& target,
                                            const std::string& headers = "") {
  auto connection = std::make_unique<HttpConnection>(port);
  connection->send("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + "\r\n");
  const std::optional<HttpReply> head = connection->receive_head(allowed(std::chrono::seconds(10)));
  EXPECT_TRUE(head);
  if (!head) return connection;
  EXPECT_EQ(head->status, 200);
  EXPECT_EQ(head->header("content-type"), "text/event-stream");
  EXPECT_EQ(head->header("cache-control"), "no-store");
  EXPECT_EQ(connection->receive_until("\n\n", allowed(std::chrono::seconds(10))),
            "retry: 2000\n\n");
  return connection;
}

std::optional<std::string> next_event(HttpConnection& connection) {
  return connection.receive_until("\n\n", allowed(std::chrono::seconds(10)));
}

TEST(AlertStreamCursorTest, LastEventIdComesBeforeSince) {
  struct Case {
    std::string target;
    std::string last_event_id;
    std::uint64_t cursor;
  };
  const Case cases[] = {{"/api/alerts", "", 0},
                        {"/api/alerts?since=12", "", 12},
                        {"/api/alerts?since=12", "15", 15},
                        {"/api/alerts", "3", 3},
                        {"/api/alerts?since=9223372036854775807", "", 9223372036854775807u}};
  for (const Case& c : cases) {
    EXPECT_EQ(alert_stream_cursor(parse_target(c.target), c.last_event_id), c.cursor) << c.target;
  }
  for (const auto& [target, last_event_id] : std::vector<std::pair<std::string, std::string>>{
           {"/api/alerts?since=-1", ""},
           {"/api/alerts?since=", ""},
           {"/api/alerts?since=1e3", ""},
           {"/api/alerts?since=99999999999999999999", ""},
           {"/api/alerts?q=x", ""},
           {"/api/alerts", "abc"}}) {
    EXPECT_THROW(alert_stream_cursor(parse_target(target), last_event_id), HttpError) << target;
  }
}

TEST(AlertStreamTest, SendsAlertsAppendedWhileItListensAndResumesAfterACursor) {
  AlertServer server;
  const std::unique_ptr<HttpConnection> first = open_stream(server.port(), "/api/alerts");
  const Alert one = server.append("one").front();
  const Alert two = server.append("two").front();
  EXPECT_EQ(next_event(*first), event_of(one));
  EXPECT_EQ(next_event(*first), event_of(two));

  // As EventSource comes back: its first URL, and the last id it got.
  const std::unique_ptr<HttpConnection> again =
      open_stream(server.port(), "/api/alerts?since=0", "Last-Event-ID: 1\r\n");
  EXPECT_EQ(next_event(*again), event_of(two));
  const std::unique_ptr<HttpConnection> since = open_stream(server.port(), "/api/alerts?since=2");
  const Alert three = server.append("three").front();
  EXPECT_EQ(next_event(*again), event_of(three));
  EXPECT_EQ(next_event(*since), event_of(three));
  EXPECT_EQ(next_event(*first), event_of(three));

  const HttpReply bad = http_get(server.port(), "/api/alerts?since=x");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(json::parse(bad.body).at("status"), 400);
}

TEST(AlertStreamTest, StreamsBeyondTheCapAre503AndHoldNoWorker) {
  // One worker, and two streams open: a search is still answered.
  AlertServer server({"-j", "1", "--alert-streams", "2"});
  std::unique_ptr<HttpConnection> first = open_stream(server.port(), "/api/alerts");
  const std::unique_ptr<HttpConnection> second = open_stream(server.port(), "/api/alerts");
  const HttpReply refused = http_get(server.port(), "/api/alerts");
  EXPECT_EQ(refused.status, 503);
  EXPECT_EQ(refused.header("content-type"), "application/json");
  EXPECT_EQ(json::parse(refused.body).at("status"), 503);

  const HttpReply search = http_get(server.port(), "/api/search?q=trains");
  EXPECT_EQ(search.status, 200) << search.body;
  EXPECT_EQ(json::parse(search.body).at("total"), 2) << search.body;
  EXPECT_EQ(http_get(server.port(), "/healthz").status, 200);

  // A client that leaves frees its place.
  first.reset();
  ASSERT_EQ(status_once_placed(server.port(), "/api/alerts", std::chrono::seconds(10),
                               std::chrono::milliseconds(10)),
            200);
  const Alert one = server.append("one").front();
  EXPECT_EQ(next_event(*second), event_of(one));
}

// A client that stops reading while alerts wait is dropped once a write has
// waited for it too long, and its place goes to another.
TEST(AlertStreamTest, AClientThatReadsNothingIsDroppedAndFreesItsPlace) {
  AlertServer server({"--alert-streams", "1"});
  const std::unique_ptr<HttpConnection> stalled = open_stream(server.port(), "/api/alerts");
  // Far more than the socket buffers on both sides hold.
  std::vector<Alert> many(60000);
  for (std::size_t i = 0; i < many.size(); ++i) {
    many[i].alert = "flood";
    many[i].id = "article-" + std::to_string(i);
    many[i].title = std::string(200, 't');
  }
  AlertLog(server.index()).append(many);
  EXPECT_EQ(http_get(server.port(), "/api/alerts").status, 503);
  ASSERT_EQ(status_once_placed(server.port(), "/api/alerts?since=60000", std::chrono::seconds(40),
                               std::chrono::milliseconds(100)),
            200);
}

// The page lists the alerts that come after it was made; its script asks
// for them from the last cursor then.
TEST(AlertStreamTest, ThePageFollowsTheAlertsAfterTheLastWhenItWasMade) {
  AlertServer server;
  const auto since_of = [&] {
    const std::string page = http_get(server.port(), "/").body;
    const std::size_t at = page.find("id=\"alerts\" class=\"alerts\" data-since=\"");
    EXPECT_NE(at, std::string::npos) << page;
    return at == std::string::npos ? std::string() : page.substr(page.find("data-since", at), 14);
  };
  EXPECT_EQ(since_of(), "data-since=\"0\"");
  server.append("one");
  server.append("two");
  EXPECT_EQ(since_of(), "data-since=\"2\"");
  const std::string script = http_get(server.port(), "/search.js").body;
  EXPECT_NE(script.find("new EventSource('/api/alerts?since='"), std::string::npos);
}

TEST(AlertStreamTest, StoppingTheServerEndsItsStreams) {
  AlertServer server;
  const std::unique_ptr<HttpConnection> stream = open_stream(server.port(), "/api/alerts");
  const Alert one = server.append("one").front();
  EXPECT_EQ(next_event(*stream), event_of(one));
  server.process().signal(SIGTERM);
  EXPECT_EQ(next_event(*stream), ": the server is stopping\n\n");
  EXPECT_TRUE(stream->closed_by_server(allowed(std::chrono::seconds(10))));
  EXPECT_EQ(server.process().wait(allowed(std::chrono::seconds(10))), 0) << server.process().err();
}

}  // namespace
}  // namespace quarry::testing
