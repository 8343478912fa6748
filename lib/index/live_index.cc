// The live index's loop: one writer, held from the initial run to the end,
// fed by the folder watcher, the followed corpora and standard input, and
// committed at most once a commit interval. Between commits it sleeps in
// poll() on their descriptors.
#include "quarry/index/live_index.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>

#include "lib/index/index_folder.h"
#include "lib/index/index_lock.h"
#include "lib/index/index_writer_access.h"
#include "lib/index/indexing_run.h"
#include "lib/index/language_analyzers.h"
#include "lib/index/parallel_build.h"
#include "lib/input/folder_file.h"
#include "lib/input/folder_watcher.h"
#include "lib/input/input_size.h"
#include "lib/input/jsonl_follower.h"
#include "lib/input/jsonl_stream.h"
#include "quarry/error.h"

namespace quarry {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// The origin of the articles read from standard input: no folder or corpus
// sweeps them.
constexpr char kStdinOrigin[] = "stdin";

// The changes since the last commit, each id once in the order it came.
class PendingCommit {
 public:
  void upserted(const std::string& id, Upsert done) {
    Change& change = at(id);
    change.deleted = false;
    if (done == Upsert::kAdded && !change.existed) change.added = true;
    change.existed = true;
  }
  void deleted(const std::string& id) {
    Change& change = at(id);
    change.deleted = true;
    change.existed = true;
  }
  void skipped() { ++skipped_; }
  // Skips alone wait for a change to commit.
  bool empty() const { return order_.empty(); }

  LiveCommit take(std::size_t number, double seconds) {
    LiveCommit commit;
    commit.number = number;
    commit.seconds = seconds;
    commit.skipped = std::exchange(skipped_, 0);
    for (std::string& id : order_) {
      const Change& change = changes_[id];
      if (change.deleted) {
        commit.deleted_ids.push_back(std::move(id));
      } else {
        ++(change.added ? commit.added : commit.updated);
        commit.upserted_ids.push_back(std::move(id));
      }
    }
    order_.clear();
    changes_.clear();
    return commit;
  }

 private:
  struct Change {
    bool deleted = false;
    bool added = false;
    bool existed = false;
  };
  Change& at(const std::string& id) {
    auto [found, inserted] = changes_.try_emplace(id);
    if (inserted) order_.push_back(id);
    return found->second;
  }

  std::vector<std::string> order_;
  std::unordered_map<std::string, Change> changes_;
  std::size_t skipped_ = 0;
};

// A folder given: watched as a tree.
struct Folder {
  fs::path path;  // absolute, as events name it
  std::string origin;
};

// A .txt file given: its article follows the file.
struct TextFile {
  fs::path path;
  std::string origin;
};

// A plain .jsonl corpus given, followed.
struct Followed {
  std::unique_ptr<detail::JsonlFollower> follower;
  std::string origin;
};

// `path` absolute and without a trailing separator, as the watcher joins
// names to it.
fs::path watched_form(const std::string& path) {
  fs::path form = fs::absolute(path).lexically_normal();
  if (!form.has_filename() && form.has_parent_path() && form != form.root_path()) {
    form = form.parent_path();
  }
  return form;
}

std::string origin_of(const std::string& path) {
  std::error_code error;
  return fs::weakly_canonical(path, error).string();
}

bool has_suffix(const std::string& path, std::string_view suffix) {
  const std::string name = fs::path(path).filename().string();
  return name.size() > suffix.size() &&
         std::equal(suffix.begin(), suffix.end(), name.end() - suffix.size(),
                    [](char a, char b) { return a == (b >= 'A' && b <= 'Z' ? b - 'A' + 'a' : b); });
}

class LiveIndex;

// Feeds what a reader finds into the live index, from one origin.
class LiveSink : public ArticleSink {
 public:
  LiveSink(LiveIndex& live, std::string origin) : live_(live), origin_(std::move(origin)) {}
  void on_article(Article&& article, const SourceLocation& where) override;
  void on_problem(const ReadProblem& problem) override;
  bool should_stop() const override;
  // Whether nothing that was not read whole was skipped.
  bool read_whole() const { return read_whole_; }

