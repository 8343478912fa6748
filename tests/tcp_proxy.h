// A loopback proxy between a client and a server's port, so that a test can
// watch, hold back or cut what the server sends: a server that stalls or
// dies in the middle of an answer, as the kernel alone never shows.
#ifndef QUARRY_TESTS_TCP_PROXY_H_
#define QUARRY_TESTS_TCP_PROXY_H_

#include <atomic>
#include <cstddef>
#include <limits>
#include <string>
#include <thread>
#include <vector>

namespace quarry::testing {

// Passes connections to a loopback port on to `target`, both ways, from a
// thread of its own; the destructor stops the thread, then closes every
// socket. What reaches the clients from the server is the ServerBytes'
// to decide; without one, all of it.
class TcpProxy {
 public:
  // What the proxy does with the server's bytes; called on the proxy's
  // thread alone.
  class ServerBytes {
   public:
    virtual ~ServerBytes() = default;
    // How many bytes may be read from the server now: 0 leaves them
    // unread in the kernel, as a client that stopped reading.
    virtual std::size_t readable() { return std::numeric_limits<std::size_t>::max(); }
    // How many of the `size` bytes the server sent over connection `link`
    // (numbered from 0 as accepted) reach the client; with `*end` set, the
    // connection ends after them.
    virtual std::size_t pass(std::size_t /*link*/, const char* /*bytes*/, std::size_t size,
                             bool* /*end*/) {
      return size;
    }
  };

  enum class Connections {
    kMany,       // each client its own connection to the server
    kOneAtATime  // a new client ends the connection before it
  };

  // `server_bytes`, when given, must outlive the proxy. Throws
  // std::runtime_error when no loopback port can be had.
  explicit TcpProxy(unsigned target, ServerBytes* server_bytes = nullptr,
                    Connections connections = Connections::kMany);
  ~TcpProxy();
  TcpProxy(const TcpProxy&) = delete;
  TcpProxy& operator=(const TcpProxy&) = delete;

  unsigned port() const { return port_; }
  // "remote 127.0.0.1:PORT", its line in a stub file.
  std::string stub_line() const;
  // Bytes of the server's passed on to clients, over every connection.
  std::size_t passed() const { return passed_; }
  // The loopback port the last client connected from; 0 before any did.
  unsigned client_port() const { return client_port_; }

 private:
  struct Link {
    int client = -1, server = -1;
    std::size_t number = 0;
  };

  void run();
  void accept_link();
  void end(Link& link);
  void forward(Link& link, bool from_server);

  ServerBytes all_;
  ServerBytes& server_bytes_;
  unsigned target_;
  Connections connections_;
  unsigned port_ = 0;  // before listen_fd_, which sets it
  int listen_fd_ = -1;
  // The proxy's thread's alone.
  std::vector<Link> links_;
  std::size_t accepted_ = 0;
  char buffer_[65536];
  std::atomic<bool> stop_{false};
  std::atomic<std::size_t> passed_{0};
  std::atomic<unsigned> client_port_{0};
  std::thread thread_;  // last: started once the rest is set
};

}  // namespace quarry::testing

#endif  // QUARRY_TESTS_TCP_PROXY_H_
