// Moving a database built elsewhere into the index folder, where the run
// building it already holds the index's lock: the last step of a new index
// (see parallel_build.h).
#ifndef QUARRY_LIB_INDEX_INDEX_PLACEMENT_H_
#define QUARRY_LIB_INDEX_INDEX_PLACEMENT_H_

#include <filesystem>

namespace quarry::detail {

// Puts the database folder `built` at `target`, which holds no index (see
// index_absent): absent, empty, or holding only the lock files. Readers
// find the whole database there or none of it, and the lock files stay the
// files they are, so that a run waiting for the lock, or starting now,
// waits on the lock this run holds. Returns the error that stopped it, and
// then `built` is where it was unless some of its files were moved.
std::error_code place_database(const std::filesystem::path& built,
                               const std::filesystem::path& target);

// How place_database moves the files where the file system cannot swap two
// folders: one by one into `target`, the version file last, so that a
// reader opens nothing until every table is there. Killed midway, it
// leaves tables without their version file, which no run takes for an
// index. `built` is removed once empty.
std::error_code move_database_files(const std::filesystem::path& built,
                                    const std::filesystem::path& target);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_INDEX_PLACEMENT_H_
