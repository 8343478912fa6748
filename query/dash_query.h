// A query that starts with '-' (-site:x) reads as options: after an option
// error, quarry shows the command with the '--' that makes it a query.
#ifndef QUARRY_QUERY_DASH_QUERY_H_
#define QUARRY_QUERY_DASH_QUERY_H_

#include <ostream>
#include <string_view>

namespace quarry {

// Writes "PROGRAM: a query that starts with '-' goes after '--': COMMAND"
// to `err` when an argument before any "--" looks like such a query.
void explain_dash_query(int argc, char** argv, std::string_view program, std::ostream& err);

}  // namespace quarry

#endif  // QUARRY_QUERY_DASH_QUERY_H_
