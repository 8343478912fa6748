// The walk of a folder given to read_articles: its files in name order, at
// any depth, and the symbolic links in it judged by where they lead.
#ifndef QUARRY_LIB_INPUT_FOLDER_WALKER_H_
#define QUARRY_LIB_INPUT_FOLDER_WALKER_H_

#include <filesystem>
#include <string>
#include <vector>

#include "quarry/input/article_reader.h"

namespace quarry::detail {

// Reads the articles below the folder `root` as read_articles does. Throws
// InputError when `root` itself cannot be listed.
void read_folder(const std::filesystem::path& root, ArticleSink& sink,
                 const std::vector<std::filesystem::path>& also_within);

// The entries of `folder` in name order, as many as could be read; sets
// *error when not all could.
std::vector<std::filesystem::directory_entry> list_folder(const std::filesystem::path& folder,
                                                          std::string* error);

// The folders a symbolic link below `folders` may lead into: each of them
// that is a folder, canonical.
std::vector<std::filesystem::path> link_scope(const std::vector<std::filesystem::path>& folders);

// What a symbolic link at `link` leads to, as a walk judges it: read as
// the article file it names (kRead, *target set), left out (kLeftOut: a
// folder, or a file of no kind read), or reported as read_articles reports
// it (kReported: dangling, a loop, or outside `scope`).
enum class LinkVerdict { kRead, kLeftOut, kReported };
LinkVerdict judge_link(const std::filesystem::path& link,
                       const std::vector<std::filesystem::path>& scope, ArticleSink& sink);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INPUT_FOLDER_WALKER_H_
