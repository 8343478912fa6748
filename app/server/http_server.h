// The loop of `quarry serve`: one thread that accepts connections and
// reads and writes every one of them (ClientConnection), the workers that
// answer their requests, and the stop after SIGINT or SIGTERM, as serve()
// (app/server/server.h) describes it.
#ifndef QUARRY_APP_SERVER_HTTP_SERVER_H_
#define QUARRY_APP_SERVER_HTTP_SERVER_H_

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <ostream>
#include <string_view>
#include <vector>

#include "app/common/serve_config.h"
#include "app/server/access_tokens.h"
#include "app/server/alert_streams.h"
#include "app/server/http_response.h"
#include "app/server/request_handler.h"
#include "app/server/server.h"
#include "app/server/worker_pool.h"

namespace quarry {

class ClientConnection;

// What a request is answered once the server no longer waits for its
// workers.
HttpResponse stopping_response();

class HttpServer {
 public:
  using Clock = std::chrono::steady_clock;

  // `tokens`, when given, guard every request.
  HttpServer(const ServerConfig& config, std::optional<AccessTokens> tokens, std::ostream& log,
             std::string_view program)
      : config_(config),
        tokens_(std::move(tokens)),
        log_(log),
        program_(program),
        alerts_(io_, config.db_paths, config.alert_streams) {}

  // Binds the address; returns the port.
  unsigned short listen(const boost::asio::ip::tcp::endpoint& endpoint);
  // `health` answers /healthz, `handlers` the rest.
  ServeEnd run(std::vector<RequestHandler> handlers, RequestHandler health);

  bool stopping() const { return stopping_; }
  // Requests that arrive now are answered 503 at once: the workers are no
  // longer waited for.
  bool past_grace() const { return withdrawn_; }
  boost::asio::io_context& io() { return io_; }
  WorkerPool& workers() { return *workers_; }
  WorkerPool& health() { return *health_; }
  AlertStreams& alerts() { return alerts_; }
  const ServerConfig& config() const { return config_; }
  const std::optional<AccessTokens>& tokens() const { return tokens_; }
  void log(std::string_view method, std::string_view path, int status, Clock::time_point start);

 private:
  void accept();
  void start(boost::asio::ip::tcp::socket socket);
  void begin_stop();
  void close_idle_connections();
  void answer_withdrawn();

  const ServerConfig& config_;
  const std::optional<AccessTokens> tokens_;
  std::ostream& log_;
  std::string_view program_;
  // Declared first, destroyed last: every socket and timer below is
  // registered with it.
  boost::asio::io_context io_{1};
  boost::asio::ip::tcp::acceptor acceptor_{io_};
  boost::asio::steady_timer accept_retry_{io_};
  boost::asio::signal_set signals_{io_};
  boost::asio::steady_timer idle_check_{io_};
  bool stopping_ = false;
  bool withdrawn_ = false;  // what was unanswered at stop_deadline_ got 503
  Clock::time_point stop_deadline_;
  // Every connection, for stopping them; expired entries are dropped as
  // the list grows.
  std::vector<std::weak_ptr<ClientConnection>> connections_;
  std::size_t prune_at_ = 64;
  std::unique_ptr<WorkerPool> workers_;
  std::unique_ptr<WorkerPool> health_;
  AlertStreams alerts_;
};

}  // namespace quarry

#endif  // QUARRY_APP_SERVER_HTTP_SERVER_H_