 private:
  LiveIndex& live_;
  std::string origin_;
  bool read_whole_ = true;
};

class LiveIndex {
 public:
  LiveIndex(const LiveConfig& config, LiveObserver* observer)
      : config_(config), observer_(observer), start_(Clock::now()) {
    config_.index = detail::with_plain_db_path(config.index);
  }

  IndexReport run() {
    const IndexConfig& index = config_.index;
    const bool has_articles =
        !detail::index_absent(index.db_path) ||
        std::any_of(config_.paths.begin(), config_.paths.end(),
                    [](const std::string& path) { return detail::holds_article_file(path); });
    const std::vector<std::vector<std::string>> synonyms =
        detail::prepare_run(index, config_.paths, false);
    const detail::IndexLock lock(index.db_path, index.lock_wait, index.cancel);
    // Watched from before the initial run, so that nothing written while it
    // reads is missed: what it read already is found unchanged.
    watch();
    if (has_articles && !config_.paths.empty()) {
      report_ = detail::run_locked(index, config_.paths, synonyms, observer_);
    } else if (!detail::is_shard_set_config(index) &&
               !detail::adopt_interrupted_build(index.db_path, index.cancel)) {
      report_.cancelled = true;
    }
    if (report_.cancelled || cancelled()) return finish();
    writer_.emplace(detail::IndexWriterAccess::open_locked(index));
    detail::IndexWriterAccess::keep_story_bands(*writer_);
    if (!(has_articles && !config_.paths.empty()) && !synonyms.empty()) {
      report_.synonym_groups = writer_->replace_synonyms(synonyms);
    }
    if (observer_) {
      observer_->after_initial_run(*writer_);
      observer_->on_ready(report_);
    }
    loop();
    if (!pending_.empty()) commit();
    detail::add_counts(report_.languages, writer_->language_counts());
    return finish();
  }

  // Called by LiveSink.
  void take(Article&& article, const std::string& origin) {
    const Upsert done = writer_->upsert(article, origin);
    switch (done) {
      case Upsert::kAdded:
        ++report_.added;
        break;
      case Upsert::kUpdated:
        ++report_.updated;
        break;
      case Upsert::kUnchanged:
        ++report_.unchanged;
        return;
    }
    pending_.upserted(article.id, done);
  }
  void problem(const ReadProblem& problem) {
    if (problem.skipped) {
      ++report_.skipped;
      pending_.skipped();
    } else {
      ++report_.repaired;
    }
    if (observer_) observer_->on_problem(problem);
  }
  bool cancelled() const {
    return config_.index.cancel && config_.index.cancel->load(std::memory_order_relaxed);
  }

 private:
  void watch();
  void loop();
  void handle(const detail::WatchEvent& event);
  void handle_in_folder(const Folder& folder, const detail::WatchEvent& event);
  void rescan(const Folder& folder);
  void read_stdin();
  void commit();
  int poll_timeout() const;
  IndexReport finish() {
    report_.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    if (cancelled()) report_.cancelled = true;
    return report_;
  }
  void remove(const std::string& id) {
    if (!writer_->remove(id)) return;
    ++report_.deleted;
    pending_.deleted(id);
  }

