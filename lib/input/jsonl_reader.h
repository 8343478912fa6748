// JSON Lines corpora, plain or gzip-compressed: one article object a line.
#ifndef QUARRY_LIB_INPUT_JSONL_READER_H_
#define QUARRY_LIB_INPUT_JSONL_READER_H_

#include <string>

#include "quarry/input/article_reader.h"

namespace quarry::detail {

// Reads the JSON Lines stream open on `fd`, which may be gzip-compressed or
// not (zlib tells them apart by their first bytes), and reports its articles
// and problems to `sink` with `path` as their location, polling
// sink.should_stop() before each line. Takes ownership of `fd`.
void read_jsonl(int fd, const std::string& path, ArticleSink& sink);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INPUT_JSONL_READER_H_
