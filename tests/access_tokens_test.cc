// The tokens of quarry serve --token-file: reading the file, and what a
// request without one, with a wrong one or with a right one is answered.
#include "app/server/access_tokens.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "quarry/error.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

constexpr char kToken[] = "3f6b1c0e9a7d4b2e8c5a1f0d";
constexpr char kOther[] = "Zm9yIHRoZSBuZXdzcm9vbQ==";

AccessTokens tokens_of(const TempDir& dir, const std::string& contents) {
  write_private_file(dir / "tokens", contents);
  return AccessTokens::read_file((dir / "tokens").string());
}

// The message read_file throws for `contents`, or "" when it reads them.
std::string refusal_of(const std::string& contents) {
  TempDir dir;
  try {
    tokens_of(dir, contents);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "";
}

TEST(AccessTokensTest, ReadsOneTokenALineIgnoringBlankLinesAndSpaces) {
  TempDir dir;
  const AccessTokens tokens =
      tokens_of(dir, "\n  " + std::string(kToken) + "  \r\n\n\t" + kOther + "\n   \n");
  EXPECT_TRUE(tokens.accepts(kToken));
  EXPECT_TRUE(tokens.accepts(kOther));
  for (const std::string& wrong : std::vector<std::string>{
           std::string(), std::string(kToken).substr(1), std::string(kToken) + "0",
           std::string(kToken).substr(0, 23) + "e", std::string(" ") + kToken,
           std::string(kToken) + kOther, std::string(300, 'a')}) {
    EXPECT_FALSE(tokens.accepts(wrong)) << wrong;
  }
}

TEST(AccessTokensTest, AFileThatHoldsNoGoodTokenIsRefusedNamingIt) {
  struct Case {
    std::string contents;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"", ": holds no token"},
      {"\n  \n\t\n", ": holds no token"},
      {std::string(kToken) + "\nshort-token\n", ", line 2: a token is 16 to 256 characters long"},
      {std::string(257, 'a') + "\n", ", line 1: a token is 16 to 256 characters long"},
      {"an access token with spaces\n", ", line 1: a token holds only letters"},
      {"caf\xC3\xA9-caf\xC3\xA9-caf\xC3\xA9-caf\xC3\xA9\n", ", line 1: a token holds only letters"},
  };
  for (const Case& c : cases) {
    const std::string message = refusal_of(c.contents);
    EXPECT_TRUE(message.starts_with("--token-file ")) << c.contents << ": " << message;
    EXPECT_NE(message.find("/tokens" + c.message), std::string::npos)
        << c.contents << ": " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_EQ(message.find("short-token"), std::string::npos) << "names the token: " << message;
  }
  EXPECT_EQ(refusal_of(std::string(16, 'a')), "");
  EXPECT_EQ(refusal_of(std::string(256, 'a')), "");
}

TEST(AccessTokensTest, AFileThatCannotBeReadIsRefusedNamingIt) {
  TempDir dir;
  const std::vector<std::pair<std::filesystem::path, std::string>> cases = {
      {dir / "missing", "cannot be read: No such file or directory"}, {dir.path(), "is a folder"}};
  for (const auto& [path, reason] : cases) {
    try {
      AccessTokens::read_file(path.string());
      ADD_FAILURE() << path << " was read";
    } catch (const ConfigError& error) {
      EXPECT_EQ(error.what(), "--token-file " + path.string() + ": " + reason);
    }
  }
}

