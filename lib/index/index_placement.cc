#include "lib/index/index_placement.h"

#include <fcntl.h>
#include <stdio.h>

#include <algorithm>
#include <cerrno>
#include <vector>

namespace quarry::detail {
namespace {

namespace fs = std::filesystem;

// Glass's version file: a database folder without it is no database.
constexpr char kVersionFile[] = "iamglass";

std::vector<fs::path> entries_of(const fs::path& folder, std::error_code& error) {
  std::vector<fs::path> found;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    found.push_back(it->path());
  }
  return found;
}

// Gives each of `locks`, the files of `target`, a second name in `built`,
// then swaps the two folders in one step (renameat2's RENAME_EXCHANGE):
// at every moment the lock files' path names the file locked.
std::error_code swap_in(const fs::path& built, const fs::path& target,
                        const std::vector<fs::path>& locks) {
  std::error_code error;
  for (const fs::path& lock : locks) {
    fs::create_hard_link(lock, built / lock.filename(), error);
    if (error) return error;
  }
  if (renameat2(AT_FDCWD, built.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) != 0) {
    return {errno, std::generic_category()};
  }
  // `built` now names the folder that was at `target`, whose files are
  // other names of the lock files now at `target`.
  fs::remove_all(built, error);
  return {};
}

}  // namespace

std::error_code move_database_files(const fs::path& built, const fs::path& target) {
  std::error_code error;
  std::vector<fs::path> files = entries_of(built, error);
  if (error) return error;
  std::stable_partition(files.begin(), files.end(),
                        [](const fs::path& file) { return file.filename() != kVersionFile; });
  for (const fs::path& file : files) {
    fs::rename(file, target / file.filename(), error);
    if (error) return error;
  }
  fs::remove(built, error);
  return error;
}

std::error_code place_database(const fs::path& built, const fs::path& target) {
  std::error_code error;
  if (!fs::exists(target, error)) {
    fs::rename(built, target, error);
    return error;
  }
  const std::vector<fs::path> locks = entries_of(target, error);
  if (error) return error;
  if (locks.empty()) {
    fs::remove(target, error);
    fs::rename(built, target, error);
    return error;
  }
  if (!swap_in(built, target, locks)) return {};
  // A file system that cannot swap folders (ZFS before 2.2, NFS) or has no
  // hard links (FAT).
  std::error_code ignored;
  for (const fs::path& lock : locks) fs::remove(built / lock.filename(), ignored);
  return move_database_files(built, target);
}

}  // namespace quarry::detail
