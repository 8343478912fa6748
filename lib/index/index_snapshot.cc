// A snapshot copies the index's files with its writers' commits held, then
// compacts the copy with commits going on. Xapian's advice for copying a
// live database is that no writer commits meanwhile; compacting from a
// reader of the live index instead would fail with DatabaseModifiedError
// once the writer commits twice, as a live index does every second, while
// compacting a large index takes minutes. Copying is a fraction of that,
// so the writers wait only as long as a copy of the files takes.
#include "quarry/index/index_snapshot.h"

#include <stdlib.h>
#include <xapian.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "lib/index/file_copy.h"
#include "lib/index/index_error.h"
#include "lib/index/index_folder.h"
#include "lib/index/index_lock.h"
#include "lib/index/parallel_build.h"
#include "lib/index/shard_set.h"
#include "lib/index/stub_file.h"
#include "quarry/error.h"

namespace quarry {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Copies of the index's files made before one holds a single revision: a
// snapshot stopped longer than a writer waits (Ctrl-Z) copies again when
// continued, one on a disk too slow for the writer's commits gives up.
constexpr int kCopyAttempts = 3;

// Whether a file of a database folder belongs to the database itself.
bool is_database_file(const fs::path& name) {
  return name == detail::kGlassVersionFile || name == "flintlock" || name.extension() == ".glass";
}

// Whether a file of the index folder is one Quarry keeps there that a
// snapshot carries (the saved searches, the alert log): not a lock file
// (hidden), nor a file being written to replace another (".new").
bool is_kept_file(const fs::directory_entry& entry) {
  const std::string name = entry.path().filename().string();
  std::error_code error;
  return entry.is_regular_file(error) && !name.starts_with('.') && !name.ends_with(".new") &&
         !is_database_file(name) && name != detail::kStubFileName;
}

std::string error_text(const std::error_code& error) { return error.message(); }

void copy_one(const fs::path& from, const fs::path& to) {
  const std::error_code error = detail::copy_regular_file(from, to);
  if (error) {
    throw IndexError("cannot copy " + from.string() + " to " + to.string() + ": " +
                     error_text(error));
  }
}

std::uintmax_t size_of_tree(const fs::path& root) {
  std::uintmax_t bytes = 0;
  std::error_code error;
  for (const auto& entry : fs::recursive_directory_iterator(root, error)) {
    if (entry.is_regular_file(error)) bytes += entry.file_size(error);
  }
  return bytes;
}

// Refuses a dest that is not new or an empty folder, or that lies inside
// the index, before anything is written.
void check_dest(const fs::path& dest, const fs::path& index) {
  if (dest.empty()) throw ConfigError("the snapshot path is empty; name a new folder");
  std::error_code error;
  const fs::path whole_dest = fs::weakly_canonical(fs::absolute(dest), error);
  const fs::path whole_index = fs::weakly_canonical(fs::absolute(index), error);
  const fs::path inside = whole_dest.lexically_relative(whole_index);
  if (!inside.empty() && *inside.begin() != "..") {
    throw ConfigError("snapshot " + dest.string() + " is inside the index " + index.string() +
                      "; choose a folder outside it");
  }
  if (!fs::exists(fs::symlink_status(dest, error))) return;
  if (!fs::is_directory(dest, error) || !fs::is_empty(dest, error)) {
    throw ConfigError("snapshot " + dest.string() +
                      " exists and is not an empty folder; choose a new or empty one");
  }
}

// "snap/" and "snap" are one folder, as for an index.
fs::path plain_path(const std::string& path) {
  IndexConfig config;
  config.db_path = path;
  return detail::with_plain_db_path(config).db_path;
}

// The folder a snapshot is written in, beside dest, removed with what it
// holds unless the snapshot was placed.
class PartialFolder {
 public:
  explicit PartialFolder(const fs::path& dest) {
    std::error_code error;
    if (dest.has_parent_path()) fs::create_directories(dest.parent_path(), error);
    std::string name = dest.string() + ".partial-XXXXXX";
    if (mkdtemp(name.data()) == nullptr) {
      throw IndexError("cannot create a folder beside " + dest.string() + ": " +
                       std::strerror(errno));
    }
    path_ = name;
  }
  ~PartialFolder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  PartialFolder(const PartialFolder&) = delete;
  PartialFolder& operator=(const PartialFolder&) = delete;

  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

class Snapshot {
 public:
  Snapshot(const SnapshotConfig& config, SnapshotObserver* observer)
      : index_(plain_path(config.db_path)),
        dest_(plain_path(config.dest)),
        observer_(observer),
        start_(Clock::now()) {}

  SnapshotReport take() {
    check_dest(dest_, index_);
    if (detail::index_absent(index_.string()) || !detail::holds_index(index_.string())) {
      throw IndexNotFoundError(detail::no_index_message(index_.string()));
    }
    const PartialFolder partial(dest_);
    const fs::path copy = partial.path() / "copy";
    const fs::path kept = partial.path() / "kept";
    const fs::path snapshot = partial.path() / "snapshot";
    std::vector<Xapian::rev> revisions = copy_whole_revision(copy, kept);
    try {
      compact(copy, snapshot, revisions);
    } catch (const Xapian::Error& error) {
      throw detail::index_error("compacting a copy of the index " + index_.string(), error);
    }
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(kept, error)) {
      fs::rename(entry.path(), snapshot / entry.path().filename(), error);
      if (error) break;
    }
    if (error) {
      throw IndexError("cannot write the snapshot in " + partial.path().string() + ": " +
                       error_text(error));
    }
    report_.bytes = size_of_tree(snapshot);
    tell(SnapshotStep::kPlacing, "");
    fs::rename(snapshot, dest_, error);
    if (error) {
      throw IndexError("cannot move the snapshot to " + dest_.string() + ": " + error_text(error));
    }
    report_.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    return report_;
  }

