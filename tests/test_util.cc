#include "tests/test_util.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pty.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>

extern char** environ;

namespace quarry::testing {

TempDir::TempDir() {
  std::random_device random;
  const auto base = std::filesystem::temp_directory_path();
  for (int attempt = 0; attempt < 100; ++attempt) {
    auto candidate = base / ("quarry-test-" + std::to_string(random()));
    if (std::filesystem::create_directory(candidate)) {
      path_ = candidate;
      return;
    }
  }
  throw std::runtime_error("cannot create a temporary folder");
}

TempDir::~TempDir() {
  std::error_code ignored;
  // A test may have made files unreadable or folders unwritable on purpose.
  std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::add, ignored);
  std::filesystem::remove_all(path_, ignored);
}

std::string to_json_lines(const std::vector<Article>& articles) {
  std::string out;
  for (const Article& article : articles) {
    const nlohmann::json line = {
        {"id", article.id},     {"title", article.title},       {"body", article.body},
        {"date", article.date}, {"category", article.category}, {"source", article.source}};
    out += line.dump() + "\n";
  }
  return out;
}

std::string index_path(const TempDir& dir) { return (dir / "index").string(); }

IndexReport index_articles(const TempDir& dir, const std::vector<Article>& articles,
                           const std::string& synonyms) {
  write_file(dir / "articles.jsonl", to_json_lines(articles));
  IndexConfig config;
  config.db_path = index_path(dir);
  if (!synonyms.empty()) {
    write_file(dir / "synonyms.txt", synonyms);
    config.synonyms_file = (dir / "synonyms.txt").string();
  }
  return index_paths(config, {(dir / "articles.jsonl").string()});
}

void write_file(const std::filesystem::path& path, const std::string& contents) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << contents;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

namespace {

bool is_cleared(const char* entry) {
  static const char* const kCleared[] = {
      "QUARRY_DB=", "NO_COLOR=", "XDG_DATA_HOME=", "XDG_STATE_HOME="};
  for (const char* prefix : kCleared) {
    if (std::strncmp(entry, prefix, std::strlen(prefix)) == 0) return true;
  }
  return false;
}

// Feeds `input` to `to_child` while draining both output pipes, so that no
// side blocks on a full pipe.
void pump(int to_child, int from_out, int from_err, const std::string& input, RunResult* result) {
  std::size_t written = 0;
  if (input.empty()) {
    close(to_child);
    to_child = -1;
  }
  char buffer[65536];
  while (from_out >= 0 || from_err >= 0) {
    pollfd fds[3];
    int n = 0;
    if (from_out >= 0) fds[n++] = {from_out, POLLIN, 0};
    if (from_err >= 0) fds[n++] = {from_err, POLLIN, 0};
    if (to_child >= 0) fds[n++] = {to_child, POLLOUT, 0};
    if (poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < n; ++i) {
      if (fds[i].revents == 0) continue;
      if (fds[i].fd == to_child) {
        ssize_t count = write(to_child, input.data() + written, input.size() - written);
        if (count > 0) written += count;
        if (count < 0 || written == input.size()) {
          close(to_child);
          to_child = -1;
        }
        continue;
      }
      ssize_t count = read(fds[i].fd, buffer, sizeof buffer);
      if (count > 0) {
        (fds[i].fd == from_out ? result->out : result->err).append(buffer, count);
      } else {
        close(fds[i].fd);
        (fds[i].fd == from_out ? from_out : from_err) = -1;
      }
    }
  }
  if (to_child >= 0) close(to_child);
}

}  // namespace

RunResult run_program(const std::string& program, const std::vector<std::string>& args,
                      const std::string& input, const std::vector<std::string>& env) {
  // A program that exits before reading all its input must not kill the test.
  std::signal(SIGPIPE, SIG_IGN);
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC)) {
    throw std::runtime_error("pipe failed");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);

  std::vector<std::string> argv_storage{program};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& arg : argv_storage) argv.push_back(arg.data());
  argv.push_back(nullptr);

  std::vector<std::string> env_storage;
  for (char** entry = environ; *entry; ++entry) {
    if (!is_cleared(*entry)) env_storage.emplace_back(*entry);
  }
  env_storage.insert(env_storage.end(), env.begin(), env.end());
  std::vector<char*> envp;
  for (auto& entry : env_storage) envp.push_back(entry.data());
  envp.push_back(nullptr);

  pid_t pid;
  int spawn_error = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(in[0]);
  close(out[1]);
  close(err[1]);
  if (spawn_error != 0) {
    close(in[1]);
    close(out[0]);
    close(err[0]);
    throw std::runtime_error("cannot run " + program + ": " + std::strerror(spawn_error));
  }
  RunResult result;
  pump(in[1], out[0], err[0], input, &result);
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

