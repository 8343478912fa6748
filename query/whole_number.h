// The check of quarry's count options (-n, --offset, -j …), shared by the
// query options, serve's and alerts --since.
#ifndef QUARRY_QUERY_WHOLE_NUMBER_H_
#define QUARRY_QUERY_WHOLE_NUMBER_H_

#include <CLI/CLI.hpp>
#include <cstddef>

namespace quarry {

// A number of things: digits alone, from `least` to std::size_t's largest.
// CLI11 alone would read "-1" as that largest and wrap numbers past it.
CLI::Validator whole_number(std::size_t least);

// A number of 0 or more, as the number options (--title-weight, --timeout
// …) take: "nan" and "inf", which CLI11 would read, are refused.
CLI::Validator finite_number();

}  // namespace quarry

#endif  // QUARRY_QUERY_WHOLE_NUMBER_H_
