// What tells a local shard's folder from another that took its path, and
// each commit in it from the one before, without opening it: how a
// ShardGroup knows to open a folder afresh rather than reopen it.
#ifndef QUARRY_LIB_SEARCH_FOLDER_STAMP_H_
#define QUARRY_LIB_SEARCH_FOLDER_STAMP_H_

#include <cstdint>

#include "lib/index/stub_file.h"

namespace quarry::detail {

// The folder's and its version file's identity and change time. Zero when
// there is no such folder.
struct FolderStamp {
  std::uint64_t folder_device = 0, folder_inode = 0, folder_change = 0;
  std::uint64_t version_inode = 0, version_change = 0;
  bool operator==(const FolderStamp&) const = default;
};

// The stamp of the folder at `location` as it is now; zero for a remote
// one, or when there is no folder.
FolderStamp stamp_of(const ShardLocation& location);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_FOLDER_STAMP_H_
