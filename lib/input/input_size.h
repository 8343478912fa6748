// How much article text a set of inputs holds, known before reading them,
// so that a long run can tell how far along it is.
#ifndef QUARRY_LIB_INPUT_INPUT_SIZE_H_
#define QUARRY_LIB_INPUT_INPUT_SIZE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace quarry::detail {

// The bytes read_articles would read from `paths`, uncompressed: the sizes
// of the article files under each folder and of each file named, a gzipped
// corpus counting the size its trailer records. Paths that cannot be read
// count nothing.
std::uintmax_t estimated_input_bytes(const std::vector<std::string>& paths);

// Whether `path` is a file, or a folder with an article file below it.
bool holds_article_file(const std::string& path);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INPUT_INPUT_SIZE_H_
