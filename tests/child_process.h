// Running the real programs from a test. Every program a test starts, in
// the foreground, in the background or on a terminal, gets the environment
// program_environment() gives, and starts with the default signal
// dispositions whatever the test process ignores.
#ifndef QUARRY_TESTS_CHILD_PROCESS_H_
#define QUARRY_TESTS_CHILD_PROCESS_H_

#include <signal.h>
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace quarry::testing {

// This process's environment without the variables that would point a
// program at a person's index, files or colour choice (QUARRY_DB, NO_COLOR,
// XDG_DATA_HOME, XDG_STATE_HOME), and with `env` ("NAME=value") replacing
// variables of the same name.
std::vector<std::string> program_environment(const std::vector<std::string>& env = {});

// A program's arguments and environment, ready before fork: between fork
// and exec a child may call only async-signal-safe functions.
class ProgramImage {
 public:
  // `program` with `args` in program_environment(env), its files and its
  // memory limited as ChildOptions says when the limits are set.
  ProgramImage(const std::string& program, const std::vector<std::string>& args,
               const std::vector<std::string>& env,
               std::optional<unsigned long> file_size_limit = std::nullopt,
               std::optional<unsigned long> address_space_limit = std::nullopt);

  // In a child just forked: resets the signal mask and the dispositions the
  // test process may have changed, then runs the program, or exits 127.
  [[noreturn]] void exec();

 private:
  std::optional<unsigned long> file_size_limit_;
  std::optional<unsigned long> address_space_limit_;
  std::vector<std::string> strings_;
  std::vector<char*> argv_;
  std::vector<char*> envp_;
  sigset_t no_signals_;
};

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs a program with `args` (no shell) to its end, feeding `input` on
// stdin, in program_environment(env).
RunResult run_program(const std::string& program, const std::vector<std::string>& args,
                      const std::string& input = "", const std::vector<std::string>& env = {});

struct ChildOptions {
  // Added to the environment, as for program_environment.
  std::vector<std::string> env;
  // When set, the child's files may grow to this many bytes only, and a
  // write past it fails with EFBIG (SIGXFSZ is ignored), as on a full disk.
  std::optional<unsigned long> file_size_limit;
  // When set, standard error is a pipe that only wait() empties: a child
  // that writes more than the pipe holds stops in that write until the test
  // waits for it, which holds it at a point the test chooses.
  bool hold_err = false;
  // When set, standard input is a pipe the test writes to (write_in) and
  // closes (close_in), rather than /dev/null.
  bool pipe_in = false;
  // When set, the child may map this many bytes of memory only (RLIMIT_AS),
  // and an allocation past it fails, as when memory runs out.
  std::optional<unsigned long> address_space_limit = std::nullopt;
};

// A program started in the background, for tests that signal, kill or race
// it: standard input is /dev/null, output goes to files under `log_dir`
// (standard error to a pipe with hold_err), and every wait is bounded.
class ChildProcess {
 public:
  // Throws std::runtime_error if the program cannot be started.
  ChildProcess(const std::string& program, const std::vector<std::string>& args,
               const std::filesystem::path& log_dir, ChildOptions options = {});
  ~ChildProcess();  // kills and reaps the child if it still runs
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  void signal(int number);
  bool running();

  // The exit code (128 + the signal, when a signal ended it), or nullopt
  // when it still runs after `patience`. Empties a held standard error
  // meanwhile.
  std::optional<int> wait(std::chrono::milliseconds patience = std::chrono::seconds(120));

  // With hold_err: whether the child writes to standard error within
  // `patience`. What it wrote stays in the pipe.
  bool wait_for_err(std::chrono::milliseconds patience = std::chrono::seconds(120));

  // With pipe_in: writes all of `text` to the child's standard input;
  // false when it cannot (the child has closed it).
  bool write_in(const std::string& text);
  // With pipe_in: the end of the child's standard input.
  void close_in();

  std::string out() const;
  // Standard error as far as it was read (with hold_err, by wait()).
  std::string err() const;

 private:
  void drain_err();

  pid_t pid_ = -1;
  std::optional<int> exit_code_;
  std::filesystem::path out_path_;
  std::filesystem::path err_path_;
  int err_pipe_ = -1;
  int in_pipe_ = -1;
  std::string held_err_;
};

// Whether `server` listens on loopback `port` within a minute, while it runs.
bool listens_soon(unsigned port, ChildProcess& server);

}  // namespace quarry::testing

#endif  // QUARRY_TESTS_CHILD_PROCESS_H_
