#include "app/server/http_exchange.h"

#include <boost/beast/core/string.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/verb.hpp>
#include <string_view>
#include <utility>

#include "app/server/listen_address.h"
#include "app/server/request_handler.h"

namespace quarry {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;

HttpResponse closing(int status, std::string_view message) {
  HttpResponse answer = json_error_response(status, message);
  answer.headers.emplace_back("Connection", "close");
  return answer;
}

bool read_whole(const HttpRequestParser& parser) {
  return parser.is_header_done() && parser.is_done();
}

}  // namespace

void start_request(std::optional<HttpRequestParser>& parser) {
  parser.emplace();
  parser->header_limit(kHeaderLimit);
  parser->body_limit(kBodyLimit);
}

std::optional<HttpResponse> read_refusal(const boost::system::error_code& error,
                                         const HttpRequestParser& parser) {
  if (error == http::error::header_limit) {
    // The request line is parsed as soon as it is whole: without it, it is
    // what was too long.
    if (parser.get().target().empty()) {
      return closing(414, "request line longer than " + std::to_string(kHeaderLimit) + " bytes");
    }
    return closing(431, "request headers longer than " + std::to_string(kHeaderLimit) + " bytes");
  }
  if (error == http::error::body_limit) {
    return closing(413, "request body longer than " + std::to_string(kBodyLimit) + " bytes");
  }
  const bool malformed =
      error.category() == http::make_error_code(http::error::bad_method).category() &&
      error != http::error::end_of_stream && error != http::error::partial_message;
  if (malformed) return closing(400, "malformed HTTP request: " + error.message());
  return std::nullopt;
}

std::optional<HttpResponse> host_refusal(const HttpRequestParser& parser,
                                         const std::vector<std::string>& allowed_hosts) {
  // RFC 9112, section 3.2: which of two Hosts a proxy before the server
  // went by is not known, and HTTP/1.1 always names one.
  const std::size_t hosts = parser.get().count(http::field::host);
  if (hosts > 1) {
    return closing(400, "a request has one Host header, this one " + std::to_string(hosts));
  }
  if (hosts == 0 && parser.get().version() >= 11) {
    return closing(400, "an HTTP/1.1 request needs a Host header");
  }
  const std::string host(parser.get()[http::field::host]);
  if (host_allowed(host, allowed_hosts)) return std::nullopt;
  return json_error_response(421, "this server does not answer to the host " + host +
                                      "; quarry serve --allow-host NAME allows a name");
}

HttpResponseMessage response_message(HttpResponse answer, const HttpRequestParser& parser,
                                     bool keep_alive) {
  const bool whole = read_whole(parser);
  // HEAD is answered as GET, its Content-Length too, without the body.
  const bool head = whole && parser.get().method() == http::verb::head;
  HttpResponseMessage message;
  message.version(whole ? parser.get().version() : 11);
  message.result(static_cast<unsigned>(answer.status));
  message.set(http::field::content_type, answer.content_type);
  // No page of this server is to be read as another type, framed, or told
  // where a reader came from (queries are in its URLs).
  message.set("X-Content-Type-Options", "nosniff");
  message.set("Referrer-Policy", "no-referrer");
  bool closing = false;
  for (const auto& [name, value] : answer.headers) {
    message.set(name, value);
    closing = closing || (beast::iequals(name, "Connection") && beast::iequals(value, "close"));
  }
  const std::size_t length = answer.body.size();
  if (!head) message.body() = std::move(answer.body);
  message.keep_alive(whole && keep_alive && !closing && parser.get().keep_alive());
  message.prepare_payload();
  if (head) message.content_length(length);
  return message;
}

}  // namespace quarry
