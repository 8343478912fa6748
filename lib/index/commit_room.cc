#include "lib/index/commit_room.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "lib/input/file_descriptor.h"
#include "quarry/error.h"

namespace quarry::detail {
namespace {

// The table Xapian's glass backend keeps postings and value chunks in.
constexpr char kValueTable[] = "postlist.glass";

// The least room asked for: some tens of the table's 8 KiB blocks, those
// a commit of a few articles rewrites beyond what the blocks the last
// commit freed hold.
constexpr std::uintmax_t kLeastRoom = 256 << 10;

// Values and postings are each about as large as the text, block slack
// and rewritten blocks double that again.
constexpr std::uintmax_t kRoomPerTextByte = 4;

}  // namespace

std::uintmax_t commit_room_for(std::uintmax_t text_bytes) {
  return kLeastRoom + kRoomPerTextByte * text_bytes;
}

void reserve_commit_room(const std::string& database_path, std::uintmax_t bytes) {
  const std::string table = (std::filesystem::path(database_path) / kValueTable).string();
  const FileDescriptor file(open(table.c_str(), O_WRONLY | O_CLOEXEC));
  // No table yet (a new database, written at its first commit) or one that
  // cannot be opened: Xapian's commit reports what is wrong.
  if (file.get() < 0) return;
  struct stat status {};
  if (fstat(file.get(), &status) != 0) return;
  int failed = 0;
  do {
    failed =
        fallocate(file.get(), FALLOC_FL_KEEP_SIZE, status.st_size, static_cast<off_t>(bytes)) == 0
            ? 0
            : errno;
  } while (failed == EINTR);
  if (failed == ENOSPC || failed == EDQUOT || failed == EFBIG) {
    throw IndexError("index " + database_path + ": no room for a commit: " + std::strerror(failed));
  }
}

void discard_uncommitted(Xapian::WritableDatabase& db) noexcept {
  // An unflushed transaction commits nothing when it begins, and cancelling
  // it drops every change not yet committed, the earlier ones too; the
  // destructor then has nothing to write.
  try {
    db.begin_transaction(false);
    db.cancel_transaction();
  } catch (const Xapian::Error&) {
    // A database Xapian closed after a failed commit has nothing to drop.
  }
}

}  // namespace quarry::detail
