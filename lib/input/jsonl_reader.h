// JSON Lines corpora, plain or gzip-compressed: one article object a line.
#ifndef QUARRY_LIB_INPUT_JSONL_READER_H_
#define QUARRY_LIB_INPUT_JSONL_READER_H_

#include <cstddef>
#include <string>

#include "quarry/input/article_reader.h"

namespace quarry::detail {

// Reads the JSON Lines stream open on `fd`, which may be gzip-compressed or
// not (zlib tells them apart by their first bytes), and reports its articles
// and problems to `sink` with `path` as their location, polling
// sink.should_stop() before each line. Takes ownership of `fd`.
void read_jsonl(int fd, const std::string& path, ArticleSink& sink);

// Longer lines are skipped rather than held in memory: no article is that
// long, but a binary file with a .jsonl name may have no line breaks at all.
inline constexpr std::size_t kMaxLineBytes = 256 * 1024 * 1024;

// Reads one line of JSON Lines, without its line break, as read_jsonl
// reads each: an article, or a problem, to the sink. A blank line is
// nothing; a byte order mark starts line 1 only.
void read_jsonl_line(std::string line, const SourceLocation& where, ArticleSink& sink);

// Reports a line over kMaxLineBytes, skipped.
void report_too_long_line(const SourceLocation& where, ArticleSink& sink);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INPUT_JSONL_READER_H_
