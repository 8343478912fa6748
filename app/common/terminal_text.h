// Text as a terminal shows it: how many columns and rows it takes, lines
// wrapped to a width, and the words a query matched in colour.
#ifndef QUARRY_APP_COMMON_TERMINAL_TEXT_H_
#define QUARRY_APP_COMMON_TERMINAL_TEXT_H_

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

#include "quarry/search/snippet.h"

namespace quarry {

struct TextStyle {
  // ANSI styles: titles bold, ids dim, highlighted words bold yellow.
  bool color = false;
  // Titles and snippets are wrapped at spaces to lines of this many
  // columns, as a terminal is wide; 0: each is one line.
  std::size_t width = 0;
};

// What a terminal may be given safely to show `text`, which comes from an
// article or a user and may hold control characters: each is written as
// less and cat -v write it, ESC as ^[, BEL as ^G, DEL as ^?, and C1 controls
// (U+0080 to U+009F) as <U+009B>, so that none can move the cursor, clear
// the screen or retitle the window. Newlines and tabs are kept when
// `keep_lines` (a body of paragraphs), else shown as ^J and ^I.
std::string terminal_safe(std::string_view text, bool keep_lines = false);

// How many columns `text` takes on a terminal: ANSI escapes none, East
// Asian wide characters and emoji two, control characters none, others one.
std::size_t display_width(std::string_view text);

// How many rows `text` fills on a terminal `columns` wide, which wraps its
// long lines (columns 0: one row a line).
std::size_t screen_rows(std::string_view text, std::size_t columns);

// `line` broken at spaces, and between CJK characters, into lines of at
// most `width` columns, each after the first starting with `indent`. A word
// wider than that has a line of its own; width 0 leaves the line as it is.
std::string wrap(std::string_view line, std::size_t width, std::string_view indent);

// Each line of `text` wrapped as wrap() wraps it, with no indent: what a
// terminal `width` columns wide shows without breaking a word.
std::string wrap_lines(std::string_view text, std::size_t width);

// The snippet's text, made terminal_safe (keeping its lines when
// `keep_lines`), with its highlights in bold colour when style.color;
// `style_around` is the style the text around them is in (restored after
// each highlight).
void write_highlighted(std::ostream& out, const Snippet& snippet, const TextStyle& style,
                       std::string_view style_around = {}, bool keep_lines = false);

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_TERMINAL_TEXT_H_
