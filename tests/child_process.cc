#include "tests/child_process.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace quarry::testing {
namespace {

std::string read_whole(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

int exit_code_of(int status) {
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

// Only async-signal-safe calls between fork and exec.
[[noreturn]] void exec_child(const std::vector<char*>& argv, int out, int err,
                             const ChildOptions& options) {
  const int in = open("/dev/null", O_RDONLY);
  if (in < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) _exit(127);
  if (options.file_size_limit) {
    const rlimit limit{*options.file_size_limit, *options.file_size_limit};
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) _exit(127);
    std::signal(SIGXFSZ, SIG_IGN);  // ignored dispositions survive exec
  }
  execv(argv[0], argv.data());
  _exit(127);
}

}  // namespace

ChildProcess::ChildProcess(const std::string& program, const std::vector<std::string>& args,
                           const std::filesystem::path& log_dir, ChildOptions options) {
  static int serial = 0;
  const std::string stem = "child-" + std::to_string(getpid()) + "-" + std::to_string(++serial);
  out_path_ = log_dir / (stem + ".out");
  err_path_ = log_dir / (stem + ".err");
  const int out = open(out_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const int err = open(err_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out < 0 || err < 0) throw std::runtime_error("cannot create " + out_path_.string());
  std::vector<std::string> all{program};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : all) argv.push_back(arg.data());
  argv.push_back(nullptr);
  unsetenv("QUARRY_DB");
  pid_ = fork();
  if (pid_ == 0) exec_child(argv, out, err, options);
  close(out);
  close(err);
  if (pid_ < 0) throw std::runtime_error("cannot start " + program);
}

ChildProcess::~ChildProcess() {
  if (running()) {
    kill(pid_, SIGKILL);
    wait();
  }
}

void ChildProcess::signal(int number) {
  if (!exit_code_) kill(pid_, number);
}

bool ChildProcess::running() { return !wait(std::chrono::milliseconds(0)).has_value(); }

std::optional<int> ChildProcess::wait(std::chrono::milliseconds patience) {
  const auto deadline = std::chrono::steady_clock::now() + patience;
  while (!exit_code_) {
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
  return exit_code_;
}

std::string ChildProcess::out() const { return read_whole(out_path_); }
std::string ChildProcess::err() const { return read_whole(err_path_); }

}  // namespace quarry::testing
