#include "app/server/page_markup.h"

#include <utility>

#include "app/common/page_orders.h"
#include "app/common/search_option_values.h"
#include "quarry/text/utf8.h"

namespace quarry {

std::string html_escape(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      case '"':
        escaped += "&quot;";
        break;
      case '\'':
        escaped += "&#39;";
        break;
      default:
        escaped += c;
    }
  }
  return escaped;
}

std::string highlighted_html(std::string_view text, const std::vector<Highlight>& highlights) {
  std::string html;
  std::size_t byte = 0, code_point = 0;
  // Moves `byte` to the start of code point `index`, or the end of the text.
  auto advance_to = [&](std::size_t index) {
    while (byte < text.size() && code_point < index) {
      ++byte;
      while (byte < text.size() && !starts_code_point(text[byte])) ++byte;
      ++code_point;
    }
  };
  std::size_t written = 0;
  for (const Highlight& highlight : highlights) {
    if (highlight.begin < code_point || highlight.end <= highlight.begin) continue;
    advance_to(highlight.begin);
    const std::size_t begin = byte;
    advance_to(highlight.end);
    html += html_escape(text.substr(written, begin - written));
    html += "<mark>" + html_escape(text.substr(begin, byte - begin)) + "</mark>";
    written = byte;
  }
  html += html_escape(text.substr(written));
  return html;
}

std::string paragraphs_html(std::string_view html) {
  std::string paragraphs;
  for (std::size_t start = 0; start < html.size();) {
    std::size_t end = html.find('\n', start);
    if (end == std::string_view::npos) end = html.size();
    const std::string_view line = trim_white_space(html.substr(start, end - start));
    if (!line.empty()) paragraphs += "<p>" + std::string(line) + "</p>";
    start = end + 1;
  }
  return paragraphs;
}

std::string url_encode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string encoded;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte >= 'A' && byte <= 'Z') || (byte >= 'a' && byte <= 'z') ||
        (byte >= '0' && byte <= '9') || byte == '-' || byte == '_' || byte == '.' || byte == '~') {
      encoded += c;
    } else {
      encoded += '%';
      encoded += kHex[byte >> 4];
      encoded += kHex[byte & 0xF];
    }
  }
  return encoded;
}

// The link with the defaults left out; q is left out only of a like
// search that it does not narrow.
std::string page_link(const PageLink& link) {
  std::string url = "/?";
  if (!link.query.empty() || link.like.empty()) url += "q=" + url_encode(link.query) + "&";
  if (!link.like.empty()) url += "like=" + url_encode(link.like) + "&";
  if (const PageOrder order{link.sort, link.newest_relevant}; order != PageOrder{}) {
    url += "sort=" + std::string(page_order_name(order)) + "&";
  }
  if (link.offset > 0) url += "offset=" + std::to_string(link.offset) + "&";
  if (link.collapse != Collapse::kStory) {
    url += "collapse=" + std::string(collapse_name(link.collapse)) + "&";
  }
  if (!link.language.empty()) url += "language=" + url_encode(link.language) + "&";
  if (link.correct != PageLink{}.correct) {
    url += "correct=" + std::string(name_of(kCorrectionNames, link.correct)) + "&";
  }
  if (!link.like.empty() && !link.from.empty()) url += "from=" + url_encode(link.from) + "&";
  url.pop_back();
  return url;
}

std::string article_link(std::string_view id, std::string_view query) {
  std::string link = "/articles/" + url_encode(id);
  if (!query.empty()) link += "?q=" + url_encode(query);
  return link;
}

std::string meta_html(std::string_view date, std::string_view source, std::string_view category,
                      std::string_view language) {
  std::string html;
  const std::pair<std::string_view, std::string_view> parts[] = {{"date", date.substr(0, 10)},
                                                                 {"source", source},
                                                                 {"category", category},
                                                                 {"language", language}};
  for (const auto& [name, value] : parts) {
    if (value.empty()) continue;
    if (!html.empty()) html += " · ";
    html += "<span class=\"" + std::string(name) + "\">" + html_escape(value) + "</span>";
  }
  return html;
}

}  // namespace quarry
