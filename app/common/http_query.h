// Reading what an HTTP request asks for: the path and query parameters of its
// target, percent-decoded and checked, and the search they describe. No
// sockets here: the server hands over the target as it arrived.
#ifndef QUARRY_APP_COMMON_HTTP_QUERY_H_
#define QUARRY_APP_COMMON_HTTP_QUERY_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/common/search_option_table.h"
#include "quarry/error.h"
#include "quarry/search/searcher.h"

namespace quarry {

// A request refused, with the HTTP status that says why (400, 404, 405,
// 503, …) and a one-line message for the client.
class HttpError : public Error {
 public:
  HttpError(int status, const std::string& message) : Error(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

// Bounds on what one request may ask for, besides the page
// (search_option_table.h): long queries cost the server, not the client.
inline constexpr std::size_t kMaxQueryBytes = 4096;
inline constexpr std::size_t kMaxSuggestions = 50;

// `text` with %XX escapes decoded, and '+' read as a space when
// `plus_is_space` (as forms write query strings). Throws HttpError(400)
// naming `what` for a malformed escape, a result that is not valid UTF-8,
// or a NUL character.
std::string percent_decode(std::string_view text, std::string_view what, bool plus_is_space);

// A request target split at '?': the path as sent (routes match it before
// any decoding, so that "%2F" never makes a path separator) and the
// parameters, decoded, in order.
struct HttpTarget {
  std::string path;
  std::vector<std::pair<std::string, std::string>> parameters;
};

// Throws HttpError(400) for parameters percent_decode refuses.
HttpTarget parse_target(std::string_view target);

// The parameters a route accepts, each at most once. A typo in a name is an
// error rather than a silent default.
class Parameters {
 public:
  // Throws HttpError(400) for a parameter not in `known`, or given twice.
  Parameters(std::vector<std::pair<std::string, std::string>> parameters,
             const std::vector<std::string_view>& known);

  std::optional<std::string_view> get(std::string_view name) const;
  // The parameter as a whole number in [min, max], else `fallback` when
  // absent. Throws HttpError(400) naming the bounds otherwise.
  std::size_t number(std::string_view name, std::size_t fallback, std::size_t min,
                     std::size_t max) const;
  // One of `choices`, else `fallback` when absent. Throws HttpError(400).
  std::string_view choice(std::string_view name, const std::vector<std::string_view>& choices,
                          std::string_view fallback) const;

 private:
  std::vector<std::pair<std::string, std::string>> parameters_;
};

// A search as /api/search and the search page ask for it.
struct SearchRequest {
  std::string query;
  SearchOptions options;
};

// The parameters of /api/search: q (required, unless like is given), and
// the HTTP parameters of the option table (search_option_table.h), which
// take the values quarry's options of the same rows take, and follow the
// same rules (option_rules.h). n is at most kMaxHitsPerPage, offset at most
// kMaxOffset, q at most kMaxQueryBytes. Throws HttpError(400) naming the
// parameter at fault.
SearchRequest parse_search_request(const HttpTarget& target);

// The names parse_search_request accepts, for routes that extend it.
const std::vector<std::string_view>& search_parameter_names();

// parse_search_request over parameters already checked by name.
SearchRequest search_request_from(const Parameters& parameters);

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_HTTP_QUERY_H_
