// One article file, opened and read to a sink as read_articles reads each
// file it meets: the piece shared by the walk of a folder, a file given
// alone, and a live index reading a file it was told of.
#ifndef QUARRY_LIB_INPUT_ARTICLE_FILE_H_
#define QUARRY_LIB_INPUT_ARTICLE_FILE_H_

#include <filesystem>
#include <string>
#include <utility>

#include "lib/input/file_descriptor.h"
#include "quarry/input/article_reader.h"

namespace quarry::detail {

enum class InputKind { kNone, kText, kJsonl };

// By the file's name: .txt, .jsonl or .jsonl.gz in any case, or none.
InputKind input_kind(const std::filesystem::path& path);

// Opens the regular file at `path` for reading, following a symbolic link.
// Returns -1 and sets *error ("cannot open: …", "not a regular file") on
// failure, and *gone when there is no file of that name (any more).
int open_regular_file(const std::filesystem::path& path, std::string* error, bool* gone = nullptr);

// Whether some process has `fd`'s file open for writing.
bool being_written(int fd);

// Reads the articles of the file open as `fd`: the one of a .txt file,
// whose id is `id`, or those of a JSON Lines file's lines; problems name
// `where`.
void read_open_file(FileDescriptor fd, const std::string& where, std::string id, InputKind kind,
                    ArticleSink& sink);

// Opens and reads the article file at `path` (see read_open_file). For a
// sink that follows changes (ArticleSink::follows_changes), a file some
// process has open for writing is passed over (ArticleSink::on_passed_over),
// and one gone before it could be opened is left out without a word;
// otherwise, and for other failures to open, it is reported, skipped.
void read_article_file(const std::filesystem::path& path, const std::string& where, std::string id,
                       InputKind kind, ArticleSink& sink);

// Tells the sink of a problem at `path`. Built field by field: GCC 12 warns
// of uninitialized strings in a braced temporary ReadProblem at -O2.
void report_problem(ArticleSink& sink, const std::string& path, std::string reason,
                    bool skipped = true, bool read_whole = false);

// A path as ids and locations show it (see path_text).
std::string display_path(const std::filesystem::path& path);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INPUT_ARTICLE_FILE_H_
