#include "tests/loopback.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "tests/child_process.h"
#include "tests/test_util.h"

extern char** environ;

namespace quarry::testing {

namespace {

sockaddr_in loopback(unsigned port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  return address;
}

// A socket bound to a port the system picks; -1 on failure.
int bind_any_loopback_port(unsigned* port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in address = loopback(0);
  socklen_t size = sizeof address;
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
    close(fd);
    return -1;
  }
  *port = ntohs(address.sin_port);
  return fd;
}

}  // namespace

bool accepts_connections(unsigned port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const sockaddr_in address = loopback(port);
  const bool connected =
      connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
  close(fd);
  return connected;
}

std::string find_xapian_tool(const std::string& name) {
  if (const char* path = std::getenv("PATH")) {
    const std::string folders = path;
    for (std::size_t start = 0; start <= folders.size();) {
      std::size_t colon = folders.find(':', start);
      if (colon == std::string::npos) colon = folders.size();
      const std::string candidate = folders.substr(start, colon - start) + "/" + name;
      if (colon > start && access(candidate.c_str(), X_OK) == 0) return candidate;
      start = colon + 1;
    }
  }
  if (const std::string usual = "/usr/bin/" + name; access(usual.c_str(), X_OK) == 0) return usual;
  throw std::runtime_error(name + " not found: install xapian-tools (make deps does)");
}

unsigned free_loopback_port() {
  unsigned port = 0;
  const int fd = bind_any_loopback_port(&port);
  if (fd < 0) throw std::runtime_error("cannot bind a loopback port");
  close(fd);
  return port;
}

TcpServer::TcpServer(const std::vector<std::string>& databases) {
  const std::string program = find_xapian_tool("xapian-tcpsrv");
  // The port may be taken between choosing and binding it: the server then
  // exits, and another port is tried.
  constexpr int kAttempts = 5;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    port_ = free_loopback_port();
    std::vector<std::string> args{program,     "--quiet", "--interface",
                                  "127.0.0.1", "--port",  std::to_string(port_)};
    args.insert(args.end(), databases.begin(), databases.end());
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    const int error =
        posix_spawn(&pid_, program.c_str(), &actions, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (error != 0) throw std::runtime_error("cannot run " + program + ": " + std::strerror(error));

    const auto deadline = std::chrono::steady_clock::now() + kPatience;
    while (std::chrono::steady_clock::now() < deadline) {
      if (accepts_connections(port_)) return;
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) break;  // exited: port taken?
      poll(nullptr, 0, 20);
    }
    stop();
  }
  throw std::runtime_error("xapian-tcpsrv does not accept connections");
}

TcpServer::~TcpServer() { stop(); }

std::string TcpServer::stub_line() const { return "remote 127.0.0.1:" + std::to_string(port_); }

void TcpServer::stop() {
  if (pid_ <= 0) return;
  kill(-pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
}

void TcpServer::pause() {
  if (pid_ > 0) kill(-pid_, SIGSTOP);
}

void TcpServer::resume() {
  if (pid_ > 0) kill(-pid_, SIGCONT);
}

int listen_on_loopback(unsigned* port) {
  const int fd = bind_any_loopback_port(port);
  if (fd < 0 || listen(fd, 16) != 0) {
    if (fd >= 0) close(fd);
    throw std::runtime_error("cannot listen on loopback");
  }
  return fd;
}

int connect_to_loopback(unsigned port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  if (connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    close(fd);
    return -1;
  }
  const int on = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
  return fd;
}

}  // namespace quarry::testing
