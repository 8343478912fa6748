#include "query/terminal.h"

#include <sys/ioctl.h>
#include <unistd.h>

namespace quarry {

Terminal this_terminal() {
  Terminal terminal;
  terminal.input = isatty(STDIN_FILENO);
  terminal.output = isatty(STDOUT_FILENO);
  if (!terminal.output) return terminal;
  winsize size{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0 || size.ws_row == 0 || size.ws_col == 0) {
    size.ws_row = 24;
    size.ws_col = 80;
  }
  terminal.rows = size.ws_row;
  terminal.columns = size.ws_col;
  return terminal;
}

}  // namespace quarry
