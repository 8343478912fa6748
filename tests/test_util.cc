#include "tests/test_util.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
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

void write_file(const std::filesystem::path& path, const std::string& contents) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << contents;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

namespace {

bool is_cleared(const char* entry) {
  static const char* const kCleared[] = {"QUARRY_DB=", "NO_COLOR=", "XDG_DATA_HOME=",
                                         "XDG_STATE_HOME="};
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
  int spawn_error =
      posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), envp.data());
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

}  // namespace quarry::testing
