#include "tests/pty.h"

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "tests/child_process.h"

extern char** environ;

namespace quarry::testing {

namespace {

// Whether `pid` sleeps in a call that waits for input with no time limit:
// a read of its standard input, or a select or poll without a timeout.
// False when it has ended. Throws std::runtime_error when /proc does not
// say (not Linux, or a sandbox that hides other processes' calls): the
// tests that ask cannot be run without knowing.
bool waits_for_input(pid_t pid) {
  const std::string proc = "/proc/" + std::to_string(pid);
  std::ifstream stat(proc + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;  // reaped
  // The state follows the command name, which may hold spaces and ')'.
  const std::size_t name_end = line.rfind(") ");
  if (name_end == std::string::npos || name_end + 2 >= line.size()) {
    throw std::runtime_error("cannot parse " + proc + "/stat: " + line);
  }
  if (line[name_end + 2] != 'S') return false;

  // "number arg1 … arg6 sp pc" while in a call, "running" or "-1 …" else.
  std::ifstream syscall_file(proc + "/syscall");
  std::string first;
  if (!(syscall_file >> first)) {
    throw std::runtime_error("cannot read " + proc + "/syscall, which tells when a program " +
                             "waits for keys");
  }
  if (first == "running") return false;
  const long number = std::stol(first);
  if (number < 0) return false;  // asleep, but not in a call
  std::vector<unsigned long> args;
  for (std::string word; args.size() < 6 && syscall_file >> word;) {
    args.push_back(std::stoul(word, nullptr, 16));
  }
  if (args.size() < 6) throw std::runtime_error("cannot parse " + proc + "/syscall");
  // The time limit is a null pointer for these, negative for poll.
  bool waiting = (number == SYS_read && args[0] == STDIN_FILENO) ||
                 (number == SYS_pselect6 && args[4] == 0) || (number == SYS_ppoll && args[2] == 0);
#ifdef SYS_select
  waiting = waiting || (number == SYS_select && args[4] == 0);
#endif
#ifdef SYS_poll
  waiting = waiting || (number == SYS_poll && static_cast<int>(args[2]) < 0);
#endif
  return waiting;
}

// How many typed bytes the program on the terminal of `master` has not
// read yet. Throws std::runtime_error when the terminal cannot say.
int unread_keys(int master) {
  const char* const name = ptsname(master);
  const int terminal = name ? open(name, O_RDWR | O_NOCTTY | O_CLOEXEC) : -1;
  int count = 0;
  const bool known = terminal >= 0 && ioctl(terminal, FIONREAD, &count) == 0;
  if (terminal >= 0) close(terminal);
  if (!known) throw std::runtime_error("cannot ask the terminal what is left unread");
  return count;
}

}  // namespace

Pty::Pty(const std::string& program, const std::vector<std::string>& args,
         const std::vector<std::string>& env, unsigned short rows, unsigned short columns) {
  ProgramImage image(program, args, env);
  winsize size{};
  size.ws_row = rows;
  size.ws_col = columns;

  pid_ = forkpty(&master_, nullptr, nullptr, &size);
  if (pid_ < 0) throw std::runtime_error(std::string("forkpty failed: ") + std::strerror(errno));
  if (pid_ == 0) image.exec();
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

void Pty::resize(unsigned short rows, unsigned short columns) {
  winsize size{};
  size.ws_row = rows;
  size.ws_col = columns;
  if (ioctl(master_, TIOCSWINSZ, &size) != 0) {
    throw std::runtime_error(std::string("cannot resize the terminal: ") + std::strerror(errno));
  }
  // The terminal sends SIGWINCH itself when the size changes; this one
  // reaches the program when it does not lead the terminal's foreground.
  kill(pid_, SIGWINCH);
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
    // A program still asleep in the call that began before the last keys
    // were typed has not seen them: it is idle only once they are read.
    if (unread_keys(master_) == 0 && waits_for_input(pid_)) return true;
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

}  // namespace quarry::testing
