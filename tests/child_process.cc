#include "tests/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <utility>

#include "tests/test_util.h"

extern char** environ;

namespace quarry::testing {
namespace {

std::string name_of(const std::string& entry) { return entry.substr(0, entry.find('=')); }

bool is_cleared(const std::string& name) {
  static const char* const kCleared[] = {"QUARRY_DB", "NO_COLOR", "XDG_DATA_HOME",
                                         "XDG_STATE_HOME"};
  return std::any_of(std::begin(kCleared), std::end(kCleared),
                     [&](const char* cleared) { return name == cleared; });
}

int exit_code_of(int status) {
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

// Starts `program` with `in`, `out` and `err` as its standard streams.
pid_t start(const std::string& program, const std::vector<std::string>& args,
            const std::vector<std::string>& env, int in, int out, int err,
            const ChildOptions& options = {}) {
  ProgramImage image(program, args, env, options.file_size_limit, options.address_space_limit);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("cannot start " + program + ": " + std::strerror(errno));
  if (pid > 0) return pid;
  if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) _exit(127);
  image.exec();
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

// A pipe whose ends are closed on exec: its read end and its write end,
// or -1 for each when none can be made.
std::pair<int, int> cloexec_pipe() {
  int ends[2];
  if (pipe2(ends, O_CLOEXEC) != 0) return {-1, -1};
  return {ends[0], ends[1]};
}

}  // namespace

std::vector<std::string> program_environment(const std::vector<std::string>& env) {
  std::vector<std::string> result;
  for (char** entry = environ; *entry; ++entry) {
    const std::string name = name_of(*entry);
    const bool replaced = std::any_of(
        env.begin(), env.end(), [&](const std::string& given) { return name_of(given) == name; });
    if (!is_cleared(name) && !replaced) result.emplace_back(*entry);
  }
  result.insert(result.end(), env.begin(), env.end());
  return result;
}

ProgramImage::ProgramImage(const std::string& program, const std::vector<std::string>& args,
                           const std::vector<std::string>& env,
                           std::optional<unsigned long> file_size_limit,
                           std::optional<unsigned long> address_space_limit)
    : file_size_limit_(file_size_limit),
      address_space_limit_(address_space_limit),
      strings_(program_environment(env)) {
  const std::size_t env_count = strings_.size();
  strings_.push_back(program);
  strings_.insert(strings_.end(), args.begin(), args.end());
  for (std::size_t i = env_count; i < strings_.size(); ++i) argv_.push_back(strings_[i].data());
  argv_.push_back(nullptr);
  for (std::size_t i = 0; i < env_count; ++i) envp_.push_back(strings_[i].data());
  envp_.push_back(nullptr);
  sigemptyset(&no_signals_);
}

void ProgramImage::exec() {
  // The test process may ignore or block signals (run_program ignores
  // SIGPIPE); a program started from a shell gets the defaults.
  sigprocmask(SIG_SETMASK, &no_signals_, nullptr);
  for (int number : {SIGINT, SIGQUIT, SIGPIPE, SIGTSTP, SIGTERM}) std::signal(number, SIG_DFL);
  if (file_size_limit_) {
    const rlimit limit{*file_size_limit_, *file_size_limit_};
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) _exit(127);
    std::signal(SIGXFSZ, SIG_IGN);  // ignored dispositions survive exec
  }
  if (address_space_limit_) {
    const rlimit limit{*address_space_limit_, *address_space_limit_};
    if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(127);
  }
  execve(argv_[0], argv_.data(), envp_.data());
  _exit(127);
}

RunResult run_program(const std::string& program, const std::vector<std::string>& args,
                      const std::string& input, const std::vector<std::string>& env) {
  // A program that exits before reading all its input must not kill the test.
  std::signal(SIGPIPE, SIG_IGN);
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC)) {
    throw std::runtime_error("pipe failed");
  }
  pid_t pid = -1;
  try {
    pid = start(program, args, env, in[0], out[1], err[1]);
  } catch (...) {
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) close(fd);
    throw;
  }
  close(in[0]);
  close(out[1]);
  close(err[1]);
  RunResult result;
  pump(in[1], out[0], err[0], input, &result);
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = exit_code_of(status);
  return result;
}

