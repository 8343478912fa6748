// One request read and answered as `quarry serve` does it, over Beast's
// parser and message types but without a socket: the bounds a request is
// read within, what a request that breaks them or arrives malformed is
// answered, and the message an answer is written as. The server
// (app/server/client_connection.cc) and the HTTP fuzz target share these.
#ifndef QUARRY_APP_SERVER_HTTP_EXCHANGE_H_
#define QUARRY_APP_SERVER_HTTP_EXCHANGE_H_

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/system/error_code.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/server/http_response.h"

namespace quarry {

using HttpRequestParser = boost::beast::http::request_parser<boost::beast::http::string_body>;
using HttpResponseMessage = boost::beast::http::response<boost::beast::http::string_body>;

// A request's line and headers; a 1 MB query string is refused at this
// point, before it is read whole.
inline constexpr std::size_t kHeaderLimit = 16 * 1024;
// GET requests carry no body worth reading.
inline constexpr std::uint64_t kBodyLimit = 64 * 1024;

// `parser` made afresh for the next request, with the bounds above.
void start_request(std::optional<HttpRequestParser>& parser);

// The answer to a request whose reading ended with `error`, when it is to
// be answered rather than read on: 414 for a request line longer than
// kHeaderLimit, 431 for longer headers, 413 for a body longer than
// kBodyLimit, 400 for a malformed request; each closes the connection.
// Nothing when the request was read whole (no error), and nothing either
// when the client left, went quiet or sent part of a request before
// leaving: there is no one to answer.
std::optional<HttpResponse> read_refusal(const boost::system::error_code& error,
                                         const HttpRequestParser& parser);

// For a request read whole: 400, closing the connection, when it has
// several Host headers, or none and is HTTP/1.1 (RFC 9112, section 3.2);
// 421 when its Host names another server than this one (see
// host_allowed); nothing when it may be answered.
std::optional<HttpResponse> host_refusal(const HttpRequestParser& parser,
                                         const std::vector<std::string>& allowed_hosts);

// The message that writes `answer` to the request `parser` read or refused:
// the request's HTTP version, keep-alive when the request was read whole,
// asks for it, `keep_alive` allows it (the server is not stopping) and the
// answer has no "Connection: close" header, the
// headers every page of the server carries, and for HEAD the length of the
// body without the body.
HttpResponseMessage response_message(HttpResponse answer, const HttpRequestParser& parser,
                                     bool keep_alive);

}  // namespace quarry

#endif  // QUARRY_APP_SERVER_HTTP_EXCHANGE_H_
