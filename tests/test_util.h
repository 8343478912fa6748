// Helpers shared by the test suites: fresh temporary folders and running the
// real programs.
#ifndef QUARRY_TESTS_TEST_UTIL_H_
#define QUARRY_TESTS_TEST_UTIL_H_

#include <filesystem>
#include <string>
#include <vector>

namespace quarry::testing {

// A fresh, empty folder removed (with its contents) when this goes out of scope.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

// Writes `contents` to `path`, creating parent folders.
void write_file(const std::filesystem::path& path, const std::string& contents);

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs a program with `args` (no shell), feeding `input` on stdin, with
// QUARRY_DB, NO_COLOR and HOME-derived variables cleared from its environment
// and `env` ("NAME=value") added.
RunResult run_program(const std::string& program, const std::vector<std::string>& args,
                      const std::string& input = "", const std::vector<std::string>& env = {});

}  // namespace quarry::testing

#endif  // QUARRY_TESTS_TEST_UTIL_H_
