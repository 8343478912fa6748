// What `quarry` does once its options are read: answers one query, counts
// its matches, runs a batch, answers the lines piped in, or opens the
// prompt, as the options and the terminal say.
#ifndef QUARRY_APP_TERMINAL_QUARRY_COMMAND_H_
#define QUARRY_APP_TERMINAL_QUARRY_COMMAND_H_

#include <cstddef>
#include <istream>
#include <ostream>
#include <string_view>

#include "app/common/search_option_table.h"

namespace quarry {

// What the program knows of the terminal it runs at: the library never
// asks the system.
struct Terminal {
  bool input = false;   // standard input is a terminal
  bool output = false;  // standard output is one
  std::size_t rows = 0;
  std::size_t columns = 0;  // 0: lines are not wrapped
};

// Runs quarry with options that resolve_quarry has settled, reading queries
// from `in` and answering on `out`, with diagnostics on `err` prefixed with
// `program`. Returns the exit status: kExitSuccess, or kExitUsage when a
// query could not be parsed (with --strict) or a prompt line was wrong.
// Throws InputError for a --batch file that cannot be read, and what
// searching throws (IndexError, UnknownArticleError …).
int run_quarry(const QuarryOptions& options, const Terminal& terminal, std::istream& in,
               std::ostream& out, std::ostream& err, std::string_view program);

}  // namespace quarry

#endif  // QUARRY_APP_TERMINAL_QUARRY_COMMAND_H_
