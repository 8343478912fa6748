// Who may use `quarry serve` when it is given --token-file: the bearer
// tokens of the file, and how a request shows one. A program sends
// "Authorization: Bearer TOKEN"; a browser, which cannot add that header to
// a page it opens or to an EventSource, signs in once through a form and
// then sends the token as a cookie the server set, HttpOnly and
// SameSite=Strict, on every request of the page, its scripts and its
// alert stream alike.
#ifndef QUARRY_APP_SERVER_ACCESS_TOKENS_H_
#define QUARRY_APP_SERVER_ACCESS_TOKENS_H_

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/server/http_exchange.h"
#include "app/server/http_response.h"

namespace quarry {

// The shortest token, so that none is guessed; the longest, at which every
// token is compared, so that how long the server's are does not show in how
// long a comparison takes.
inline constexpr std::size_t kMinTokenBytes = 16;
inline constexpr std::size_t kMaxTokenBytes = 256;
// The largest token file read: thousands of tokens, and no more memory or
// time spent on a file named by mistake.
inline constexpr std::size_t kMaxTokenFileBytes = 1 << 20;

// The cookie a signed-in browser sends its token in, and the route its
// sign-in form posts to.
inline constexpr std::string_view kTokenCookie = "quarry_token";
inline constexpr std::string_view kSignInPath = "/sign-in";

// The tokens of a --token-file. Immutable once read: one object may be
// shared between threads.
class AccessTokens {
 public:
  // Reads `path`, once read_private_file (app/server/private_file.h) finds it a
  // private regular file of at most kMaxTokenFileBytes: one token a line,
  // blank lines and the spaces around a token ignored. A token is
  // kMinTokenBytes to kMaxTokenBytes of what an Authorization header
  // carries (letters, digits and - . _ ~ + / =). Throws ConfigError naming
  // the file (and the line) when it cannot be read, is not such a file,
  // holds no token, or holds one that is not such a token; the token itself
  // is never named.
  static AccessTokens read_file(const std::string& path);

  // Whether `token` is one of them. Every token is compared, each over
  // kMaxTokenBytes bytes, so that the time taken depends on neither.
  bool accepts(std::string_view token) const;

 private:
  struct Padded {
    std::array<unsigned char, kMaxTokenBytes> bytes{};
    std::size_t size = 0;
  };
  static Padded padded(std::string_view token);

  std::vector<Padded> tokens_;
};

// What a request read whole is answered when `tokens` guard the server,
// before anything else is done with it: nothing when it carries one of them
// (the Authorization header's bearer token, else the kTokenCookie cookie),
// so that it is served. Otherwise 401 with "WWW-Authenticate: Bearer": the
// search page ("/") as a form to sign in with, posting to kSignInPath, any
// other path as a JSON error. A POST to kSignInPath with a token that is
// one of them is answered 303 to "/", setting the cookie for the browser's
// session; with another, 401 and the form again.
std::optional<HttpResponse> access_refusal(const HttpRequestParser& parser,
                                           const AccessTokens& tokens);

}  // namespace quarry

#endif  // QUARRY_APP_SERVER_ACCESS_TOKENS_H_
