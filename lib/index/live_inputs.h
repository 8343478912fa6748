// What a live index watches — folders, .txt files and plain .jsonl corpora
// given — and what their changes mean for its articles.
#ifndef QUARRY_LIB_INDEX_LIVE_INPUTS_H_
#define QUARRY_LIB_INDEX_LIVE_INPUTS_H_

#include <chrono>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "lib/input/folder_watcher.h"
#include "lib/input/jsonl_follower.h"
#include "quarry/input/article_reader.h"

namespace quarry::detail {

// What the inputs feed: the live index.
class LiveFeed {
 public:
  virtual ~LiveFeed() = default;
  virtual void take(Article&& article, const std::string& origin) = 0;
  // Counted (skipped or repaired) and told to the observer.
  virtual void problem(const ReadProblem& problem) = 0;
  // Told to the observer, not counted: a change to what is watched.
  virtual void notice(const ReadProblem& notice) = 0;
  virtual bool cancelled() const = 0;
  // Deletes the article `id`, if there is one.
  virtual void remove(const std::string& id) = 0;
  // A sweep begins: delete_unseen then deletes the articles of an origin
  // that were not taken since.
  virtual void begin_sweep() = 0;
  virtual void delete_unseen(const std::string& origin) = 0;
};

// Feeds what a reader finds into the live index, from one origin. It
// follows changes (ArticleSink::follows_changes): a file still being
// written is passed over, and read once it is closed.
class LiveSink : public ArticleSink {
 public:
  LiveSink(LiveFeed& feed, std::string origin) : feed_(feed), origin_(std::move(origin)) {}
  void on_article(Article&& article, const SourceLocation& where) override;
  void on_problem(const ReadProblem& problem) override;
  bool should_stop() const override { return feed_.cancelled(); }
  bool follows_changes() const override { return true; }
  void on_passed_over(const SourceLocation& /*where*/) override {
    read_whole_ = false;
    passed_over_ = true;
  }
  // Whether everything was read whole, nothing skipped or passed over that
  // may still hold an article.
  bool read_whole() const { return read_whole_; }
  // Whether an input was read whole and held no article (an empty file, a
  // link to outside): the article it held before is gone.
  bool held_nothing() const { return held_nothing_; }
  // Whether a file was passed over as still being written.
  bool passed_over() const { return passed_over_; }

 private:
  LiveFeed& feed_;
  std::string origin_;
  bool read_whole_ = true;
  bool held_nothing_ = false;
  bool passed_over_ = false;
};

// Not thread-safe.
class LiveInputs {
 public:
  // Watches `paths` (see LiveConfig::paths), feeding `feed`. Throws
  // InputError when one cannot be watched.
  LiveInputs(LiveFeed& feed, const std::vector<std::string>& paths);
  ~LiveInputs();

  // The descriptor to poll: readable when changes wait.
  int fd() const { return watcher_.fd(); }

  // Reads the changes waiting, without blocking, and feeds what they mean.
  void read_changes();

  // Files whose close was told while another writer still held them: the
  // kernel tells of a close before it counts the writer gone, and the last
  // writer's close may be told to another folder (a link) or not at all.
  // They are looked at again, every kAwaitedRecheck while there are any,
  // and read once no one writes them.
  bool awaiting() const { return !awaited_.empty(); }
  void read_awaited();

 private:
  // A folder given: watched as a tree, followed by name.
  struct Folder {
    std::filesystem::path path;  // absolute, as events name it
    std::string origin;
    bool gone = false;  // moved away or deleted, its name awaited
  };
  // A .txt file given: its article follows the file.
  struct TextFile {
    std::filesystem::path path;
    std::string origin;
  };
  // A plain .jsonl corpus given, followed.
  struct Followed {
    std::unique_ptr<JsonlFollower> follower;
    std::string origin;
  };

  void handle(const WatchEvent& event);
  void handle_in_folder(Folder& folder, const WatchEvent& event);
  void read_text_file(const TextFile& file);
  void read_all_again();
  // As a run reads a folder: its articles not met again are deleted,
  // unless something in it could not be read or was passed over.
  void rescan(const Folder& folder);
  // Finds where a link may lead: the folders given that are there,
  // canonical.
  void find_scope();
  void notice(const std::filesystem::path& path, std::string text);

  LiveFeed& feed_;
  FolderWatcher watcher_;
  std::vector<Folder> folders_;
  std::vector<TextFile> text_files_;
  std::vector<Followed> followed_;
  std::vector<std::filesystem::path> scope_;
  std::set<std::filesystem::path> awaited_;
};

// How often files passed over on their close are looked at again.
inline constexpr std::chrono::milliseconds kAwaitedRecheck{100};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_LIVE_INPUTS_H_
