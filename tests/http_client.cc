#include "tests/http_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/buffer.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace quarry::testing {
namespace {

namespace http = boost::beast::http;
using Clock = std::chrono::steady_clock;

// Waits until `fd` is readable; false when `deadline` passes first.
bool wait_readable(int fd, Clock::time_point deadline) {
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    pollfd poll_fd{fd, POLLIN, 0};
    const int ready = poll(&poll_fd, 1, static_cast<int>(left));
    if (ready > 0) return true;
    if (ready < 0 && errno != EINTR) throw std::runtime_error(std::strerror(errno));
  }
}

}  // namespace

std::string HttpReply::header(const std::string& lower_case_name) const {
  const auto it = headers.find(lower_case_name);
  return it == headers.end() ? "" : it->second;
}

HttpConnection::HttpConnection(unsigned port) {
  fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    const std::string reason = std::strerror(errno);
    close(fd_);
    throw std::runtime_error("cannot connect to port " + std::to_string(port) + ": " + reason);
  }
}

HttpConnection::~HttpConnection() {
  if (fd_ >= 0) close(fd_);
}

void HttpConnection::send(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t sent = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) return;
    bytes.remove_prefix(static_cast<std::size_t>(sent));
  }
}

void HttpConnection::send_get(std::string_view target) {
  send("GET " + std::string(target) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
}

std::optional<HttpReply> HttpConnection::receive(std::chrono::milliseconds patience, bool to_head) {
  const auto deadline = Clock::now() + patience;
  http::response_parser<http::string_body> parser;
  parser.body_limit(64 * 1024 * 1024);
  parser.skip(to_head);
  boost::beast::error_code error;
  char buffer[65536];
  while (!parser.is_done()) {
    // The parser takes what it can of the bytes read; the rest waits for more.
    while (!unread_.empty() && !parser.is_done()) {
      const std::size_t used = parser.put(boost::asio::buffer(unread_), error);
      if (error == http::error::need_more) break;
      if (error) throw std::runtime_error("malformed answer: " + error.message());
      unread_.erase(0, used);
    }
    if (parser.is_done()) break;
    if (!wait_readable(fd_, deadline)) throw std::runtime_error("no answer in time");
    const ssize_t count = recv(fd_, buffer, sizeof buffer, 0);
    if (count < 0 && errno == EINTR) continue;
    if (count <= 0) {
      // Closed: an answer without a length ends here, any other is cut short
      // (and no answer at all is none, though Beast calls it complete).
      if (!parser.got_some()) return std::nullopt;
      parser.put_eof(error);
      if (error || !parser.is_done()) return std::nullopt;
      break;
    }
    unread_.append(buffer, static_cast<std::size_t>(count));
    error = {};
  }
  HttpReply reply;
  const auto& message = parser.get();
  reply.status = message.result_int();
  for (const auto& field : message) {
    std::string name(field.name_string());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    reply.headers[name] = std::string(field.value());
  }
  reply.body = message.body();
  return reply;
}

bool HttpConnection::read_more(Clock::time_point deadline) {
  char buffer[65536];
  for (;;) {
    if (!wait_readable(fd_, deadline)) throw std::runtime_error("nothing more came in time");
    const ssize_t count = recv(fd_, buffer, sizeof buffer, 0);
    if (count < 0 && errno == EINTR) continue;
    if (count <= 0) return false;
    unread_.append(buffer, static_cast<std::size_t>(count));
    return true;
  }
}

std::optional<HttpReply> HttpConnection::receive_head(std::chrono::milliseconds patience) {
  const auto deadline = Clock::now() + patience;
  std::size_t end;
  while ((end = unread_.find("\r\n\r\n")) == std::string::npos) {
    if (!read_more(deadline)) return std::nullopt;
  }
  http::response_parser<http::empty_body> parser;
  boost::beast::error_code error;
  parser.put(boost::asio::buffer(unread_.data(), end + 4), error);
  if (error || !parser.is_header_done()) {
    throw std::runtime_error("malformed head: " + error.message());
  }
  unread_.erase(0, end + 4);
  HttpReply reply;
  reply.status = parser.get().result_int();
  for (const auto& field : parser.get()) {
    std::string name(field.name_string());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    reply.headers[name] = std::string(field.value());
  }
  return reply;
}

std::optional<std::string> HttpConnection::receive_until(std::string_view text,
                                                         std::chrono::milliseconds patience) {
  const auto deadline = Clock::now() + patience;
  std::size_t found;
  while ((found = unread_.find(text)) == std::string::npos) {
    if (!read_more(deadline)) return std::nullopt;
  }
  std::string bytes = unread_.substr(0, found + text.size());
  unread_.erase(0, found + text.size());
  return bytes;
}

bool HttpConnection::closed_by_server(std::chrono::milliseconds patience) {
  const auto deadline = Clock::now() + patience;
  char buffer[4096];
  for (;;) {
    if (!wait_readable(fd_, deadline)) return false;
    const ssize_t count = recv(fd_, buffer, sizeof buffer, 0);
    if (count == 0 || (count < 0 && errno == ECONNRESET)) return true;
  }
}

HttpReply http_get(unsigned port, std::string_view target) {
  HttpConnection connection(port);
  connection.send_get(target);
  std::optional<HttpReply> reply = connection.receive();
  if (!reply) throw std::runtime_error("the server closed the connection without answering");
  return *reply;
}

}  // namespace quarry::testing
