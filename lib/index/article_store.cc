#include "lib/index/article_store.h"

#include <zdict.h>
#include <zstd.h>

#include <cstddef>
#include <map>
#include <string_view>

#include "quarry/error.h"
#include "quarry/input/article_reader.h"

namespace quarry::detail {
namespace {

// The first byte of the stored data says how the rest is kept: the fields
// as they are (when compressing would not make them smaller), or a zstd
// frame of them, which names the dictionary it needs by its id.
constexpr char kPlain = 0;
constexpr char kZstd = 1;

// Level 3 is zstd's default: higher levels shrink articles by another 5% at
// five times the cost of compressing them.
constexpr int kLevel = 3;
// 64 KiB: a larger dictionary saves another 2% of the stored text.
constexpr std::size_t kDictionaryBytes = 64 << 10;
// Fewer articles train a dictionary that fits them and little else.
constexpr std::size_t kMinTrainingArticles = 100;
// Each frame ends with a checksum of its text (4 bytes), so that damage to
// the index shows as an error rather than as wrong text.
constexpr int kChecksum = 1;
// A frame claiming more than any article can hold is damaged: refuse it
// before allocating what it claims.
constexpr unsigned long long kMaxStoredBytes = 2 * kMaxBodyBytes + (1 << 20);

const char kUnreadable[] = "index holds an article that cannot be read";

// Each field is its length in bytes, seven bits a byte with the high bit
// set on all but the last, then its bytes.
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

// The fields, one after another, behind `tag`.
std::string fields_of(const Article& article, char tag) {
  std::string out(1, tag);
  out.reserve(article.id.size() + article.title.size() + article.body.size() + article.date.size() +
              article.category.size() + article.source.size() + article.language.size() + 16);
  for (const std::string* field : {&article.id, &article.title, &article.body, &article.date,
                                   &article.category, &article.source, &article.language}) {
    append_field(out, *field);
  }
  return out;
}

Article article_of(std::string_view in) {
  Article article;
  for (std::string* field : {&article.id, &article.title, &article.body, &article.date,
                             &article.category, &article.source, &article.language}) {
    if (!read_field(in, *field)) throw IndexError(kUnreadable);
  }
  if (!in.empty()) throw IndexError(kUnreadable);
  return article;
}

struct CCtxFree {
  void operator()(ZSTD_CCtx* p) const { ZSTD_freeCCtx(p); }
};
struct DCtxFree {
  void operator()(ZSTD_DCtx* p) const { ZSTD_freeDCtx(p); }
};
struct CDictFree {
  void operator()(ZSTD_CDict* p) const { ZSTD_freeCDict(p); }
};
struct DDictFree {
  void operator()(ZSTD_DDict* p) const { ZSTD_freeDDict(p); }
};

}  // namespace

std::string train_text_dictionary(const std::vector<Article>& sample) {
  if (sample.size() < kMinTrainingArticles) return {};
  std::string samples;
  std::vector<std::size_t> sizes;
  for (const Article& article : sample) {
    const std::string fields = fields_of(article, kPlain);
    samples += fields;
    sizes.push_back(fields.size());
  }
  std::string dictionary(kDictionaryBytes, '\0');
  const std::size_t size =
      ZDICT_trainFromBuffer(dictionary.data(), dictionary.size(), samples.data(), sizes.data(),
                            static_cast<unsigned>(sizes.size()));
  if (ZDICT_isError(size)) return {};
  dictionary.resize(size);
  return dictionary;
}

struct ArticleStore::Impl {
  std::unique_ptr<ZSTD_CCtx, CCtxFree> cctx{ZSTD_createCCtx()};
  std::unique_ptr<ZSTD_DCtx, DCtxFree> dctx{ZSTD_createDCtx()};
  std::unique_ptr<ZSTD_CDict, CDictFree> cdict;
  std::map<unsigned, std::unique_ptr<ZSTD_DDict, DDictFree>> ddicts;  // by dictionary id
  std::string buffer;
};

ArticleStore::ArticleStore(const std::string& dictionary) : impl_(std::make_unique<Impl>()) {
  ZSTD_CCtx_setParameter(impl_->cctx.get(), ZSTD_c_compressionLevel, kLevel);
  ZSTD_CCtx_setParameter(impl_->cctx.get(), ZSTD_c_checksumFlag, kChecksum);
  if (dictionary.empty()) return;
  impl_->cdict.reset(ZSTD_createCDict(dictionary.data(), dictionary.size(), kLevel));
  ZSTD_CCtx_refCDict(impl_->cctx.get(), impl_->cdict.get());
  add_dictionary(dictionary);
}

ArticleStore::~ArticleStore() = default;
ArticleStore::ArticleStore(ArticleStore&&) noexcept = default;
ArticleStore& ArticleStore::operator=(ArticleStore&&) noexcept = default;

void ArticleStore::add_dictionary(const std::string& dictionary) {
  const unsigned id = ZDICT_getDictID(dictionary.data(), dictionary.size());
  if (id == 0 || impl_->ddicts.count(id)) return;
  impl_->ddicts[id].reset(ZSTD_createDDict(dictionary.data(), dictionary.size()));
}

std::string ArticleStore::encode(const Article& article) {
  const std::string plain = fields_of(article, kPlain);
  const std::string_view fields = std::string_view(plain).substr(1);
  std::string& out = impl_->buffer;
  out.resize(1 + ZSTD_compressBound(fields.size()));
  out[0] = kZstd;
  const std::size_t size = ZSTD_compress2(impl_->cctx.get(), out.data() + 1, out.size() - 1,
                                          fields.data(), fields.size());
  if (ZSTD_isError(size) || 1 + size >= plain.size()) return plain;
  return out.substr(0, 1 + size);
}

Article ArticleStore::decode(const std::string& data) {
  if (data.empty()) throw IndexError(kUnreadable);
  const std::string_view rest = std::string_view(data).substr(1);
  if (data[0] == kPlain) return article_of(rest);
  if (data[0] != kZstd) throw IndexError(kUnreadable);
  const unsigned long long size = ZSTD_getFrameContentSize(rest.data(), rest.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN ||
      size > kMaxStoredBytes) {
    throw IndexError(kUnreadable);
  }
  const ZSTD_DDict* ddict = nullptr;
  if (const unsigned id = ZSTD_getDictID_fromFrame(rest.data(), rest.size()); id != 0) {
    auto found = impl_->ddicts.find(id);
    if (found == impl_->ddicts.end()) {
      throw IndexError("index holds an article compressed with a dictionary it does not hold");
    }
    ddict = found->second.get();
  }
  std::string& fields = impl_->buffer;
  fields.resize(size);
  const std::size_t got =
      ddict ? ZSTD_decompress_usingDDict(impl_->dctx.get(), fields.data(), fields.size(),
                                         rest.data(), rest.size(), ddict)
            : ZSTD_decompressDCtx(impl_->dctx.get(), fields.data(), fields.size(), rest.data(),
                                  rest.size());
  if (ZSTD_isError(got) || got != size) throw IndexError(kUnreadable);
  return article_of(fields);
}

std::string encode_article(const Article& article) { return ArticleStore().encode(article); }

Article decode_article(const std::string& data) { return ArticleStore().decode(data); }

}  // namespace quarry::detail
