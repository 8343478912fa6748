// A program started in the background, for tests that signal, kill or race
// it: its output goes to files, and every wait is bounded.
#ifndef QUARRY_TESTS_CHILD_PROCESS_H_
#define QUARRY_TESTS_CHILD_PROCESS_H_

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace quarry::testing {

struct ChildOptions {
  // When set, the child's files may grow to this many bytes only, and a
  // write past it fails with EFBIG (SIGXFSZ is ignored), as on a full disk.
  std::optional<unsigned long> file_size_limit;
};

class ChildProcess {
 public:
  // Starts `program` with `args` (no shell), with QUARRY_DB cleared from its
  // environment, standard input from /dev/null and standard output and
  // error in files under `log_dir`. Throws std::runtime_error if it cannot.
  ChildProcess(const std::string& program, const std::vector<std::string>& args,
               const std::filesystem::path& log_dir, ChildOptions options = {});
  ~ChildProcess();  // kills and reaps the child if it still runs
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  void signal(int number);
  bool running();

  // The exit code (128 + the signal, when a signal ended it), or nullopt
  // when it still runs after `patience`.
  std::optional<int> wait(std::chrono::milliseconds patience = std::chrono::seconds(120));

  std::string out() const;
  std::string err() const;

 private:
  pid_t pid_ = -1;
  std::optional<int> exit_code_;
  std::filesystem::path out_path_;
  std::filesystem::path err_path_;
};

}  // namespace quarry::testing

#endif  // QUARRY_TESTS_CHILD_PROCESS_H_
