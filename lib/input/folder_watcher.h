// Watching folders for articles that arrive, change or go, through the
// kernel's inotify interface.
#ifndef QUARRY_LIB_INPUT_FOLDER_WATCHER_H_
#define QUARRY_LIB_INPUT_FOLDER_WATCHER_H_

#include <sys/inotify.h>

#include <filesystem>
#include <string>
#include <unordered_map>
#include <vector>

#include "quarry/input/article_reader.h"

namespace quarry::detail {

// Something that changed in a watched folder.
struct WatchEvent {
  enum class Kind {
    kFileWritten,  // a file closed after writing, or moved in: complete
    kFileChanged,  // a file was created, written to or truncated (followed files only)
    kFileGone,     // a file deleted, or moved away
    kFolderAdded,  // a folder created or moved in below a tree: now watched, with those below
    kFolderGone,   // a folder deleted or moved away below a tree: no longer watched
    kOverflow,     // the kernel's queue overflowed and events were lost: look again
    kRootGone,     // a folder given to watch_tree was moved away or deleted: no longer watched
    kRootBack,     // a folder of that name appeared again: watched, with those below
  };
  Kind kind;
  // The folder watched joined with the name that changed (empty for
  // kOverflow; the folder given, for kRootGone and kRootBack).
  std::filesystem::path path;
};

// Not thread-safe. Events come in the order the kernel reports them.
class FolderWatcher {
 public:
  // Throws InputError when the kernel gives no inotify instance (the
  // process or user has too many).
  FolderWatcher();
  ~FolderWatcher();
  FolderWatcher(const FolderWatcher&) = delete;
  FolderWatcher& operator=(const FolderWatcher&) = delete;

  // Watches `folder` and every folder below it that is not hidden, and
  // those created or moved in below it later, for files written, moved in,
  // deleted or moved away. Symbolic links to folders are not followed.
  // Throws InputError when `folder` itself cannot be watched; a folder
  // below it that cannot be is a problem (see take_problems). `folder` is
  // followed by name, as `tail -F` follows a file: moved away or deleted,
  // its tree is no longer watched (what is written in it then is none of
  // ours) and the folder holding it is watched for a folder of the name to
  // appear, which is then watched as `folder` was.
  void watch_tree(const std::filesystem::path& folder);

  // Watches the folder that holds `file` for every change to a file of that
  // name: created, written to, truncated, replaced, deleted. Throws
  // InputError when it cannot be watched.
  void watch_name(const std::filesystem::path& file);

  // The descriptor to poll for events (readable when some are waiting).
  int fd() const { return fd_; }

  // The events waiting, without blocking; watches follow the folders added
  // and gone before their events are returned.
  std::vector<WatchEvent> read_events();

  // Folders below a tree that could not be watched since the last call
  // (the kernel's limit of watches reached, say), their changes unseen.
  std::vector<ReadProblem> take_problems();

 private:
  struct Watch {
    std::filesystem::path folder;
    bool tree = false;
    bool root = false;  // a folder given to watch_tree
  };

  int add_watch(const std::filesystem::path& folder, unsigned mask, std::string* error);
  // Watches `folder` as a tree, its own watch marked as a root's or not.
  // Returns false, with *error set, when it cannot be watched.
  bool add_tree(const std::filesystem::path& folder, bool root, std::string* error);
  // The root `folder` went: its tree is dropped and its name awaited.
  void root_gone(const std::filesystem::path& folder, std::vector<WatchEvent>& events);
  // Watches the awaited root `folder` again, if it is a folder now.
  void root_back(const std::filesystem::path& folder, std::vector<WatchEvent>& events);
  // Adds the events of one the kernel reported.
  void take_event(const inotify_event& event, std::vector<WatchEvent>& events);
  // Watches the folders below `folder`, which is watched already.
  void watch_below(const std::filesystem::path& folder);
  // Drops the watches of `folder` and below.
  void drop_tree(const std::filesystem::path& folder);
  void problem(const std::filesystem::path& folder, const std::string& reason);

  int fd_ = -1;
  std::unordered_map<int, Watch> watches_;
  std::vector<ReadProblem> problems_;
  // Roots moved away or deleted, whose names are awaited.
  std::vector<std::filesystem::path> awaited_;
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INPUT_FOLDER_WATCHER_H_