// The message read_file throws for the file at `path`, or "" when it reads
// it.
std::string refusal_of_file(const std::filesystem::path& path) {
  try {
    AccessTokens::read_file(path.string());
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "";
}

// As ssh refuses a private key, and PostgreSQL its key files: tokens others
// may read have leaked already. A file owned by root may be handed to the
// server's group to read (0640).
TEST(AccessTokensTest, AFileUsersOtherThanItsOwnerMayReadOrChangeIsRefusedSayingHowToFixIt) {
  TempDir dir;
  const std::filesystem::path path = dir / "tokens";
  write_private_file(path, std::string(kToken) + "\n");
  const std::string fix = ": chmod 600 " + path.string();
  const bool owned_by_root = ::geteuid() == 0;
  const std::vector<std::pair<mode_t, std::string>> cases = {
      {0600, ""},
      {0400, ""},
      {0640, owned_by_root ? "" : "users other than its owner may read it (mode 0640)" + fix},
      {0644, "users other than its owner may read it (mode 0644)" + fix},
      {0604, "users other than its owner may read it (mode 0604)" + fix},
      {0660, "users other than its owner may change it (mode 0660)" + fix},
      {0602, "users other than its owner may change it (mode 0602)" + fix},
      {0666, "users other than its owner may change it (mode 0666)" + fix},
  };
  for (const auto& [mode, reason] : cases) {
    ASSERT_EQ(::chmod(path.c_str(), mode), 0);
    EXPECT_EQ(refusal_of_file(path),
              reason.empty() ? "" : "--token-file " + path.string() + ": " + reason)
        << std::oct << mode;
  }
  // A link is followed, and the file it reaches is the one checked.
  std::filesystem::create_symlink(path, dir / "link");
  ASSERT_EQ(::chmod(path.c_str(), 0600), 0);
  EXPECT_EQ(refusal_of_file(dir / "link"), "");
  ASSERT_EQ(::chmod(path.c_str(), 0644), 0);
  EXPECT_EQ(refusal_of_file(dir / "link"),
            "--token-file " + (dir / "link").string() +
                ": users other than its owner may read it (mode 0644): chmod 600 " +
                (dir / "link").string());
}

// Whoever owns the file may change its tokens: the user the server runs as
// or root, no one else.
TEST(AccessTokensTest, AFileOwnedByAnotherUserIsRefused) {
  if (::geteuid() != 0) GTEST_SKIP() << "only root can give a file to another user";
  TempDir dir;
  const std::filesystem::path path = dir / "tokens";
  write_private_file(path, std::string(kToken) + "\n");
  ASSERT_EQ(::chown(path.c_str(), 65534, 65534), 0);
  EXPECT_EQ(refusal_of_file(path),
            "--token-file " + path.string() +
                ": it is owned by uid 65534, neither the user quarry runs as (uid 0) nor root: "
                "chown it");
}

// Tokens are a few hundred bytes each: a file of more than kMaxTokenFileBytes
// was named by mistake, and is not read on.
TEST(AccessTokensTest, AFileLargerThanTheBoundIsRefused) {
  TempDir dir;
  const std::string line = std::string(63, 'a') + "\n";
  std::string contents;
  while (contents.size() < kMaxTokenFileBytes) contents += line;
  ASSERT_EQ(contents.size(), kMaxTokenFileBytes);
  write_private_file(dir / "tokens", contents);
  EXPECT_EQ(refusal_of_file(dir / "tokens"), "");
  write_private_file(dir / "tokens", contents + "\n");
  EXPECT_EQ(refusal_of_file(dir / "tokens"), "--token-file " + (dir / "tokens").string() +
                                                 ": is larger than 1048576 bytes, more than it "
                                                 "may hold");
}

// What the request `bytes`, read by the server's parser, is answered when
// kToken is the one token.
std::optional<HttpResponse> answer_to(const std::string& bytes) {
  HttpRequestParser parser;
  boost::beast::error_code error;
  for (std::size_t read = 0; !parser.is_done() && !error && read < bytes.size();) {
    read += parser.put(boost::asio::buffer(bytes.data() + read, bytes.size() - read), error);
  }
  EXPECT_FALSE(error) << error.message();
  EXPECT_TRUE(parser.is_done()) << bytes;
  TempDir dir;
  return access_refusal(parser, tokens_of(dir, std::string(kToken) + "\n"));
}

std::string header_of(const HttpResponse& answer, std::string_view name) {
  for (const auto& [header, value] : answer.headers) {
    if (header == name) return value;
  }
  return "";
}

TEST(AccessTokensTest, ARequestWithoutARightTokenIs401WithAJsonError) {
  for (const std::string& authorization :
       std::vector<std::string>{std::string(), "Authorization: Bearer wrong-token-wrong-token\r\n",
                                "Authorization: Basic " + std::string(kToken) + "\r\n",
                                "Authorization: Bearer " + std::string(kToken) + "x\r\n",
                                "Cookie: other=" + std::string(kToken) + "\r\n"}) {
    const std::optional<HttpResponse> answer =
        answer_to("GET /api/search?q=oil HTTP/1.1\r\nHost: 127.0.0.1\r\n" + authorization + "\r\n");
    ASSERT_TRUE(answer) << authorization;
    EXPECT_EQ(answer->status, 401);
    EXPECT_EQ(header_of(*answer, "WWW-Authenticate"), "Bearer");
    EXPECT_EQ(answer->content_type, "application/json");
    EXPECT_EQ(nlohmann::json::parse(answer->body)["status"], 401);
  }
}

TEST(AccessTokensTest, ARightTokenInTheHeaderOrTheCookieIsLetThrough) {
  for (const std::string& credentials : std::vector<std::string>{
           "Authorization: Bearer " + std::string(kToken),
           "authorization: bearer  " + std::string(kToken) + " ",
           "Cookie: a=1; " + std::string(kTokenCookie) + "=" + kToken + "; b=2"}) {
    for (const std::string target : {"/", "/api/alerts", "/search.js", "/healthz"}) {
      EXPECT_FALSE(answer_to("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + credentials +
                             "\r\n\r\n"))
          << credentials << ' ' << target;
    }
  }
}

TEST(AccessTokensTest, ThePageAsksForATokenAndSignsInWithACookie) {
  const std::optional<HttpResponse> page = answer_to("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 401);
  EXPECT_EQ(header_of(*page, "WWW-Authenticate"), "Bearer");
  EXPECT_NE(page->body.find("<form method=\"post\" action=\"/sign-in\">"), std::string::npos);

  const auto sign_in = [](const std::string& body) {
    return answer_to(
        "POST /sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " +
        std::to_string(body.size()) + "\r\n\r\n" + body);
  };
  const std::optional<HttpResponse> signed_in = sign_in("token=" + std::string(kToken));
  ASSERT_TRUE(signed_in);
  EXPECT_EQ(signed_in->status, 303);
  EXPECT_EQ(header_of(*signed_in, "Location"), "/");
  EXPECT_EQ(header_of(*signed_in, "Set-Cookie"),
            std::string(kTokenCookie) + "=" + kToken + "; Path=/; HttpOnly; SameSite=Strict");

  for (const std::string& body :
       std::vector<std::string>{std::string("token=wrong-token-wrong-token"), std::string(),
                                std::string("token=%zz"), std::string("other=") + kToken}) {
    const std::optional<HttpResponse> refused = sign_in(body);
    ASSERT_TRUE(refused) << body;
    EXPECT_EQ(refused->status, 401) << body;
    EXPECT_EQ(header_of(*refused, "Set-Cookie"), "") << body;
    EXPECT_NE(refused->body.find("That token is not accepted."), std::string::npos) << body;
  }
}

}  // namespace
}  // namespace quarry::testing
