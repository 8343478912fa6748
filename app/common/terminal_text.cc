#include "app/common/terminal_text.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "app/common/ansi.h"
#include "quarry/text/utf8.h"

namespace quarry {
namespace {

// Byte offset of the code point at `index`.
std::size_t byte_of(std::string_view text, std::size_t index) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (starts_code_point(text[i])) {
      if (seen == index) return i;
      ++seen;
    }
  }
  return text.size();
}

// The code point starting at text[*at], moving *at past it. Bytes that are
// not UTF-8 are taken one at a time, as U+FFFD.
char32_t next_code_point(std::string_view text, std::size_t* at) {
  const auto lead = static_cast<unsigned char>(text[(*at)++]);
  const int more = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0;
  if (lead >= 0x80 && more == 0) return 0xFFFD;
  char32_t code = more == 0 ? lead : lead & (0x3F >> more);
  for (int i = 0; i < more; ++i) {
    if (*at >= text.size() || starts_code_point(text[*at])) return 0xFFFD;
    code = (code << 6) | (static_cast<unsigned char>(text[(*at)++]) & 0x3F);
  }
  return code;
}

// East Asian Wide and Fullwidth characters and emoji (Unicode's UAX #11, in
// its main blocks), which terminals draw two columns wide.
bool is_wide(char32_t c) {
  return (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0x303E) ||
         (c >= 0x3041 && c <= 0x33FF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xA000 && c <= 0xA4CF) ||
         (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
         (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1F64F) ||
         (c >= 0x1F900 && c <= 0x1F9FF) || (c >= 0x20000 && c <= 0x3FFFD);
}

bool is_zero_width(char32_t c) {
  return c < 0x20 || (c >= 0x7F && c < 0xA0) || (c >= 0x300 && c <= 0x36F) || c == 0x200B ||
         c == 0x200D || (c >= 0xFE00 && c <= 0xFE0F);
}

// Whether a line may break between two wide characters: between ideographs
// and kana, as CJK text has no spaces, but not before CJK punctuation, which
// stays with the character before it (UAX #14, roughly).
bool breaks_between(char32_t before, char32_t after) {
  const bool punctuation = (after >= 0x3000 && after <= 0x303F) ||
                           (after >= 0xFF01 && after <= 0xFF0F) ||
                           (after >= 0xFF1A && after <= 0xFF1F) || after == 0x30FC;
  return is_wide(before) && is_wide(after) && !punctuation;
}

// `word` (no spaces) cut where a line may break inside it.
std::vector<std::string_view> pieces_of(std::string_view word) {
  std::vector<std::string_view> pieces;
  std::size_t piece = 0;
  char32_t before = 0;
  for (std::size_t at = 0; at < word.size();) {
    if (word[at] == '\x1b') {  // an escape belongs to the piece it is in
      while (at < word.size() && !(word[at] >= '@' && word[at] <= '~' && word[at] != '[')) ++at;
      ++at;
      continue;
    }
    const std::size_t start = at;
    const char32_t c = next_code_point(word, &at);
    if (breaks_between(before, c)) {
      pieces.push_back(word.substr(piece, start - piece));
      piece = start;
    }
    before = c;
  }
  pieces.push_back(word.substr(piece));
  return pieces;
}

}  // namespace

std::string terminal_safe(std::string_view text, bool keep_lines) {
  std::string safe;
  safe.reserve(text.size());
  for (std::size_t at = 0; at < text.size(); ++at) {
    const auto byte = static_cast<unsigned char>(text[at]);
    if (byte < 0x20 || byte == 0x7F) {
      if (keep_lines && (byte == '\n' || byte == '\t')) {
        safe += static_cast<char>(byte);
      } else {
        safe += '^';
        safe += static_cast<char>(byte ^ 0x40);
      }
    } else if (byte == 0xC2 && at + 1 < text.size() &&
               static_cast<unsigned char>(text[at + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[at + 1]) <= 0x9F) {
      // A C1 control, which some terminals obey as ESC and a letter.
      char name[16];
      std::snprintf(name, sizeof name, "<U+%04X>", static_cast<unsigned char>(text[++at]));
      safe += name;
    } else {
      safe += static_cast<char>(byte);
    }
  }
  return safe;
}

std::size_t display_width(std::string_view text) {
  std::size_t width = 0;
  for (std::size_t at = 0; at < text.size();) {
    if (text[at] == '\x1b' && at + 1 < text.size() && text[at + 1] == '[') {
      // A control sequence ends with its final byte, @ to ~.
      at += 2;
      while (at < text.size() && !(text[at] >= '@' && text[at] <= '~')) ++at;
      ++at;
      continue;
    }
    const char32_t c = next_code_point(text, &at);
    width += is_zero_width(c) ? 0 : is_wide(c) ? 2 : 1;
  }
  return width;
}

std::size_t screen_rows(std::string_view text, std::size_t columns) {
  std::size_t rows = 0;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::size_t width = display_width(text.substr(start, end - start));
    rows += columns == 0 || width == 0 ? 1 : (width + columns - 1) / columns;
    if (end == text.size()) break;
    start = end + 1;
  }
  return rows;
}

std::string wrap(std::string_view line, std::size_t width, std::string_view indent) {
  if (width == 0 || display_width(line) <= width) return std::string(line);
  std::string wrapped;
  std::size_t used = 0;  // columns of the line being filled
  bool line_has_word = false;
  for (std::size_t start = 0; start < line.size();) {
    const std::size_t space = std::min(line.find(' ', start), line.size());
    // A word of CJK text is cut into pieces that may end a line, with no
    // space between them.
    bool after_space = start > 0;
    for (const std::string_view piece : pieces_of(line.substr(start, space - start))) {
      const std::size_t piece_width = display_width(piece);
      if (line_has_word && used + (after_space ? 1 : 0) + piece_width > width) {
        wrapped += '\n';
        wrapped += indent;
        used = display_width(indent);
        line_has_word = false;
      } else if (after_space) {
        wrapped += ' ';
        ++used;
      }
      wrapped += piece;
      used += piece_width;
      // Leading spaces (an indent) are words of no width, not the start of a line's words.
      line_has_word = line_has_word || piece_width > 0;
      after_space = false;
    }
    start = space + 1;
  }
  return wrapped;
}

std::string wrap_lines(std::string_view text, std::size_t width) {
  std::string wrapped;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    wrapped += wrap(text.substr(start, end - start), width, "");
    if (end == text.size()) break;
    wrapped += '\n';
    start = end + 1;
  }
  return wrapped;
}

void write_highlighted(std::ostream& out, const Snippet& snippet, const TextStyle& style,
                       std::string_view style_around, bool keep_lines) {
  if (!style.color) {
    out << terminal_safe(snippet.text, keep_lines);
    return;
  }
  std::size_t at = 0;
  for (const Highlight& highlight : snippet.highlights) {
    const std::size_t begin = byte_of(snippet.text, highlight.begin);
    const std::size_t end = byte_of(snippet.text, highlight.end);
    if (begin < at || end < begin) continue;
    out << terminal_safe(std::string_view(snippet.text).substr(at, begin - at), keep_lines)
        << ansi::kMatch
        << terminal_safe(std::string_view(snippet.text).substr(begin, end - begin), keep_lines)
        << ansi::kReset << style_around;
    at = end;
  }
  out << terminal_safe(std::string_view(snippet.text).substr(at), keep_lines);
}

}  // namespace quarry
