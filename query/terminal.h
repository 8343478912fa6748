// The terminal quarry runs at, as the system tells it.
#ifndef QUARRY_QUERY_TERMINAL_H_
#define QUARRY_QUERY_TERMINAL_H_

#include "app/terminal/quarry_command.h"

namespace quarry {

// Whether standard input and output are terminals, and the size of the
// one standard output is (0 by 0 when it is none; 24 by 80 when it does
// not say).
Terminal this_terminal();

}  // namespace quarry

#endif  // QUARRY_QUERY_TERMINAL_H_
