// Servers and sockets on the loopback interface, for the tests of remote
// shards and of quarry serve: free ports, xapian-tcpsrv, and a listener
// that never answers.
#ifndef QUARRY_TESTS_LOOPBACK_H_
#define QUARRY_TESTS_LOOPBACK_H_

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

#include "lib/input/file_descriptor.h"

namespace quarry::testing {

// A free TCP port on the loopback interface: one the system just gave out
// and took back. Another process may take it before it is used.
unsigned free_loopback_port();
// Whether something listens on the loopback port.
bool accepts_connections(unsigned port);

// The path of a program of xapian-tools (xapian-tcpsrv, xapian-replicate …),
// from PATH or /usr/bin. Throws std::runtime_error saying to install
// xapian-tools when it is missing: the tests that need it fail, never skip.
std::string find_xapian_tool(const std::string& name);

// xapian-tcpsrv serving databases read-only on the loopback interface. It
// runs in a process group of its own, as it forks a child per connection;
// stop() and the destructor kill the group and reap the server. Throws
// std::runtime_error when xapian-tcpsrv cannot be found (it is a declared
// dependency) or does not accept connections within its patience.
class TcpServer {
 public:
  static constexpr std::chrono::milliseconds kPatience{10000};

  explicit TcpServer(const std::vector<std::string>& databases);
  ~TcpServer();
  TcpServer(const TcpServer&) = delete;
  TcpServer& operator=(const TcpServer&) = delete;

  unsigned port() const { return port_; }
  // "remote 127.0.0.1:PORT", its line in a stub file.
  std::string stub_line() const;
  // Kills the server and every connection it serves.
  void stop();
  // Stops the server and every connection it serves (SIGSTOP), as a
  // machine that froze: the kernel still accepts connections for it, and
  // nothing answers them. resume() lets it go on.
  void pause();
  void resume();

 private:
  pid_t pid_ = -1;
  unsigned port_ = 0;
};

// A socket listening on a loopback port the system picks, which it stores
// in `port`. Throws std::runtime_error when it cannot.
int listen_on_loopback(unsigned* port);

// A socket connected to a loopback `port`, sending small messages at once
// (TCP_NODELAY, as Xapian's own sockets do: without, they wait for
// acknowledgements); -1 when it cannot connect.
int connect_to_loopback(unsigned port);

// A loopback port that accepts connections (the kernel does) but never
// answers, as a shard that hangs would.
class SilentListener {
 public:
  SilentListener() : fd_(listen_on_loopback(&port_)) {}

  unsigned port() const { return port_; }

 private:
  unsigned port_ = 0;  // before fd_, which sets it
  detail::FileDescriptor fd_;
};

}  // namespace quarry::testing

#endif  // QUARRY_TESTS_LOOPBACK_H_