 private:
  void tell(SnapshotStep step, const std::string& path) {
    if (observer_) observer_->on_step(step, path);
  }

  // The revision of each database of the index, as a reader opened now
  // finds it.
  std::vector<Xapian::rev> live_revisions() const {
    std::vector<Xapian::rev> revisions;
    for (const std::string& part : parts_) {
      const fs::path path = index_ / part;
      try {
        revisions.push_back(Xapian::Database(path.string()).get_revision());
      } catch (const Xapian::Error& error) {
        throw detail::index_error("reading the index " + path.string(), error);
      }
    }
    return revisions;
  }

  // copy_index until a copy holds one revision. A writer waits for a copy
  // kSnapshotHoldLimit at most, then commits: the copy under way is
  // abandoned, and the next one holds the commits anew.
  std::vector<Xapian::rev> copy_whole_revision(const fs::path& copy, const fs::path& kept) {
    for (int attempt = 1;; ++attempt) {
      if (std::optional<std::vector<Xapian::rev>> revisions = copy_index(copy, kept)) {
        return *revisions;
      }
      std::error_code ignored;
      fs::remove_all(copy, ignored);
      fs::remove_all(kept, ignored);
      if (attempt == kCopyAttempts) {
        throw IndexError("index " + index_.string() + " was committed to while its files were " +
                         "copied, " + std::to_string(kCopyAttempts) + " times: its writers " +
                         "wait at most " + std::to_string(detail::kSnapshotHoldLimit.count()) +
                         " s for a snapshot's copy; try again, to a faster disk or while fewer " +
                         "articles arrive");
      }
    }
  }

  // Copies the index's databases to `copy` and the files kept beside them
  // to `kept`, with commits held. Returns the revision of each database, or
  // nothing when the index was committed to meanwhile (by a writer that
  // stopped waiting, or one that does not hold commits): the copy may mix
  // two revisions.
  std::optional<std::vector<Xapian::rev>> copy_index(const fs::path& copy, const fs::path& kept) {
    tell(SnapshotStep::kWaiting, "");
    const detail::CommitLock holding(index_.string());
    const Clock::time_point held = Clock::now();
    const bool shard_set = detail::is_shard_set(index_.string());
    parts_ = shard_set ? detail::shard_set_parts(index_.string()) : std::vector<std::string>{""};
    const std::vector<Xapian::rev> before = live_revisions();
    fs::create_directories(kept);
    for (const std::string& part : parts_) copy_database(index_ / part, copy / part);
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(index_, error)) {
      if (is_kept_file(entry)) copy_file(entry.path(), kept / entry.path().filename());
    }
    if (error) throw IndexError("cannot read " + index_.string() + ": " + error_text(error));
    if (shard_set) copy_file(index_ / detail::kStubFileName, kept / detail::kStubFileName);
    report_.held_seconds += std::chrono::duration<double>(Clock::now() - held).count();
    if (live_revisions() != before) return std::nullopt;
    return before;
  }

  // The version file first: the tables it names were written before it,
  // and are not written again while commits are held.
  void copy_database(const fs::path& from, const fs::path& to) {
    std::error_code error;
    fs::create_directories(to, error);
    if (error) throw IndexError("cannot create " + to.string() + ": " + error_text(error));
    std::vector<fs::path> tables;
    for (const auto& entry : fs::directory_iterator(from, error)) {
      const fs::path name = entry.path().filename();
      if (name.extension() == ".glass" && entry.is_regular_file(error)) tables.push_back(name);
    }
    if (error) throw IndexError("cannot read " + from.string() + ": " + error_text(error));
    std::sort(tables.begin(), tables.end());
    copy_file(from / detail::kGlassVersionFile, to / detail::kGlassVersionFile);
    for (const fs::path& table : tables) copy_file(from / table, to / table);
  }

  void copy_file(const fs::path& from, const fs::path& to) {
    tell(SnapshotStep::kCopying, from.lexically_relative(index_).string());
    copy_one(from, to);
    std::error_code error;
    report_.copied_bytes += fs::file_size(to, error);
  }

  // Compacts each database copied into `snapshot`, keeping document ids:
  // the snapshot numbers its documents as the index does.
  void compact(const fs::path& copy, const fs::path& snapshot,
               const std::vector<Xapian::rev>& revisions) {
    fs::create_directories(snapshot);
    for (std::size_t i = 0; i < parts_.size(); ++i) {
      tell(SnapshotStep::kCompacting, parts_[i]);
      const fs::path from = copy / parts_[i];
      Xapian::Database source(from.string());
      if (source.get_revision() != revisions[i]) {
        throw IndexError("the copy of " + (index_ / parts_[i]).string() +
                         " is not the revision it was copied at; try again");
      }
      report_.revision += revisions[i];
      source.compact((snapshot / parts_[i]).string(), Xapian::DBCOMPACT_NO_RENUMBER);
      std::error_code ignored;
      fs::remove_all(from, ignored);
    }
  }

  const fs::path index_;
  const fs::path dest_;
  SnapshotObserver* observer_;
  const Clock::time_point start_;
  std::vector<std::string> parts_;  // the databases, by name under index_ ("" for one)
  SnapshotReport report_;
};

}  // namespace

SnapshotReport take_snapshot(const SnapshotConfig& config, SnapshotObserver* observer) {
  return Snapshot(config, observer).take();
}

}  // namespace quarry
