// The prompt at a terminal, on GNU Readline's callback interface: it lets a
// Ctrl-C abandon the line being typed without readline's own signal
// handling getting in the way.
#include "app/terminal/terminal_prompt.h"

#include <readline/history.h>
#include <readline/readline.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iterator>

namespace quarry {
namespace {

constexpr char kPrompt[] = "quarry> ";
constexpr int kHistoryEntries = 1000;

volatile std::sig_atomic_t interrupted = 0;
volatile std::sig_atomic_t resized = 0;

extern "C" void on_signal(int signal) {
  if (signal == SIGINT) interrupted = 1;
  if (signal == SIGWINCH) resized = 1;
}

// While it lives, SIGINT sets `interrupted` and SIGWINCH (the terminal
// resized) `resized`, and both stay blocked except where the prompt waits
// for keys or answers a line, so that neither is lost between checking for
// one and waiting. The handlers and the signal mask the program had come
// back however the prompt ends.
class SignalGuard {
 public:
  SignalGuard() {
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    sigemptyset(&caught_);
    for (std::size_t i = 0; i < std::size(kSignals); ++i) {
      sigaction(kSignals[i], &action, &previous_[i]);
      sigaddset(&caught_, kSignals[i]);
    }
    sigprocmask(SIG_BLOCK, &caught_, &unblocked_);
  }
  ~SignalGuard() {
    sigprocmask(SIG_SETMASK, &unblocked_, nullptr);
    for (std::size_t i = 0; i < std::size(kSignals); ++i) {
      sigaction(kSignals[i], &previous_[i], nullptr);
    }
  }
  SignalGuard(const SignalGuard&) = delete;
  SignalGuard& operator=(const SignalGuard&) = delete;

  // The program's own mask, under which a line is answered.
  const sigset_t& unblocked() const { return unblocked_; }
  const sigset_t& caught() const { return caught_; }
  // The mask to wait for keys under: the program's, with both let through.
  sigset_t waiting() const {
    sigset_t mask = unblocked_;
    for (const int signal : kSignals) sigdelset(&mask, signal);
    return mask;
  }

 private:
  static constexpr int kSignals[] = {SIGINT, SIGWINCH};

  struct sigaction previous_[std::size(kSignals)]{};
  sigset_t unblocked_;
  sigset_t caught_;
};

// Answers from now on are wrapped to the terminal's width, as it is now.
// Standard output is the terminal they are written to; when it is not one
// (or will not say), the size is left as it was.
void follow_terminal_size(PromptSession& session) {
  winsize size{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0 || size.ws_row == 0 || size.ws_col == 0) return;
  session.resize(size.ws_row, size.ws_col);
}

// While it lives, readline edits a line in raw mode and hands it to
// on_line. Removing the handler again puts the terminal back in the mode
// it had; readline makes a second removal (after :quit) do nothing.
class LineHandler {
 public:
  explicit LineHandler(rl_vcpfunc_t* on_line) { rl_callback_handler_install(kPrompt, on_line); }
  ~LineHandler() { rl_callback_handler_remove(); }
  LineHandler(const LineHandler&) = delete;
  LineHandler& operator=(const LineHandler&) = delete;
};

// Readline calls back through plain C functions with no user data, so the
// running prompt is reached through `active`. Only one prompt runs at a
// time.
struct Terminal;
Terminal* active = nullptr;

struct Terminal {
  Terminal(PromptSession& session, const std::string& history_file)
      : session(session), history_file(history_file) {
    active = this;
  }
  ~Terminal() { active = nullptr; }
  Terminal(const Terminal&) = delete;
  Terminal& operator=(const Terminal&) = delete;

  // Stops reading lines: readline prompts for no other.
  void finish() {
    done = true;
    rl_callback_handler_remove();
  }

