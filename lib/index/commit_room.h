// Room on disk for a commit, taken before Xapian writes it. Xapian 1.4
// writes the value chunks a commit changed from a destructor
// (Glass::ValueUpdater, into the table "postlist.glass"), where a write that
// fails cannot be reported: a full disk met there ends the process with
// std::terminate instead of an error. A writer therefore allocates, before
// each commit, room at the end of that table for what the commit may add
// to it, and a disk that cannot give it fails the commit with an IndexError
// while nothing has been written.
#ifndef QUARRY_LIB_INDEX_COMMIT_ROOM_H_
#define QUARRY_LIB_INDEX_COMMIT_ROOM_H_

#include <xapian.h>

#include <cstdint>
#include <string>

namespace quarry::detail {

// The room asked for a commit whose changed articles hold `text_bytes` of
// text: the values and postings it adds, with their blocks' slack, are a
// few times their text, and the B-tree blocks even a small commit
// rewrites take a few hundred kilobytes.
std::uintmax_t commit_room_for(std::uintmax_t text_bytes);

// Allocates `bytes` past the end of the Xapian database at `database_path`
// (a folder of glass tables), without changing its files' sizes: the next
// commit writes into space that is already the database's. Throws
// IndexError naming the database and the system's reason ("No space left
// on device") when the file system has no such room. Does nothing where the
// file system cannot allocate ahead (then a full disk may still end the
// process within Xapian).
void reserve_commit_room(const std::string& database_path, std::uintmax_t bytes);

// Lets go of what was written to `db` since its last commit, so that its
// destructor, which commits, writes nothing: for a writer dropped after a
// commit failed or could not be given room. Never throws.
void discard_uncommitted(Xapian::WritableDatabase& db) noexcept;

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_COMMIT_ROOM_H_
