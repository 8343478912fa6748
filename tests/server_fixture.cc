#include "tests/server_fixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <thread>

namespace quarry::testing {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

std::chrono::milliseconds allowed(std::chrono::milliseconds idle) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(time_allowed(idle));
}

Server::Server(const fs::path& db, const std::vector<std::string>& options) {
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

json Server::get_json(std::string_view target) const {
  const HttpReply reply = get(target);
  EXPECT_EQ(reply.header("content-type"), "application/json") << target;
  return json::parse(reply.body);
}

std::unique_ptr<Server> ServerTest::server_;

void ServerTest::SetUpTestSuite() {
  SharedIndexTest::SetUpTestSuite();
  open_server();
}

void ServerTest::TearDownTestSuite() {
  server_.reset();
  SharedIndexTest::TearDownTestSuite();
}

void ServerTest::open_server() { server_ = std::make_unique<Server>(db_path()); }

void ServerLanguageTest::SetUpTestSuite() {
  index_suite_articles(english_and_french_articles());
  open_server();
}

std::vector<Article> served_news() {
  return {{"a.txt", "Penalty drama at the derby", "Herrera argued about the penalty.", "2017-12-10",
           "sport", "Press Association"},
          {"b.txt", "Markets", "Shares fell.", "2017-12-11", "business", "Reuters"}};
}

std::size_t count_of(const std::string& text, std::string_view part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

}  // namespace quarry::testing
