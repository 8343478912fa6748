// The prompt at a terminal, with GNU Readline's line editing, history and
// Tab completion. Kept apart from prompt.h so that only the programs that
// open a prompt link readline.
#ifndef QUARRY_APP_TERMINAL_TERMINAL_PROMPT_H_
#define QUARRY_APP_TERMINAL_TERMINAL_PROMPT_H_

#include <string>

#include "app/terminal/prompt.h"

namespace quarry {

// Runs a session over a terminal with GNU Readline until ":quit" or Ctrl-D.
// Ctrl-C abandons the line being typed. When the terminal is resized
// (SIGWINCH), the line being typed and the answers from then on follow its
// new size. History is read from and saved to
// `history_file` (if not empty), without blank lines or repeats. Throws
// what answering a line throws (IndexError), once the terminal's mode and
// the handling of SIGINT are back as they were.
void run_terminal_prompt(PromptSession& session, const std::string& history_file);

// $XDG_STATE_HOME/quarry/history, else ~/.local/state/quarry/history; empty
// when neither can be found.
std::string default_history_file();

}  // namespace quarry

#endif  // QUARRY_APP_TERMINAL_TERMINAL_PROMPT_H_
