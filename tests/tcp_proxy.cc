#include "tests/tcp_proxy.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>

#include "tests/test_util.h"

namespace quarry::testing {

TcpProxy::TcpProxy(unsigned target, ServerBytes* server_bytes, Connections connections)
    : server_bytes_(server_bytes ? *server_bytes : all_),
      target_(target),
      connections_(connections),
      listen_fd_(listen_on_loopback(&port_)),
      thread_([this] { run(); }) {}

TcpProxy::~TcpProxy() {
  stop_ = true;
  thread_.join();
  for (Link& link : links_) end(link);
  close(listen_fd_);
}

std::string TcpProxy::stub_line() const { return "remote 127.0.0.1:" + std::to_string(port_); }

void TcpProxy::run() {
  while (!stop_) {
    std::erase_if(links_, [](const Link& link) { return link.client < 0; });
    // Held: the server's bytes stay in the kernel, unread.
    const bool reading = server_bytes_.readable() > 0;
    std::vector<pollfd> fds{{listen_fd_, POLLIN, 0}};
    for (const Link& link : links_) {
      fds.push_back({link.client, POLLIN, 0});
      fds.push_back({reading ? link.server : -1, POLLIN, 0});
    }
    if (poll(fds.data(), fds.size(), 20) <= 0) continue;
    // A link accepted now was not polled: it is looked at next time.
    const std::size_t polled = links_.size();
    if (fds[0].revents & POLLIN) accept_link();
    for (std::size_t i = 0; i < polled; ++i) {
      Link& link = links_[i];
      constexpr short kReady = POLLIN | POLLHUP | POLLERR;
      if (link.client >= 0 && fds[1 + 2 * i].revents & kReady) forward(link, false);
      if (link.client >= 0 && fds[2 + 2 * i].revents & kReady) forward(link, true);
    }
  }
}

void TcpProxy::accept_link() {
  sockaddr_in peer{};
  socklen_t size = sizeof peer;
  const int client = accept4(listen_fd_, reinterpret_cast<sockaddr*>(&peer), &size, SOCK_CLOEXEC);
  if (client < 0) return;
  if (connections_ == Connections::kOneAtATime) {
    for (Link& link : links_) end(link);
  }
  const int server = connect_to_loopback(target_);
  if (server < 0) {
    close(client);
    return;
  }
  const int on = 1;
  setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
  links_.push_back({client, server, accepted_++});
  client_port_ = ntohs(peer.sin_port);
}

void TcpProxy::end(Link& link) {
  if (link.client >= 0) close(link.client);
  if (link.server >= 0) close(link.server);
  link.client = link.server = -1;
}

void TcpProxy::forward(Link& link, bool from_server) {
  const std::size_t most =
      from_server ? std::min(server_bytes_.readable(), sizeof buffer_) : sizeof buffer_;
  const ssize_t got = read(from_server ? link.server : link.client, buffer_, most);
  if (got <= 0) return end(link);
  std::size_t pass = static_cast<std::size_t>(got);
  bool end_after = false;
  if (from_server) pass = server_bytes_.pass(link.number, buffer_, pass, &end_after);
  const int to = from_server ? link.client : link.server;
  for (std::size_t sent = 0; sent < pass;) {
    const ssize_t wrote = write(to, buffer_ + sent, pass - sent);
    if (wrote <= 0) return end(link);
    sent += static_cast<std::size_t>(wrote);
    if (from_server) passed_ += static_cast<std::size_t>(wrote);
  }
  if (end_after) end(link);
}

}  // namespace quarry::testing
