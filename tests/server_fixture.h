// What the tests of `quarry serve` share: a server on a free loopback port,
// one server of the sample corpus (or of English and French reports) for
// the tests that only read, and small indexes of their own for the others.
#ifndef QUARRY_TESTS_SERVER_FIXTURE_H_
#define QUARRY_TESTS_SERVER_FIXTURE_H_

#include <chrono>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "tests/child_process.h"
#include "tests/http_client.h"
#include "tests/sample_articles.h"
#include "tests/test_util.h"

namespace quarry::testing {

// time_allowed(idle), in milliseconds.
std::chrono::milliseconds allowed(std::chrono::milliseconds idle);

// `quarry serve` on a free loopback port, stopped (killed) when this goes out
// of scope. Throws std::runtime_error when it does not say where it listens.
class Server {
 public:
  explicit Server(const std::filesystem::path& db, const std::vector<std::string>& options = {});

  unsigned port() const { return port_; }
  ChildProcess& process() { return *process_; }
  HttpReply get(std::string_view target) const { return http_get(port_, target); }
  // The JSON answer to GET `target`, which must say it is JSON.
  nlohmann::json get_json(std::string_view target) const;

 private:
  TempDir logs_;
  std::unique_ptr<ChildProcess> process_;
  unsigned port_ = 0;
};

// The sample corpus, and one server of it for the tests that only read.
class ServerTest : public SharedIndexTest {
 public:
  static void SetUpTestSuite();
  static void TearDownTestSuite();

 protected:
  static void open_server();
  static Server& server() { return *server_; }

 private:
  static std::unique_ptr<Server> server_;
};

// English and French reports of one event, and one server of them.
class ServerLanguageTest : public ServerTest {
 public:
  static void SetUpTestSuite();
};

// Two reports, for servers of an index of their own.
std::vector<Article> served_news();

// How many times `part` occurs in `text`.
std::size_t count_of(const std::string& text, std::string_view part);

}  // namespace quarry::testing

#endif  // QUARRY_TESTS_SERVER_FIXTURE_H_