namespace {

std::string name_of(const std::string& entry) { return entry.substr(0, entry.find('=')); }

// run_program's environment, with `env` replacing variables of the same name.
std::vector<std::string> terminal_environment(const std::vector<std::string>& env) {
  std::vector<std::string> result;
  for (char** entry = environ; *entry; ++entry) {
    if (is_cleared(*entry)) continue;
    const std::string name = name_of(*entry);
    const bool replaced = std::any_of(
        env.begin(), env.end(), [&](const std::string& given) { return name_of(given) == name; });
    if (!replaced) result.emplace_back(*entry);
  }
  result.insert(result.end(), env.begin(), env.end());
  return result;
}

std::vector<char*> pointers_to(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (std::string& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

enum class Waiting { kYes, kNo, kUnknown };

// Whether `pid` sleeps in a call that waits for input with no time limit.
Waiting waits_for_input(pid_t pid) {
  const std::string proc = "/proc/" + std::to_string(pid);
  std::ifstream stat(proc + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return Waiting::kUnknown;
  // The state follows the command name, which may hold spaces and ')'.
  const std::size_t name_end = line.rfind(") ");
  if (name_end == std::string::npos || name_end + 2 >= line.size()) return Waiting::kUnknown;
  if (line[name_end + 2] != 'S') return Waiting::kNo;

  // "number arg1 … arg6 sp pc" while in a call, "running" or "-1 …" else.
  std::ifstream syscall_file(proc + "/syscall");
  if (!syscall_file) return Waiting::kUnknown;
  std::string first;
  if (!(syscall_file >> first)) return Waiting::kUnknown;  // not ours to trace
  if (first == "running") return Waiting::kNo;
  const long number = std::stol(first);
  if (number < 0) return Waiting::kNo;  // asleep, but not in a call
  std::vector<unsigned long> args;
  for (std::string word; args.size() < 6 && syscall_file >> word;) {
    args.push_back(std::stoul(word, nullptr, 16));
  }
  if (args.size() < 6) return Waiting::kUnknown;
  // The time limit is a null pointer for these, negative for poll.
  bool waiting = number == SYS_read || (number == SYS_pselect6 && args[4] == 0) ||
                 (number == SYS_ppoll && args[2] == 0);
#ifdef SYS_select
  waiting = waiting || (number == SYS_select && args[4] == 0);
#endif
#ifdef SYS_poll
  waiting = waiting || (number == SYS_poll && static_cast<int>(args[2]) < 0);
#endif
  return waiting ? Waiting::kYes : Waiting::kNo;
}

}  // namespace

Pty::Pty(const std::string& program, const std::vector<std::string>& args,
         const std::vector<std::string>& env, unsigned short rows, unsigned short columns) {
  // Everything the child needs is made before fork: after it, only
  // async-signal-safe calls are allowed.
  std::vector<std::string> argv_storage{program};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv = pointers_to(argv_storage);
  std::vector<std::string> env_storage = terminal_environment(env);
  std::vector<char*> envp = pointers_to(env_storage);
  sigset_t no_signals;
  sigemptyset(&no_signals);
  winsize size{};
  size.ws_row = rows;
  size.ws_col = columns;

  pid_ = forkpty(&master_, nullptr, nullptr, &size);
  if (pid_ < 0) throw std::runtime_error(std::string("forkpty failed: ") + std::strerror(errno));
  if (pid_ == 0) {
    // The test process may ignore or block signals (run_program ignores
    // SIGPIPE); a program at a terminal starts with the defaults.
    sigprocmask(SIG_SETMASK, &no_signals, nullptr);
    for (int number : {SIGINT, SIGQUIT, SIGPIPE, SIGTSTP}) std::signal(number, SIG_DFL);
    execve(program.c_str(), argv.data(), envp.data());
    _exit(127);
  }
  fcntl(master_, F_SETFD, FD_CLOEXEC);
}

Pty::~Pty() {
  if (!reaped()) {
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
  }
  close(master_);
}

void Pty::type(std::string_view keys) {
  while (!keys.empty()) {
    const ssize_t count = write(master_, keys.data(), keys.size());
    if (count < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("cannot write to the terminal: ") +
                               std::strerror(errno));
    }
    keys.remove_prefix(count);
  }
}

void Pty::read_some(std::chrono::milliseconds patience) {
  pollfd fd{master_, POLLIN, 0};
  const int ready =
      poll(&fd, 1, static_cast<int>(std::max<std::chrono::milliseconds::rep>(patience.count(), 0)));
  if (ready <= 0) return;
  char buffer[4096];
  const ssize_t count = read(master_, buffer, sizeof buffer);
  if (count > 0) {
    output_.append(buffer, count);
  } else if (count == 0 || errno != EINTR) {
    // Linux answers EIO once every process has closed the terminal.
    closed_ = true;
  }
}

bool Pty::wait_for(std::string_view text, std::chrono::milliseconds patience) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + patience;
  for (;;) {
    const std::size_t at = output_.find(text, matched_);
    if (at != std::string::npos) {
      matched_ = at + text.size();
      return true;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (closed_ || left.count() <= 0) return false;
    read_some(left);
  }
}

bool Pty::wait_idle(std::chrono::milliseconds patience) {
  using Clock = std::chrono::steady_clock;
  // How often to look while the program works; reading its output in
  // between keeps it from blocking on a full terminal.
  constexpr std::chrono::milliseconds kSlice{5};
  const auto deadline = Clock::now() + patience;
  for (;;) {
    switch (waits_for_input(pid_)) {
      case Waiting::kYes:
      case Waiting::kUnknown:
        return true;
      case Waiting::kNo:
        break;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0 || closed_ || !running()) return false;
    read_some(std::min(left, kSlice));
  }
}

bool Pty::reaped() {
  if (exit_code_) return true;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) != pid_) return false;
  exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return true;
}

