#include "app/server/server.h"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <csignal>
#include <memory>
#include <optional>

#include "app/server/access_tokens.h"
#include "app/server/alert_streams.h"
#include "app/server/http_exchange.h"
#include "app/server/listen_address.h"
#include "app/server/request_handler.h"
#include "app/server/worker_pool.h"
#include "quarry/error.h"
#include "quarry/thread_count.h"

namespace quarry {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

// How long a client may take to send a request (and an idle connection
// may wait for its next one), and to read an answer.
constexpr std::chrono::seconds kReadTimeout{10};
constexpr std::chrono::seconds kWriteTimeout{10};
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

HttpResponse stopping_response() {
  return json_error_response(503, "the server is stopping; ask again once it is back");
}

class Server;

// One client's connection: reads a request, hands it to the workers,
// writes the answer, and again while the client keeps it alive. Runs on the
// I/O thread only; workers reach it by posting there.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(tcp::socket socket, Server& server);

  void start() { read(); }
  // The server is stopping: close now if no request has begun to arrive,
  // else after answering it (or when the grace runs out).
  void stop();

 private:
  // kStreaming: the socket went to an alert stream (AlertStreams).
  enum class State { kReading, kWorking, kWriting, kStreaming };

  void read();
  void on_read(beast::error_code error);
  void write(HttpResponse answer);
  void on_write(beast::error_code error);
  void close();

  Server& server_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<HttpRequestParser> parser_;
  HttpResponseMessage response_;
  State state_ = State::kReading;
  std::string method_;
  std::string path_;
  Clock::time_point started_;
};

class Server {
 public:
  // `tokens`, when given, guard every request.
  Server(const ServerConfig& config, std::optional<AccessTokens> tokens, std::ostream& log,
         std::string_view program)
      : config_(config),
        tokens_(std::move(tokens)),
        log_(log),
        program_(program),
        alerts_(io_, config.db_paths, config.alert_streams) {}

  // Binds the address; returns the port.
  unsigned short listen(const tcp::endpoint& endpoint);
  // `health` answers /healthz, `handlers` the rest.
  ServeEnd run(std::vector<RequestHandler> handlers, RequestHandler health);

  bool stopping() const { return stopping_; }
  // Requests that arrive now are answered 503 at once: the workers are no
  // longer waited for.
  bool past_grace() const { return withdrawn_; }
  asio::io_context& io() { return io_; }
  WorkerPool& workers() { return *workers_; }
  WorkerPool& health() { return *health_; }
  AlertStreams& alerts() { return alerts_; }
  const ServerConfig& config() const { return config_; }
  const std::optional<AccessTokens>& tokens() const { return tokens_; }
  void log(std::string_view method, std::string_view path, int status, Clock::time_point start);

 private:
  void accept();
  void start(tcp::socket socket);
  void begin_stop();
  void close_idle_connections();
  void answer_withdrawn();

  const ServerConfig& config_;
  const std::optional<AccessTokens> tokens_;
  std::ostream& log_;
  std::string_view program_;
  // Declared first, destroyed last: every socket and timer below is
  // registered with it.
  asio::io_context io_{1};
  tcp::acceptor acceptor_{io_};
  asio::steady_timer accept_retry_{io_};
  asio::signal_set signals_{io_};
  asio::steady_timer idle_check_{io_};
  bool stopping_ = false;
  bool withdrawn_ = false;  // what was unanswered at stop_deadline_ got 503
  Clock::time_point stop_deadline_;
  // Every connection, for stopping them; expired entries are dropped as
  // the list grows.
  std::vector<std::weak_ptr<Connection>> connections_;
  std::size_t prune_at_ = 64;
  std::unique_ptr<WorkerPool> workers_;
  std::unique_ptr<WorkerPool> health_;
  AlertStreams alerts_;
};

Connection::Connection(tcp::socket socket, Server& server)
    : server_(server), stream_(std::move(socket)) {}

void Connection::read() {
  state_ = State::kReading;
  start_request(parser_);
  stream_.expires_after(kReadTimeout);
  http::async_read(
      stream_, buffer_, *parser_,
      [self = shared_from_this()](beast::error_code error, std::size_t) { self->on_read(error); });
}

