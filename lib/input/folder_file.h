// One file of a folder given to read_articles, read on its own: what a live
// index does when a file below a folder it watches is written.
#ifndef QUARRY_LIB_INPUT_FOLDER_FILE_H_
#define QUARRY_LIB_INPUT_FOLDER_FILE_H_

#include <filesystem>
#include <string>
#include <vector>

#include "quarry/input/article_reader.h"

namespace quarry::detail {

// Reads the file at `relative` below the folder `root` as read_articles
// reads it in a walk of `root` whose links may lead into the canonical
// folders `scope` (see link_scope): a .txt file is one article whose id is
// `relative`, a .jsonl or .jsonl.gz file the articles of its lines. A file
// of another kind, a hidden one or one below a hidden folder is left out;
// a symbolic link is judged by where it leads, as the walk judges it (one
// to outside `scope` is reported, skipped and read whole). A file some
// process has open for writing, or gone, is passed over as
// read_article_file passes it over, for a sink that follows changes.
void read_folder_file(const std::filesystem::path& root, const std::filesystem::path& relative,
                      const std::vector<std::filesystem::path>& scope, ArticleSink& sink);

// Reads every file below the folder at `relative` below `root`, in name
// order, as read_folder_file reads each; hidden folders are left out, and
// so are links to folders.
void read_folder_files(const std::filesystem::path& root, const std::filesystem::path& relative,
                       const std::vector<std::filesystem::path>& scope, ArticleSink& sink);

// Whether read_folder_file reads the file at `relative` below a folder
// as one article (a .txt file, not hidden).
bool is_text_article(const std::filesystem::path& relative);

// The id of the article of the .txt file at `relative` below a folder
// given, as read_articles gives it.
std::string text_article_id(const std::filesystem::path& relative);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INPUT_FOLDER_FILE_H_
