#include "lib/search/folder_stamp.h"

#include <sys/stat.h>

namespace quarry::detail {
namespace {

std::uint64_t change_time(const struct stat& status) {
  return static_cast<std::uint64_t>(status.st_ctim.tv_sec) * 1000000000u +
         static_cast<std::uint64_t>(status.st_ctim.tv_nsec);
}

}  // namespace

FolderStamp stamp_of(const ShardLocation& location) {
  FolderStamp stamp;
  if (location.remote()) return stamp;
  struct stat status {};
  if (::stat(location.path.c_str(), &status) != 0) return stamp;
  stamp.folder_device = status.st_dev;
  stamp.folder_inode = status.st_ino;
  // A commit renames a new version file into the folder, which changes
  // the folder's change time too; a folder deleted and copied anew may
  // get the same inode number back, but not the same change time.
  stamp.folder_change = change_time(status);
  // Glass's version file; other backends are told by the folder alone.
  if (::stat((location.path + "/iamglass").c_str(), &status) == 0) {
    stamp.version_inode = status.st_ino;
    stamp.version_change = change_time(status);
  }
  return stamp;
}

}  // namespace quarry::detail
