#include "lib/index/article_store.h"

#include <cstddef>
#include <string_view>

#include "quarry/error.h"

namespace quarry::detail {
namespace {

// Each field is its length in bytes, seven bits a byte with the high bit
// set on all but the last, then its bytes. Documents are read for every
// hit shown, so this is kept simpler to read than JSON; Xapian compresses
// the whole.
void append_field(std::string& out, const std::string& field) {
  std::size_t size = field.size();
  while (size >= 0x80) {
    out.push_back(static_cast<char>((size & 0x7F) | 0x80));
    size >>= 7;
  }
  out.push_back(static_cast<char>(size));
  out += field;
}

bool read_field(std::string_view& in, std::string& field) {
  std::size_t size = 0;
  for (unsigned shift = 0;; shift += 7) {
    if (in.empty() || shift > 56) return false;
    const auto byte = static_cast<unsigned char>(in.front());
    in.remove_prefix(1);
    size |= static_cast<std::size_t>(byte & 0x7F) << shift;
    if (!(byte & 0x80)) break;
  }
  if (size > in.size()) return false;
  field.assign(in.substr(0, size));
  in.remove_prefix(size);
  return true;
}

}  // namespace

std::string encode_article(const Article& article) {
  std::string out;
  out.reserve(article.id.size() + article.title.size() + article.body.size() + article.date.size() +
              article.category.size() + article.source.size() + 16);
  for (const std::string* field : {&article.id, &article.title, &article.body, &article.date,
                                   &article.category, &article.source}) {
    append_field(out, *field);
  }
  return out;
}

Article decode_article(const std::string& data) {
  Article article;
  std::string_view in(data);
  for (std::string* field : {&article.id, &article.title, &article.body, &article.date,
                             &article.category, &article.source}) {
    if (!read_field(in, *field)) throw IndexError("index holds an article that cannot be read");
  }
  if (!in.empty()) throw IndexError("index holds an article that cannot be read");
  return article;
}

}  // namespace quarry::detail