ChildProcess::ChildProcess(const std::string& program, const std::vector<std::string>& args,
                           const std::filesystem::path& log_dir, ChildOptions options) {
  static int serial = 0;
  const std::string stem = "child-" + std::to_string(getpid()) + "-" + std::to_string(++serial);
  out_path_ = log_dir / (stem + ".out");
  err_path_ = log_dir / (stem + ".err");
  int in = -1;
  if (options.pipe_in) {
    std::tie(in, in_pipe_) = cloexec_pipe();
  } else {
    in = open("/dev/null", O_RDONLY | O_CLOEXEC);
  }
  const int out = open(out_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int err = -1;
  if (options.hold_err) {
    std::tie(err_pipe_, err) = cloexec_pipe();
    if (err_pipe_ >= 0) fcntl(err_pipe_, F_SETFL, O_NONBLOCK);
  } else {
    err = open(err_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  }
  try {
    if (in < 0 || out < 0 || err < 0) {
      throw std::runtime_error("cannot set up the output of " + program + " in " +
                               log_dir.string());
    }
    pid_ = start(program, args, options.env, in, out, err, options);
  } catch (...) {
    for (int fd : {in, out, err, err_pipe_, in_pipe_}) {
      if (fd >= 0) close(fd);
    }
    throw;
  }
  close(in);
  close(out);
  close(err);
}

ChildProcess::~ChildProcess() {
  if (running()) {
    kill(pid_, SIGKILL);
    wait();
  }
  if (err_pipe_ >= 0) close(err_pipe_);
  close_in();
}

bool ChildProcess::write_in(const std::string& text) {
  // A child that has gone must not kill the test.
  std::signal(SIGPIPE, SIG_IGN);
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t count = write(in_pipe_, text.data() + done, text.size() - done);
    if (count < 0 && errno == EINTR) continue;
    if (count <= 0) return false;
    done += static_cast<std::size_t>(count);
  }
  return true;
}

void ChildProcess::close_in() {
  if (in_pipe_ >= 0) close(in_pipe_);
  in_pipe_ = -1;
}

void ChildProcess::signal(int number) {
  if (!exit_code_) kill(pid_, number);
}

bool ChildProcess::running() { return !wait(std::chrono::milliseconds(0)).has_value(); }

void ChildProcess::drain_err() {
  if (err_pipe_ < 0) return;
  char buffer[65536];
  for (;;) {
    const ssize_t count = read(err_pipe_, buffer, sizeof buffer);
    if (count > 0) {
      held_err_.append(buffer, static_cast<std::size_t>(count));
    } else if (count < 0 && errno == EINTR) {
      continue;
    } else {
      return;  // empty for now (EAGAIN), or closed by every writer
    }
  }
}

std::optional<int> ChildProcess::wait(std::chrono::milliseconds patience) {
  const auto deadline = std::chrono::steady_clock::now() + patience;
  while (!exit_code_) {
    drain_err();
    int status = 0;
    const pid_t done = waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      exit_code_ = exit_code_of(status);
    } else if (std::chrono::steady_clock::now() >= deadline) {
      return std::nullopt;
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  drain_err();
  return exit_code_;
}

bool ChildProcess::wait_for_err(std::chrono::milliseconds patience) {
  if (err_pipe_ < 0) throw std::logic_error("standard error is not held");
  pollfd fd{err_pipe_, POLLIN, 0};
  for (;;) {
    const int ready = poll(&fd, 1, static_cast<int>(patience.count()));
    if (ready >= 0 || errno != EINTR) return ready > 0 && (fd.revents & POLLIN);
  }
}

std::string ChildProcess::out() const { return read_file(out_path_); }

std::string ChildProcess::err() const { return err_pipe_ >= 0 ? held_err_ : read_file(err_path_); }

bool listens_soon(unsigned port, ChildProcess& server) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (std::chrono::steady_clock::now() < deadline && server.running()) {
    if (accepts_connections(port)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

}  // namespace quarry::testing
