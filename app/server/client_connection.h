// One client's connection to `quarry serve`: reads a request, hands it to
// the workers, writes the answer, and again while the client keeps it
// alive. Runs on the I/O thread only; workers reach it by posting there.
#ifndef QUARRY_APP_SERVER_CLIENT_CONNECTION_H_
#define QUARRY_APP_SERVER_CLIENT_CONNECTION_H_

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "app/server/http_exchange.h"
#include "app/server/http_response.h"

namespace quarry {

class HttpServer;

class ClientConnection : public std::enable_shared_from_this<ClientConnection> {
 public:
  using Clock = std::chrono::steady_clock;

  ClientConnection(boost::asio::ip::tcp::socket socket, HttpServer& server);

  void start() { read(); }
  // The server is stopping: close now if no request has begun to arrive,
  // else after answering it (or when the grace runs out).
  void stop();

 private:
  // kStreaming: the socket went to an alert stream (AlertStreams).
  enum class State { kReading, kWorking, kWriting, kStreaming };

  void read();
  void on_read(boost::beast::error_code error);
  void write(HttpResponse answer);
  void on_write(boost::beast::error_code error);
  void close();

  HttpServer& server_;
  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
  std::optional<HttpRequestParser> parser_;
  HttpResponseMessage response_;
  State state_ = State::kReading;
  std::string method_;
  std::string path_;
  Clock::time_point started_;
};

}  // namespace quarry

#endif  // QUARRY_APP_SERVER_CLIENT_CONNECTION_H_
