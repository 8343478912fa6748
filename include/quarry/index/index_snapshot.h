// A snapshot of an index: a consistent, compacted copy of it, taken while
// it is being written, by a run or a live index.
#ifndef QUARRY_INDEX_INDEX_SNAPSHOT_H_
#define QUARRY_INDEX_INDEX_SNAPSHOT_H_

#include <cstdint>
#include <string>

namespace quarry {

struct SnapshotConfig {
  // The index: one database, or a shard set quarry-index wrote.
  std::string db_path;
  // Where the snapshot goes: a path that does not exist, or an empty
  // folder, on a file system where a folder beside it can be made.
  std::string dest;
};

// What a snapshot is doing, in the order it does it.
enum class SnapshotStep {
  kWaiting,     // for the writer's commit under way, if any, to end
  kCopying,     // a file of the index, while commits are held (see below)
  kCompacting,  // a database copied, into the snapshot; commits go on
  kPlacing,     // the whole snapshot is renamed to dest
};

// Told as a snapshot goes, on the thread that called take_snapshot.
class SnapshotObserver {
 public:
  virtual ~SnapshotObserver() = default;
  // `path` is the file copied (kCopying) or the database compacted
  // (kCompacting), as under the index; "" for the other steps.
  virtual void on_step(SnapshotStep /*step*/, const std::string& /*path*/) {}
};

struct SnapshotReport {
  // The revision of each database copied, summed: what a later snapshot
  // of an index written since shows larger.
  std::uint64_t revision = 0;
  // The bytes of the snapshot, and of the index's files copied for it.
  std::uintmax_t bytes = 0;
  std::uintmax_t copied_bytes = 0;
  double seconds = 0;
  // How long the index's writers' commits were held, of those seconds
  // (every copy's, when it was copied again).
  double held_seconds = 0;
};

// Writes a snapshot of the index at config.db_path to config.dest: every
// database of it, compacted with their document ids kept, and the files
// Quarry keeps in the index folder beside them (the saved searches, the
// alert log). The snapshot answers every query as the index did at one
// revision, the one between two commits of its writer at which it was
// copied.
//
// Commits of the index's writers (IndexWriter, so quarry-index and a live
// index) are held while its files are copied (seconds, for an index of a
// gigabyte), never while the copy is compacted; searches go on throughout.
// A writer waits 5 seconds at most: past them (a slow destination, a
// snapshot stopped with Ctrl-Z) it commits, and the snapshot, finding the
// index committed to while it copied, copies it again, three times in all.
// The snapshot is written in a folder beside dest, "<dest>.partial-XXXXXX",
// and renamed to dest once whole: a snapshot that fails or is killed never
// leaves dest, only that folder, which take_snapshot removes when it
// fails (a killed one leaves it, to be deleted). Restore by moving the
// snapshot where the index was, with its writers stopped, or by searching
// it where it is.
//
// Throws ConfigError when dest exists and is not an empty folder (nothing
// is written), IndexNotFoundError when there is no index at db_path,
// IndexError when a shard set's stub names databases elsewhere, when the
// index was committed to during each of the three copies (a writer that
// would wait no longer, or one that does not hold commits: try again), or
// when a file cannot be copied or written.
SnapshotReport take_snapshot(const SnapshotConfig& config, SnapshotObserver* observer = nullptr);

}  // namespace quarry

#endif  // QUARRY_INDEX_INDEX_SNAPSHOT_H_
