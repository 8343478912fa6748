// The terminal control sequences Quarry writes (ECMA-48, as every terminal
// emulator understands them), so that the styles of the output, the prompt
// and quarry-index's progress line are chosen in one place.
#ifndef QUARRY_APP_COMMON_ANSI_H_
#define QUARRY_APP_COMMON_ANSI_H_

#include <string_view>

namespace quarry::ansi {

inline constexpr std::string_view kBold = "\x1b[1m";
inline constexpr std::string_view kDim = "\x1b[2m";
// Bold yellow: a word that matched the query.
inline constexpr std::string_view kMatch = "\x1b[1;33m";
// Back to plain text, after any of the above.
inline constexpr std::string_view kReset = "\x1b[0m";
// Erases the rest of the line from the cursor: what a line rewritten in
// place after "\r" leaves of a longer one before it.
inline constexpr std::string_view kClearToEndOfLine = "\x1b[K";

}  // namespace quarry::ansi

#endif  // QUARRY_APP_COMMON_ANSI_H_
