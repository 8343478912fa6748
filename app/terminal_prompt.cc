// The prompt at a terminal, on GNU Readline's callback interface: it lets a
// Ctrl-C abandon the line being typed without readline's own signal
// handling getting in the way.
#include "app/terminal_prompt.h"

#include <readline/history.h>
#include <readline/readline.h>
#include <sys/select.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace quarry {
namespace {

constexpr char kPrompt[] = "quarry> ";
constexpr int kHistoryEntries = 1000;

// Readline calls back through plain C functions with no user data, so the
// running prompt is reached through these. Only one prompt runs at a time.
struct Terminal {
  PromptSession* session = nullptr;
  std::string history_file;
  bool done = false;
  std::vector<std::string> matches;
  sigset_t unblocked;       // the signal mask the program had
  sigset_t interrupt_only;  // just SIGINT
};
Terminal* active = nullptr;
volatile std::sig_atomic_t interrupted = 0;

extern "C" void on_interrupt(int) { interrupted = 1; }

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

extern "C" void on_line(char* line) {
  if (line == nullptr) {  // Ctrl-D on an empty line
    active->done = true;
    std::fputc('\n', rl_outstream);
    rl_callback_handler_remove();
    return;
  }
  remember(line);
  const std::string text(line);
  std::free(line);
  // Ctrl-C reaches a pager started by :show as usual while the line is
  // answered; one pressed meanwhile is not held over for the next line.
  sigprocmask(SIG_SETMASK, &active->unblocked, nullptr);
  const PromptSession::Next next = active->session->handle(text);
  sigprocmask(SIG_BLOCK, &active->interrupt_only, nullptr);
  interrupted = 0;
  if (next == PromptSession::Next::kQuit) {
    active->done = true;
    rl_callback_handler_remove();
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
    active->matches = active->session->complete(text);
  } catch (const std::exception&) {
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

}  // namespace

void run_terminal_prompt(PromptSession& session, const std::string& history_file) {
  Terminal terminal;
  terminal.session = &session;
  terminal.history_file = history_file;
  active = &terminal;
  rl_readline_name = "quarry";
  rl_catch_signals = 0;
  rl_attempted_completion_function = complete;
  using_history();
  stifle_history(kHistoryEntries);
  if (!history_file.empty()) {
    std::error_code ignored;
    std::filesystem::create_directories(std::filesystem::path(history_file).parent_path(), ignored);
    read_history(history_file.c_str());
  }

  // SIGINT stays blocked except inside pselect(), so a Ctrl-C is never
  // lost between checking for one and waiting for keys.
  struct sigaction action {
  }, previous{};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &previous);
  sigemptyset(&terminal.interrupt_only);
  sigaddset(&terminal.interrupt_only, SIGINT);
  sigprocmask(SIG_BLOCK, &terminal.interrupt_only, &terminal.unblocked);
  sigset_t waiting = terminal.unblocked;
  sigdelset(&waiting, SIGINT);

  rl_callback_handler_install(kPrompt, on_line);
  const int input = fileno(rl_instream ? rl_instream : stdin);
  auto restore = [&] {
    sigprocmask(SIG_SETMASK, &terminal.unblocked, nullptr);
    sigaction(SIGINT, &previous, nullptr);
    active = nullptr;
  };
  while (!terminal.done) {
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
    try {
      rl_callback_read_char();
    } catch (...) {
      rl_callback_handler_remove();
      restore();
      throw;
    }
  }
  if (!terminal.done) rl_callback_handler_remove();
  restore();
}

std::string default_history_file() {
  const char* state = std::getenv("XDG_STATE_HOME");
  if (state && *state) return std::string(state) + "/quarry/history";
  const char* home = std::getenv("HOME");
  if (home && *home) return std::string(home) + "/.local/state/quarry/history";
  return "";
}

}  // namespace quarry
