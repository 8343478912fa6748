// An HTTP client for tests of `quarry serve`: plain sockets on loopback so
// that a test can also send what no client library would (malformed
// requests, half a request, nothing at all), every wait bounded, and
// answers read by Beast's parser rather than by hand.
#ifndef QUARRY_TESTS_HTTP_CLIENT_H_
#define QUARRY_TESTS_HTTP_CLIENT_H_

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace quarry::testing {

struct HttpReply {
  int status = 0;
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;

  // The header's value, or "" when there is none.
  std::string header(const std::string& lower_case_name) const;
};

// One connection to a server on 127.0.0.1. Throws std::runtime_error when
// it cannot connect, or a wait runs out.
class HttpConnection {
 public:
  static constexpr std::chrono::milliseconds kPatience{30000};

  explicit HttpConnection(unsigned port);
  ~HttpConnection();
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;

  // Sends `bytes` as they are. A server that already closed the connection
  // may make this fail: that is not an error here.
  void send(std::string_view bytes);
  // Sends "GET target HTTP/1.1" with a Host header.
  void send_get(std::string_view target);
  // The next answer, or nothing when the server closes the connection before
  // one is complete. An answer to HEAD (`to_head`) has no body, whatever its
  // Content-Length says.
  std::optional<HttpReply> receive(std::chrono::milliseconds patience = kPatience,
                                   bool to_head = false);
  // The status and headers of an answer whose body has no end (an event
  // stream), its body left to receive_until; nothing when the server closes
  // the connection first.
  std::optional<HttpReply> receive_head(std::chrono::milliseconds patience = kPatience);
  // The bytes that follow, up to and including the first `text`; nothing
  // when the server closes the connection first.
  std::optional<std::string> receive_until(std::string_view text,
                                           std::chrono::milliseconds patience = kPatience);
  // Whether the server closes the connection within `patience`, reading
  // and dropping anything it sends first.
  bool closed_by_server(std::chrono::milliseconds patience = kPatience);

 private:
  int fd_ = -1;
  // Reads more into unread_; false when the server closed the connection.
  bool read_more(std::chrono::steady_clock::time_point deadline);

  std::string unread_;
};

// GET `target` on a connection of its own; throws std::runtime_error when
// no answer comes.
HttpReply http_get(unsigned port, std::string_view target);

}  // namespace quarry::testing

#endif  // QUARRY_TESTS_HTTP_CLIENT_H_
