#include "app/server/http_server.h"

#include <boost/beast/core.hpp>
#include <csignal>
#include <cstdio>

#include "app/server/client_connection.h"
#include "quarry/error.h"

namespace quarry {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

// After SIGINT or SIGTERM, requests still unanswered after this are
// answered 503, and what is still unwritten after kStopWrite is dropped.
constexpr std::chrono::milliseconds kStopGrace{700};
constexpr std::chrono::milliseconds kStopWrite{250};
// How often the I/O loop looks at the clock while stopping.
constexpr std::chrono::milliseconds kStopCheck{20};
// After the signal, connections that have received no request by then are
// closed: one sent before the signal has been read by then.
constexpr std::chrono::milliseconds kStopIdle{100};
// A path is logged up to this many bytes.
constexpr std::size_t kLoggedPathBytes = 200;

// `path` fit for a log line: bytes outside printable ASCII as %XX, cut short.
std::string loggable(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string text;
  for (char c : path.substr(0, kLoggedPathBytes)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte > 0x20 && byte < 0x7F) {
      text += c;
    } else {
      text += '%';
      text += kHex[byte >> 4];
      text += kHex[byte & 0xF];
    }
  }
  if (path.size() > kLoggedPathBytes) text += "…";
  return text;
}

}  // namespace

HttpResponse stopping_response() {
  return json_error_response(503, "the server is stopping; ask again once it is back");
}

unsigned short HttpServer::listen(const tcp::endpoint& endpoint) {
  try {
    acceptor_.open(endpoint.protocol());
    acceptor_.set_option(asio::socket_base::reuse_address(true));
    acceptor_.bind(endpoint);
    acceptor_.listen(asio::socket_base::max_listen_connections);
  } catch (const boost::system::system_error& error) {
    throw Error("cannot listen on " + config_.listen + ": " + error.code().message());
  }
  // Caught from now on, before anyone is told where to connect: a signal
  // that comes before run() waits for it is kept until then.
  signals_.add(SIGINT);
  signals_.add(SIGTERM);
  return acceptor_.local_endpoint().port();
}

ServeEnd HttpServer::run(std::vector<RequestHandler> handlers, RequestHandler health) {
  workers_ = std::make_unique<WorkerPool>(std::move(handlers));
  std::vector<RequestHandler> health_handlers;
  health_handlers.push_back(std::move(health));
  health_ = std::make_unique<WorkerPool>(std::move(health_handlers));
  signals_.async_wait([this](beast::error_code error, int) {
    if (!error) begin_stop();
  });
  accept();
  // Returns when nothing is left to do: after a signal, once the last
  // connection has closed, or once the answers of the grace's end are
  // written.
  while (!io_.stopped()) {
    io_.run_for(kStopCheck);
    if (!stopping_ || Clock::now() < stop_deadline_) continue;
    if (withdrawn_) {
      io_.stop();
    } else {
      answer_withdrawn();
    }
  }
  const bool left_running = workers_->left_running() || health_->left_running();
  // Joins the workers but those left running; jobs not started are dropped.
  workers_.reset();
  health_.reset();
  return left_running ? ServeEnd::kSearchesLeftRunning : ServeEnd::kClean;
}

void HttpServer::answer_withdrawn() {
  withdrawn_ = true;
  stop_deadline_ = Clock::now() + kStopWrite;
  for (WorkerPool* pool : {workers_.get(), health_.get()}) {
    for (auto& done : pool->withdraw()) done(stopping_response());
  }
}

void HttpServer::accept() {
  acceptor_.async_accept([this](beast::error_code error, tcp::socket socket) {
    if (!error) start(std::move(socket));
    if (stopping_) return;
    if (error) {
      // Out of file descriptors, most likely: connections already open
      // will close, and the waiting ones stay queued in the kernel.
      accept_retry_.expires_after(std::chrono::milliseconds(100));
      accept_retry_.async_wait([this](beast::error_code aborted) {
        if (!aborted && !stopping_) accept();
      });
      return;
    }
    accept();
  });
}

void HttpServer::start(tcp::socket socket) {
  auto connection = std::make_shared<ClientConnection>(std::move(socket), *this);
  if (connections_.size() >= prune_at_) {
    std::erase_if(connections_, [](const auto& weak) { return weak.expired(); });
    prune_at_ = 2 * connections_.size() + 64;
  }
  connections_.push_back(connection);
  connection->start();
}

void HttpServer::begin_stop() {
  stopping_ = true;
  stop_deadline_ = Clock::now() + kStopGrace;
  // A stream has no end of its own: it ends with the server.
  alerts_.stop();
  // A second signal now ends the server at once, as the default action does.
  signals_.clear();
  accept_retry_.cancel();
  // Clients whose connection the kernel has accepted have sent their
  // request, as far as they know: take them in before closing.
  beast::error_code error;
  acceptor_.cancel(error);
  acceptor_.non_blocking(true, error);
  while (!error) {
    tcp::socket socket = acceptor_.accept(error);
    if (!error) start(std::move(socket));
  }
  acceptor_.close(error);
  idle_check_.expires_after(kStopIdle);
  idle_check_.async_wait([this](beast::error_code cancelled) {
    if (!cancelled) close_idle_connections();
  });
}

void HttpServer::close_idle_connections() {
  for (const std::weak_ptr<ClientConnection>& weak : connections_) {
    if (auto connection = weak.lock()) connection->stop();
  }
  connections_.clear();
}

void HttpServer::log(std::string_view method, std::string_view path, int status,
                     Clock::time_point start) {
  if (!config_.log_requests) return;
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  char took[32];
  std::snprintf(took, sizeof took, "%.1f", ms);
  log_ << program_ << ": " << loggable(method) << ' ' << loggable(path) << ' ' << status << ' '
       << took << " ms" << std::endl;
}

}  // namespace quarry