  PromptSession& session;
  const std::string& history_file;
  const SignalGuard* signals = nullptr;
  bool done = false;
  // What answering a line threw: an exception must not unwind through
  // readline's C frames, so it is held here until readline has returned.
  std::exception_ptr failure;
  std::vector<std::string> matches;
};

void remember(const char* line) {
  if (line[std::strspn(line, " \t")] == '\0') return;
  // A repeated line moves to the end instead of appearing twice.
  for (int i = history_length - 1; i >= 0; --i) {
    HIST_ENTRY* entry = history_get(history_base + i);
    if (entry && std::strcmp(entry->line, line) == 0) {
      if (HIST_ENTRY* removed = remove_history(i)) free_history_entry(removed);
    }
  }
  add_history(line);
  if (!active->history_file.empty()) write_history(active->history_file.c_str());
}

void answer(char* typed) {
  if (typed == nullptr) {  // Ctrl-D on an empty line
    std::fputc('\n', rl_outstream);
    active->finish();
    return;
  }
  const std::string text(typed);
  std::free(typed);
  remember(text.c_str());
  // Ctrl-C and a resize reach a pager started by :show as usual while the
  // line is answered; a Ctrl-C pressed meanwhile is not held over for the
  // next line. A resize still pending arrives as the signals are let
  // through, in time for this answer (readline follows it once the line
  // is answered).
  const SignalGuard& signals = *active->signals;
  sigprocmask(SIG_SETMASK, &signals.unblocked(), nullptr);
  if (resized) follow_terminal_size(active->session);
  const PromptSession::Next next = active->session.handle(text);
  sigprocmask(SIG_BLOCK, &signals.caught(), nullptr);
  interrupted = 0;
  if (next == PromptSession::Next::kQuit) active->finish();
}

extern "C" void on_line(char* line) {
  try {
    answer(line);
  } catch (...) {
    active->failure = std::current_exception();
    active->finish();
  }
}

extern "C" char* next_match(const char* /*text*/, int state) {
  static std::size_t index;
  if (state == 0) index = 0;
  if (index >= active->matches.size()) return nullptr;
  return strdup(active->matches[index++].c_str());
}

extern "C" char** complete(const char* text, int /*start*/, int /*end*/) {
  rl_attempted_completion_over = 1;  // never fall back to file names
  try {
    active->matches = active->session.complete(text);
  } catch (...) {
    // Nothing may unwind through readline; a word that cannot be completed
    // is left as typed.
    active->matches.clear();
  }
  return rl_completion_matches(text, next_match);
}

void abandon_line() {
  rl_free_line_state();
  rl_callback_sigcleanup();
  rl_replace_line("", 0);
  std::fputs("^C\n", rl_outstream);
  rl_on_new_line();
  rl_redisplay();
}

void read_history_file(const std::string& history_file) {
  using_history();
  stifle_history(kHistoryEntries);
  if (history_file.empty()) return;
  std::error_code ignored;
  std::filesystem::create_directories(std::filesystem::path(history_file).parent_path(), ignored);
  read_history(history_file.c_str());
}

}  // namespace

void run_terminal_prompt(PromptSession& session, const std::string& history_file) {
  Terminal terminal(session, history_file);
  rl_readline_name = "quarry";
  // The prompt catches the signals itself (SignalGuard), only while it
  // waits for keys.
  rl_catch_signals = 0;
  rl_catch_sigwinch = 0;
  rl_attempted_completion_function = complete;
  read_history_file(history_file);

  const SignalGuard signals;
  terminal.signals = &signals;
  const sigset_t waiting = signals.waiting();
  const LineHandler handler(on_line);
  const int input = fileno(rl_instream ? rl_instream : stdin);
  while (!terminal.done) {
    if (resized) {
      resized = 0;
      rl_resize_terminal();
      follow_terminal_size(session);
    }
    fd_set readable;
    FD_ZERO(&readable);
    FD_SET(input, &readable);
    const int ready = pselect(input + 1, &readable, nullptr, nullptr, nullptr, &waiting);
    if (interrupted) {
      interrupted = 0;
      abandon_line();
      continue;
    }
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    rl_callback_read_char();
  }
  if (terminal.failure) std::rethrow_exception(terminal.failure);
}

std::string default_history_file() {
  const char* state = std::getenv("XDG_STATE_HOME");
  if (state && *state) return std::string(state) + "/quarry/history";
  const char* home = std::getenv("HOME");
  if (home && *home) return std::string(home) + "/.local/state/quarry/history";
  return "";
}

}  // namespace quarry
