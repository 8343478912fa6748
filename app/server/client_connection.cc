#include "app/server/client_connection.h"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>

#include "app/server/access_tokens.h"
#include "app/server/alert_streams.h"
#include "app/server/http_server.h"
#include "app/server/worker_pool.h"

namespace quarry {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// How long a client may take to send a request (and an idle connection
// may wait for its next one), and to read an answer.
constexpr std::chrono::seconds kReadTimeout{10};
constexpr std::chrono::seconds kWriteTimeout{10};

}  // namespace

ClientConnection::ClientConnection(tcp::socket socket, HttpServer& server)
    : server_(server), stream_(std::move(socket)) {}

void ClientConnection::read() {
  state_ = State::kReading;
  start_request(parser_);
  stream_.expires_after(kReadTimeout);
  http::async_read(
      stream_, buffer_, *parser_,
      [self = shared_from_this()](beast::error_code error, std::size_t) { self->on_read(error); });
}

void ClientConnection::on_read(beast::error_code error) {
  started_ = Clock::now();
  method_ = "-";
  path_ = "-";
  if (std::optional<HttpResponse> refusal = read_refusal(error, *parser_)) {
    return write(std::move(*refusal));
  }
  // The client left, went quiet, or the server is stopping.
  if (error) return close();

  const auto& request = parser_->get();
  method_ = std::string(request.method_string());
  const std::string target(request.target());
  path_ = target.substr(0, target.find('?'));
  if (std::optional<HttpResponse> refusal =
          host_refusal(*parser_, server_.config().allowed_hosts)) {
    return write(std::move(*refusal));
  }
  if (server_.tokens()) {
    if (std::optional<HttpResponse> refusal = access_refusal(*parser_, *server_.tokens())) {
      return write(std::move(*refusal));
    }
  }
  if (server_.past_grace()) return write(stopping_response());
  // Streams are written by this thread as the log grows: none holds a worker.
  if (path_ == "/api/alerts" &&
      (request.method() == http::verb::get || request.method() == http::verb::head)) {
    if (std::optional<HttpResponse> refusal = server_.alerts().open(stream_, *parser_)) {
      return write(std::move(*refusal));
    }
    state_ = State::kStreaming;
    server_.log(method_, path_, 200, started_);
    return;
  }
  state_ = State::kWorking;
  stream_.expires_never();
  // The health check is cheap, and is not to wait behind slow searches.
  WorkerPool& workers = path_ == "/healthz" ? server_.health() : server_.workers();
  // The guard keeps the I/O loop running until the answer is back, even
  // while the server is stopping.
  workers.submit({method_, target,
                  [self = shared_from_this(),
                   guard = asio::make_work_guard(server_.io())](HttpResponse answer) mutable {
                    // Moved, so that the worker keeps no reference once the answer is
                    // posted: the connection is destroyed on the I/O thread.
                    auto executor = self->stream_.get_executor();
                    asio::post(executor,
                               [self = std::move(self), answer = std::move(answer)]() mutable {
                                 self->write(std::move(answer));
                               });
                    guard.reset();
                  }});
}

void ClientConnection::write(HttpResponse answer) {
  state_ = State::kWriting;
  response_ = response_message(std::move(answer), *parser_, !server_.stopping());
  stream_.expires_after(kWriteTimeout);
  http::async_write(
      stream_, response_,
      [self = shared_from_this()](beast::error_code error, std::size_t) { self->on_write(error); });
}

void ClientConnection::on_write(beast::error_code error) {
  server_.log(method_, path_, response_.result_int(), started_);
  if (error || !response_.keep_alive() || server_.stopping()) return close();
  read();
}

void ClientConnection::stop() {
  if (state_ == State::kReading && !parser_->got_some() && buffer_.size() == 0) close();
}

void ClientConnection::close() {
  beast::error_code ignored;
  stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
  stream_.close();
}

}  // namespace quarry