void Connection::on_read(beast::error_code error) {
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

void Connection::write(HttpResponse answer) {
  state_ = State::kWriting;
  response_ = response_message(std::move(answer), *parser_, !server_.stopping());
  stream_.expires_after(kWriteTimeout);
  http::async_write(
      stream_, response_,
      [self = shared_from_this()](beast::error_code error, std::size_t) { self->on_write(error); });
}

void Connection::on_write(beast::error_code error) {
  server_.log(method_, path_, response_.result_int(), started_);
  if (error || !response_.keep_alive() || server_.stopping()) return close();
  read();
}

void Connection::stop() {
  if (state_ == State::kReading && !parser_->got_some() && buffer_.size() == 0) close();
}

void Connection::close() {
  beast::error_code ignored;
  stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
  stream_.close();
}

unsigned short Server::listen(const tcp::endpoint& endpoint) {
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

ServeEnd Server::run(std::vector<RequestHandler> handlers, RequestHandler health) {
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

void Server::answer_withdrawn() {
  withdrawn_ = true;
  stop_deadline_ = Clock::now() + kStopWrite;
  for (WorkerPool* pool : {workers_.get(), health_.get()}) {
    for (auto& done : pool->withdraw()) done(stopping_response());
  }
}

void Server::accept() {
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

void Server::start(tcp::socket socket) {
  auto connection = std::make_shared<Connection>(std::move(socket), *this);
  if (connections_.size() >= prune_at_) {
    std::erase_if(connections_, [](const auto& weak) { return weak.expired(); });
    prune_at_ = 2 * connections_.size() + 64;
  }
  connections_.push_back(connection);
  connection->start();
}

void Server::begin_stop() {
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

void Server::close_idle_connections() {
  for (const std::weak_ptr<Connection>& weak : connections_) {
    if (auto connection = weak.lock()) connection->stop();
  }
  connections_.clear();
}

void Server::log(std::string_view method, std::string_view path, int status,
                 Clock::time_point start) {
  if (!config_.log_requests) return;
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  char took[32];
  std::snprintf(took, sizeof took, "%.1f", ms);
  log_ << program_ << ": " << loggable(method) << ' ' << loggable(path) << ' ' << status << ' '
       << took << " ms" << std::endl;
}

}  // namespace

ServeEnd serve(const ServerConfig& config, std::ostream& out, std::ostream& log,
               std::string_view program) {
  const tcp::endpoint endpoint = parse_listen(config.listen);
  const asio::ip::address address = endpoint.address();
  std::optional<AccessTokens> tokens;
  if (!config.token_file.empty()) {
    tokens = AccessTokens::read_file(config.token_file);
  } else if (!address.is_loopback() && !config.open_to_all) {
    throw ConfigError("--listen " + config.listen +
                      " is not loopback: give --token-file FILE to ask every request for a "
                      "token, or --public to let anyone who can reach it read the index");
  }
  // Shared by the workers, so that an answer one of them found serves all.
  std::shared_ptr<ResponseCache> cache;
  if (config.cache_bytes > 0) cache = std::make_shared<ResponseCache>(config.cache_bytes);
  std::vector<RequestHandler> handlers;
  for (std::size_t i = 0; i < thread_count(config.threads); ++i) {
    handlers.emplace_back(config.db_paths, config.open, cache, config.limits);
  }
  // Opened now, so that the first requests are not slower, and so that a
  // wrong path is said at once rather than in every answer.
  for (RequestHandler& handler : handlers) {
    if (std::optional<std::string> problem = handler.open()) {
      log << program << ": warning: " << *problem << "; answering 503 until it can be opened"
          << std::endl;
      break;
    }
  }
  const bool guarded = tokens.has_value();
  Server server(config, std::move(tokens), log, program);
  const unsigned short port = server.listen(endpoint);
  if (!address.is_loopback()) {
    log << program << ": warning: serving on " << address.to_string()
        << (guarded ? ": tokens and articles cross the network unencrypted (no TLS)"
                    : ": anyone who can reach this port can read the whole index (--public)")
        << std::endl;
  }
  out << "listening on http://" << url_host(address) << ':' << port << std::endl;
  return server.run(std::move(handlers), RequestHandler(config.db_paths, config.open));
}

}  // namespace quarry