bool Pty::running() { return !reaped(); }

std::optional<int> Pty::wait_exit(std::chrono::milliseconds patience) {
  using Clock = std::chrono::steady_clock;
  // Exiting closes the terminal, which wakes the read; the short slices
  // cover a program that leaves a child holding the terminal.
  constexpr std::chrono::milliseconds kSlice{20};
  const auto deadline = Clock::now() + patience;
  while (!reaped()) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return std::nullopt;
    if (closed_) {
      poll(nullptr, 0, static_cast<int>(std::min(left, kSlice).count()));
    } else {
      read_some(std::min(left, kSlice));
    }
  }
  return exit_code_;
}

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

bool accepts_connections(unsigned port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const sockaddr_in address = loopback(port);
  const bool connected =
      connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
  close(fd);
  return connected;
}

std::string find_tcpsrv() {
  if (const char* path = std::getenv("PATH")) {
    std::string folders = path;
    for (std::size_t start = 0; start <= folders.size();) {
      std::size_t colon = folders.find(':', start);
      if (colon == std::string::npos) colon = folders.size();
      const std::string candidate = folders.substr(start, colon - start) + "/xapian-tcpsrv";
      if (colon > start && access(candidate.c_str(), X_OK) == 0) return candidate;
      start = colon + 1;
    }
  }
  if (access("/usr/bin/xapian-tcpsrv", X_OK) == 0) return "/usr/bin/xapian-tcpsrv";
  throw std::runtime_error("xapian-tcpsrv not found: install xapian-tools");
}

}  // namespace

unsigned free_loopback_port() {
  unsigned port = 0;
  const int fd = bind_any_loopback_port(&port);
  if (fd < 0) throw std::runtime_error("cannot bind a loopback port");
  close(fd);
  return port;
}

TcpServer::TcpServer(const std::vector<std::string>& databases) {
  const std::string program = find_tcpsrv();
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

SilentListener::SilentListener() {
  fd_ = bind_any_loopback_port(&port_);
  if (fd_ < 0 || listen(fd_, 16) != 0) throw std::runtime_error("cannot listen on loopback");
}

SilentListener::~SilentListener() { close(fd_); }

}  // namespace quarry::testing
