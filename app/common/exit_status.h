// The exit codes quarry and quarry-index document in --help: one mapping
// from the library's errors to them, shared by both programs' mains.
#ifndef QUARRY_APP_COMMON_EXIT_STATUS_H_
#define QUARRY_APP_COMMON_EXIT_STATUS_H_

#include <functional>
#include <ostream>
#include <string_view>

namespace quarry {

enum ExitStatus : int {
  kExitSuccess = 0,  // done, including a search with no hits
  kExitFailure = 1,  // the index or an input could not be read or written
  kExitUsage = 2,    // what the user typed cannot be done as asked
  kExitPartial = 3,  // quarry-index: done, but some input was skipped
};

// What an InputError (a path that cannot be read at all) means to the
// program: quarry-index is told its inputs on the command line (a usage
// error); quarry reads a --batch file it was pointed at (a failure).
enum class InputErrorIs { kUsage, kFailure };

// Runs `body` and returns its exit status. A quarry::Error it lets out is
// written to `err` as one line, "program: message", and mapped: ConfigError
// and QueryError to kExitUsage, InputError as `input` says, any other to
// kExitFailure. Any other exception ends so too, as kExitFailure:
// std::bad_alloc as "program: out of memory", the rest as "program:
// unexpected error: " and what it says (describe_exception), rather than
// through std::terminate.
int run_reporting_errors(std::string_view program, std::ostream& err, InputErrorIs input,
                         const std::function<int()>& body);

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_EXIT_STATUS_H_
