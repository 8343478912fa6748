// File names as text. A POSIX file name is bytes, but an article's id and
// the places named in messages are UTF-8 (they are written as JSON and
// shown on terminals). Repairing the bytes would give two files one id, so
// they are escaped instead, reversibly, and every name that is UTF-8 and
// holds no "%" followed by what would read as an escape keeps its own
// spelling.
#ifndef QUARRY_LIB_INPUT_PATH_TEXT_H_
#define QUARRY_LIB_INPUT_PATH_TEXT_H_

#include <string>
#include <string_view>

namespace quarry::detail {

// `bytes` as UTF-8: each byte that is not part of a well-formed UTF-8
// sequence becomes "%XX" (two capital hex digits, 80 to FF), and a "%"
// that would read as such an escape or as "%25" (followed by "25", or by
// two capital hex digits from 80 to FF) becomes "%25". Everything else is
// kept, so that different names give different texts.
std::string path_text(std::string_view bytes);

// The bytes whose path_text is `text`: the inverse of path_text.
std::string path_bytes(std::string_view text);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INPUT_PATH_TEXT_H_