  LiveConfig config_;
  LiveObserver* observer_;
  Clock::time_point start_;
  IndexReport report_;
  std::optional<IndexWriter> writer_;
  std::unique_ptr<detail::FolderWatcher> watcher_;
  std::vector<Folder> folders_;
  std::vector<TextFile> text_files_;
  std::vector<Followed> followed_;
  std::optional<detail::JsonlStream> stdin_;
  PendingCommit pending_;
  std::size_t commits_ = 0;
  Clock::time_point last_commit_;
};

void LiveSink::on_article(Article&& article, const SourceLocation& /*where*/) {
  live_.take(std::move(article), origin_);
}

void LiveSink::on_problem(const ReadProblem& problem) {
  if (problem.skipped && !problem.read_whole) read_whole_ = false;
  live_.problem(problem);
}

bool LiveSink::should_stop() const { return live_.cancelled(); }

void LiveIndex::watch() {
  if (config_.read_stdin) stdin_.emplace("stdin");
  if (config_.paths.empty() || !config_.watch) return;
  watcher_ = std::make_unique<detail::FolderWatcher>();
  for (const std::string& path : config_.paths) {
    std::error_code error;
    if (fs::is_directory(path, error)) {
      folders_.push_back({watched_form(path), origin_of(path)});
      watcher_->watch_tree(folders_.back().path);
    } else if (has_suffix(path, ".txt")) {
      text_files_.push_back({watched_form(path), origin_of(path)});
      watcher_->watch_name(text_files_.back().path);
    } else if (has_suffix(path, ".jsonl")) {
      const fs::path form = watched_form(path);
      followed_.push_back({std::make_unique<detail::JsonlFollower>(form), origin_of(path)});
      watcher_->watch_name(form);
    }
  }
}

int LiveIndex::poll_timeout() const {
  int timeout = -1;
  if (!pending_.empty()) {
    const auto due =
        last_commit_ + std::chrono::duration_cast<Clock::duration>(config_.commit_interval);
    const double left = std::chrono::duration<double, std::milli>(due - Clock::now()).count();
    timeout = static_cast<int>(std::clamp(std::ceil(left), 0.0, 1e9));
  }
  if (config_.wake_fd < 0 && config_.index.cancel) {
    const int check = static_cast<int>(kCancelCheck.count());
    timeout = timeout < 0 ? check : std::min(timeout, check);
  }
  return timeout;
}

void LiveIndex::loop() {
  last_commit_ =
      Clock::now() - std::chrono::duration_cast<Clock::duration>(config_.commit_interval);
  for (;;) {
    if (cancelled()) return;
    if (!watcher_ && !stdin_) return;
    std::vector<pollfd> fds;
    if (watcher_) fds.push_back({watcher_->fd(), POLLIN, 0});
    const int stdin_slot = stdin_ ? static_cast<int>(fds.size()) : -1;
    if (stdin_) fds.push_back({config_.stdin_fd, POLLIN, 0});
    if (config_.wake_fd >= 0) fds.push_back({config_.wake_fd, POLLIN, 0});
    const int ready = poll(fds.data(), fds.size(), poll_timeout());
    if (ready < 0 && errno != EINTR) {
      throw InputError("cannot wait for input: " + std::string(strerror(errno)));
    }
    if (ready > 0) {
      if (watcher_ && fds[0].revents) {
        for (const detail::WatchEvent& event : watcher_->read_events()) {
          if (cancelled()) break;
          handle(event);
        }
        for (const ReadProblem& found : watcher_->take_problems()) problem(found);
      }
      if (stdin_slot >= 0 && fds[stdin_slot].revents) read_stdin();
    }
    if (!pending_.empty() &&
        Clock::now() - last_commit_ >=
            std::chrono::duration_cast<Clock::duration>(config_.commit_interval)) {
      commit();
    }
  }
}

void LiveIndex::read_stdin() {
  char buffer[64 * 1024];
  const ssize_t count = ::read(config_.stdin_fd, buffer, sizeof buffer);
  if (count < 0) {
    if (errno == EINTR || errno == EAGAIN) return;
    ReadProblem failed;
    failed.where.path = "stdin";
    failed.reason = "cannot read: " + std::string(strerror(errno));
    failed.skipped = true;
    LiveSink(*this, kStdinOrigin).on_problem(failed);
  }
  LiveSink sink(*this, kStdinOrigin);
  if (count <= 0) {
    stdin_->finish(sink);
    stdin_.reset();
    return;
  }
  stdin_->feed(std::string_view(buffer, static_cast<std::size_t>(count)), sink);
}

void LiveIndex::handle(const detail::WatchEvent& event) {
  using Kind = detail::WatchEvent::Kind;
  if (event.kind == Kind::kOverflow) {
    for (const Folder& folder : folders_) rescan(folder);
    for (const TextFile& file : text_files_) {
      LiveSink sink(*this, file.origin);
      if (fs::exists(file.path)) read_articles(file.path, sink);
    }
    for (Followed& followed : followed_) {
      LiveSink sink(*this, followed.origin);
      followed.follower->read(sink);
    }
    return;
  }
  for (const Folder& folder : folders_) {
    const fs::path relative = event.path.lexically_relative(folder.path);
    if (relative.empty() || *relative.begin() == "..") continue;
    handle_in_folder(folder, event);
  }
  for (const TextFile& file : text_files_) {
    if (event.path != file.path) continue;
    LiveSink sink(*this, file.origin);
    if (event.kind == Kind::kFileWritten) {
      std::error_code error;
      if (fs::is_regular_file(file.path, error)) read_articles(file.path, sink);
    } else if (event.kind == Kind::kFileGone) {
      remove(detail::text_article_id(file.path.filename()));
    }
  }
  for (Followed& followed : followed_) {
    if (event.path != followed.follower->path()) continue;
    LiveSink sink(*this, followed.origin);
    followed.follower->read(sink);
  }
}

void LiveIndex::handle_in_folder(const Folder& folder, const detail::WatchEvent& event) {
  using Kind = detail::WatchEvent::Kind;
  const fs::path relative = event.path.lexically_relative(folder.path);
  LiveSink sink(*this, folder.origin);
  switch (event.kind) {
    case Kind::kFileWritten:
      detail::read_folder_file(folder.path, relative, sink);
      break;
    case Kind::kFileGone:
      if (detail::is_text_article(relative)) remove(detail::text_article_id(relative));
      break;
    case Kind::kFolderAdded:
      detail::read_folder_files(folder.path, relative, sink);
      break;
    case Kind::kFolderGone:
      // Its files were deleted one by one, or moved away with it, unseen:
      // the folder is read again to find which articles have gone.
      rescan(folder);
      break;
    case Kind::kFileChanged:
    case Kind::kOverflow:
      break;
  }
}

// As a run reads a folder: its articles not met again are deleted, unless
// something in it could not be read.
void LiveIndex::rescan(const Folder& folder) {
  detail::IndexWriterAccess::forget_upserted(*writer_);
  LiveSink sink(*this, folder.origin);
  std::vector<fs::path> scope;
  for (const Folder& each : folders_) scope.push_back(each.path);
  try {
    read_articles(folder.path, sink, scope);
  } catch (const InputError& error) {
    ReadProblem failed;
    failed.reason = error.what();
    failed.skipped = true;
    sink.on_problem(failed);
    return;
  }
  if (!sink.read_whole() || cancelled()) return;
  for (const std::string& id : detail::IndexWriterAccess::delete_unseen(*writer_, folder.origin)) {
    ++report_.deleted;
    pending_.deleted(id);
  }
}

void LiveIndex::commit() {
  // The interval runs from one commit's start to the next's: an article
  // that arrives while a commit is written waits for that commit to end and
  // for the interval's rest, not a whole interval more.
  last_commit_ = Clock::now();
  const double seconds = std::chrono::duration<double>(last_commit_ - start_).count();
  const LiveCommit pending = pending_.take(++commits_, seconds);
  if (observer_) observer_->before_commit(*writer_, pending);
  writer_->commit();
  if (observer_) observer_->on_commit(pending);
}

}  // namespace

IndexReport run_live_index(const LiveConfig& config, LiveObserver* observer) {
  return LiveIndex(config, observer).run();
}

}  // namespace quarry
