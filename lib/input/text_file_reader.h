// Reading one .txt file as an article: how much of it is read, and what is
// reported of it.
#ifndef QUARRY_LIB_INPUT_TEXT_FILE_READER_H_
#define QUARRY_LIB_INPUT_TEXT_FILE_READER_H_

#include <string>

#include "quarry/input/article_reader.h"

namespace quarry::detail {

// Reads the .txt file open on `fd` (left open: the caller closes it) as
// the article `id`, as read_articles describes, and delivers it or why it
// cannot be read to `sink`, with `where` as its location.
void read_text_file(int fd, const std::string& where, std::string id, ArticleSink& sink);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INPUT_TEXT_FILE_READER_H_
