// The check of a whole number given to an option outside the option table
// (quarry alerts --since), by the parser the table's options use.
#ifndef QUARRY_QUERY_WHOLE_NUMBER_H_
#define QUARRY_QUERY_WHOLE_NUMBER_H_

#include <CLI/CLI.hpp>
#include <cstddef>

namespace quarry {

// A number of things: digits alone, from `least` to std::size_t's largest.
// CLI11 alone would read "-1" as that largest and wrap numbers past it.
CLI::Validator whole_number(std::size_t least);

}  // namespace quarry

#endif  // QUARRY_QUERY_WHOLE_NUMBER_H_
