#include "app/server/access_tokens.h"

#include <algorithm>
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/verb.hpp>
#include <cctype>
#include <sstream>

#include "app/common/http_query.h"
#include "app/server/private_file.h"
#include "app/server/request_handler.h"
#include "quarry/error.h"

namespace quarry {
namespace {

namespace http = boost::beast::http;

std::string_view as_view(boost::beast::string_view text) { return {text.data(), text.size()}; }

constexpr std::string_view kSpaces = " \t\r";

std::string_view trimmed(std::string_view text) {
  const std::size_t begin = text.find_first_not_of(kSpaces);
  if (begin == std::string_view::npos) return {};
  return text.substr(begin, text.find_last_not_of(kSpaces) - begin + 1);
}

// RFC 6750's b64token: what a bearer token may hold, and all of it safe in
// a cookie's value and a form's field.
bool token_character(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("-._~+/=").find(c) != std::string_view::npos;
}

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// "Bearer TOKEN", the scheme in any case; nothing for another scheme.
std::optional<std::string_view> bearer_token(std::string_view authorization) {
  authorization = trimmed(authorization);
  const std::size_t space = authorization.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  if (!equal_ignoring_case(authorization.substr(0, space), "Bearer")) return std::nullopt;
  return trimmed(authorization.substr(space + 1));
}

// The value of the cookie `name` in a Cookie header ("a=1; b=2").
std::optional<std::string_view> cookie(std::string_view header, std::string_view name) {
  while (!header.empty()) {
    const std::size_t end = std::min(header.find(';'), header.size());
    const std::string_view pair = trimmed(header.substr(0, end));
    const std::size_t equals = pair.find('=');
    if (equals != std::string_view::npos && pair.substr(0, equals) == name) {
      return pair.substr(equals + 1);
    }
    header.remove_prefix(std::min(end + 1, header.size()));
  }
  return std::nullopt;
}

// The field `name` of a form's body (application/x-www-form-urlencoded);
// nothing when it is missing or not well encoded.
std::optional<std::string> form_field(std::string_view body, std::string_view name) {
  while (!body.empty()) {
    const std::size_t end = std::min(body.find('&'), body.size());
    const std::string_view pair = body.substr(0, end);
    const std::size_t equals = pair.find('=');
    if (equals != std::string_view::npos && pair.substr(0, equals) == name) {
      try {
        return percent_decode(pair.substr(equals + 1), name, true);
      } catch (const HttpError&) {
        return std::nullopt;
      }
    }
    body.remove_prefix(std::min(end + 1, body.size()));
  }
  return std::nullopt;
}

HttpResponse unauthorized(HttpResponse answer) {
  answer.status = 401;
  answer.headers.emplace_back("WWW-Authenticate", "Bearer");
  return answer;
}

// The form a person signs in with; it holds nothing of the index. No
// script, no style: the stylesheet is the index's, behind the tokens.
HttpResponse sign_in_page(bool refused) {
  std::string html =
      "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>Sign in - Quarry</title>\n</head>\n<body>\n<main>\n<h1>Quarry</h1>\n"
      "<p>This index is open to the holders of an access token.</p>\n";
  if (refused) html += "<p role=\"alert\">That token is not accepted.</p>\n";
  html += "<form method=\"post\" action=\"" + std::string(kSignInPath) +
          "\">\n<label for=\"token\">Access token</label>\n"
          "<input id=\"token\" name=\"token\" type=\"password\" autocomplete=\"current-password\" "
          "required autofocus>\n<button type=\"submit\">Sign in</button>\n</form>\n"
          "</main>\n</body>\n</html>\n";
  return unauthorized(
      {401,
       "text/html; charset=utf-8",
       std::move(html),
       {{"Cache-Control", "no-store"},
        {"Content-Security-Policy",
         "default-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"}}});
}

std::optional<HttpResponse> sign_in(const HttpRequestParser& parser, const AccessTokens& tokens) {
  const std::optional<std::string> token = form_field(parser.get().body(), "token");
  if (!token || !tokens.accepts(trimmed(*token))) return sign_in_page(true);
  // For the browser's session only, sent to this server alone, never read
  // by a script, and never sent along with a request another site starts.
  return HttpResponse{
      303,
      "text/plain; charset=utf-8",
      "Signed in.\n",
      {{"Location", "/"},
       {"Cache-Control", "no-store"},
       {"Set-Cookie", std::string(kTokenCookie) + "=" + std::string(trimmed(*token)) +
                          "; Path=/; HttpOnly; SameSite=Strict"}}};
}

}  // namespace

AccessTokens AccessTokens::read_file(const std::string& path) {
  const std::string named = "--token-file " + path;
  std::istringstream in(read_private_file(path, named, kMaxTokenFileBytes));
  AccessTokens tokens;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    const std::string_view token = trimmed(line);
    if (token.empty()) continue;
    const std::string where = named + ", line " + std::to_string(number) + ": ";
    if (token.size() < kMinTokenBytes || token.size() > kMaxTokenBytes) {
      throw ConfigError(where + "a token is " + std::to_string(kMinTokenBytes) + " to " +
                        std::to_string(kMaxTokenBytes) + " characters long, this one " +
                        std::to_string(token.size()));
    }
    if (!std::all_of(token.begin(), token.end(), token_character)) {
      throw ConfigError(where + "a token holds only letters, digits and - . _ ~ + / =");
    }
    tokens.tokens_.push_back(padded(token));
  }
  if (tokens.tokens_.empty()) throw ConfigError(named + ": holds no token");
  return tokens;
}

AccessTokens::Padded AccessTokens::padded(std::string_view token) {
  Padded padded;
  std::copy(token.begin(), token.end(), padded.bytes.begin());
  padded.size = token.size();
  return padded;
}

bool AccessTokens::accepts(std::string_view token) const {
  // Longer than any token: that says nothing of the tokens.
  if (token.size() > kMaxTokenBytes) return false;
  const Padded offered = padded(token);
  // Differences are gathered, never returned at the first: the loops run the
  // same whatever the bytes. volatile keeps the compiler from cutting them
  // short.
  volatile unsigned char accepted = 0;
  for (const Padded& known : tokens_) {
    std::size_t difference = offered.size ^ known.size;
    for (std::size_t i = 0; i < kMaxTokenBytes; ++i) {
      difference |= static_cast<std::size_t>(offered.bytes[i] ^ known.bytes[i]);
    }
    accepted = accepted | static_cast<unsigned char>(difference == 0);
  }
  return accepted != 0;
}

std::optional<HttpResponse> access_refusal(const HttpRequestParser& parser,
                                           const AccessTokens& tokens) {
  const auto& request = parser.get();
  const std::string_view target = as_view(request.target());
  const std::string_view path = target.substr(0, target.find('?'));
  if (path == kSignInPath && request.method() == http::verb::post) return sign_in(parser, tokens);
  std::optional<std::string_view> token =
      bearer_token(as_view(request[http::field::authorization]));
  if (!token) token = cookie(as_view(request[http::field::cookie]), kTokenCookie);
  if (token && tokens.accepts(*token)) return std::nullopt;
  if (path == "/" &&
      (request.method() == http::verb::get || request.method() == http::verb::head)) {
    return sign_in_page(false);
  }
  return unauthorized(json_error_response(
      401, token ? "this token is not accepted"
                 : "an access token is needed: send the header Authorization: Bearer TOKEN"));
}

}  // namespace quarry
