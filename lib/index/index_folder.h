// Where an index lives, as every writer of it sees the path: the checks a
// run and an IndexWriter make before they take the lock.
#ifndef QUARRY_LIB_INDEX_INDEX_FOLDER_H_
#define QUARRY_LIB_INDEX_INDEX_FOLDER_H_

#include <string>

#include "quarry/index/index_writer.h"

namespace quarry::detail {

// `config` with db_path without a trailing '/': "index/" and "index" are
// one index, and a new index's parts sit beside it, named after it.
IndexConfig with_plain_db_path(IndexConfig config);

// Throws ConfigError when db_path is a file, or a folder holding other
// files than an index: an index is never written among other files, where
// a mistyped --db would otherwise put it.
void check_index_folder(const std::string& db_path);

// What a reader tells a user who asked for the index at `db_path`, where
// there is none: how to build one, with a command that check_index_folder
// lets through ("no index at x; build one with: quarry-index --db x FOLDER").
std::string no_index_message(const std::string& db_path);

// The file of a Xapian glass database that names its revision, and the
// root of each table in the table files beside it.
inline constexpr char kGlassVersionFile[] = "iamglass";

// Whether the folder `db_path` holds an index: a shard set or a glass
// database. Never throws.
bool holds_index(const std::string& db_path);

// Whether config asks for, or finds, a shard set rather than one database.
bool is_shard_set_config(const IndexConfig& config);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_INDEX_FOLDER_H_
