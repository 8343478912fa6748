// A program on a pseudo-terminal, for the tests of what a person at a
// terminal sees and types.
#ifndef QUARRY_TESTS_PTY_H_
#define QUARRY_TESTS_PTY_H_

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace quarry::testing {

// A program running on a pseudo-terminal, as at a person's terminal: its
// standard input, output and error are the terminal, it leads its own
// session, and Ctrl-C typed on the terminal signals it. Every wait is bounded,
// so that a program that hangs fails the test instead of stopping it. The
// destructor kills and reaps the program if it is still running.
class Pty {
 public:
  // Long enough for a loaded machine; a wait that succeeds returns at once.
  static constexpr std::chrono::milliseconds kPatience{30000};

  // Starts `program` with `args` (no shell) on a terminal of `rows` by
  // `columns`, in program_environment(env). Throws
  // std::runtime_error when no terminal can be opened.
  Pty(const std::string& program, const std::vector<std::string>& args,
      const std::vector<std::string>& env = {}, unsigned short rows = 24,
      unsigned short columns = 200);
  ~Pty();
  Pty(const Pty&) = delete;
  Pty& operator=(const Pty&) = delete;

  // Sends `keys` as if typed: "\r" is Enter, "\x03" Ctrl-C, "\x04" Ctrl-D.
  void type(std::string_view keys);

  // Resizes the terminal as a person resizes its window, which sends the
  // program SIGWINCH.
  void resize(unsigned short rows, unsigned short columns);

  // Reads what the program writes until `text` appears after the end of the
  // previous match. False when it has not after `patience`, or when the
  // terminal closed first.
  bool wait_for(std::string_view text, std::chrono::milliseconds patience = kPatience);

  // Waits until the program has read every key typed and sleeps waiting
  // for more with no time limit, as it does between the keys a person
  // types, reading what it writes meanwhile. A signal sent from the
  // keyboard (Ctrl-C) then finds it there rather than in the middle of
  // answering. False when it is not waiting after `patience`. Reads
  // /proc/PID/syscall (Linux) and throws std::runtime_error where that
  // cannot be read.
  bool wait_idle(std::chrono::milliseconds patience = kPatience);

  // Waits for the program to end, reading what it writes meanwhile. Its exit
  // code (128 + the signal, when a signal ended it), or nullopt when it still
  // runs after `patience`.
  std::optional<int> wait_exit(std::chrono::milliseconds patience = kPatience);

  bool running();

  // Everything written to the terminal so far, control sequences and all
  // (the terminal writes "\r\n" for each "\n").
  const std::string& output() const { return output_; }
  // What was written after the end of the last match.
  std::string_view unmatched() const { return std::string_view(output_).substr(matched_); }

 private:
  void read_some(std::chrono::milliseconds patience);
  bool reaped();

  int master_ = -1;
  pid_t pid_ = -1;
  bool closed_ = false;
  std::optional<int> exit_code_;
  std::string output_;
  std::size_t matched_ = 0;
};

}  // namespace quarry::testing

#endif  // QUARRY_TESTS_PTY_H_
