// Any bytes as a JSON Lines corpus (gzipped or not): every article comes out
// with an id and valid UTF-8, every problem names a line and fits on it.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "lib/input/jsonl_reader.h"
#include "lib/text/utf8_repair.h"
#include "quarry/input/article_reader.h"

namespace {

bool valid(const std::string& text) { return quarry::detail::count_invalid_utf8(text) == 0; }

class CheckingSink : public quarry::ArticleSink {
 public:
  void on_article(quarry::Article&& article, const quarry::SourceLocation& where) override {
    if (article.id.empty() || where.line == 0) std::abort();
    for (const std::string* field : {&article.id, &article.title, &article.body, &article.date,
                                     &article.category, &article.source}) {
      if (!valid(*field)) std::abort();
    }
    if (article.body.size() > quarry::kMaxBodyBytes) std::abort();
  }
  void on_problem(const quarry::ReadProblem& problem) override {
    if (problem.reason.empty() || problem.reason.find('\n') != std::string::npos) std::abort();
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const int fd = memfd_create("corpus.jsonl", MFD_CLOEXEC);
  if (fd < 0) std::abort();
  for (std::size_t written = 0; written < size;) {
    const ssize_t count = write(fd, data + written, size - written);
    if (count <= 0) std::abort();
    written += static_cast<std::size_t>(count);
  }
  lseek(fd, 0, SEEK_SET);
  CheckingSink sink;
  quarry::detail::read_jsonl(fd, "corpus.jsonl", sink);
  return 0;
}
