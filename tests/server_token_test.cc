// quarry serve with --tokens: every request needs one of the file's
// tokens, a file that cannot be used is refused before anything listens,
// and an address other than loopback needs tokens or --public.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/server_fixture.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

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
  index_articles(dir, served_news());
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
  index_articles(dir, served_news());
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
  index_articles(dir, served_news());
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
  index_articles(dir, served_news());
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

}  // namespace
}  // namespace quarry::testing
