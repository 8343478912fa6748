// The title of an article that has none of its own: a .txt file, or a JSON
// Lines article whose "title" is empty.
#ifndef QUARRY_INPUT_TITLE_H_
#define QUARRY_INPUT_TITLE_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace quarry {

inline constexpr std::size_t kMaxTitleChars = 100;

// The title of a plain-text article: its first non-blank line when that
// reads as a headline (at most kMaxTitleChars code points, not ending as a
// sentence does, followed by more text, and not the start of a hard-wrapped
// paragraph), else the first sentence of its first paragraph, shortened at a
// word boundary with "…" when longer than kMaxTitleChars. Either way the
// title holds at most kMaxTitleChars code points, "…" included, and runs of
// white space in it are single spaces. A blank text has an empty title.
// Sets *title_is_first_line, unless null, to whether the title is the first
// line, which the body should then leave out. Invalid UTF-8 in `text`
// comes out as U+FFFD. Thread-safe.
std::string derive_title(std::string_view text, bool* title_is_first_line);

}  // namespace quarry

#endif  // QUARRY_INPUT_TITLE_H_
