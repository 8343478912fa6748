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
#include "lib/index/live_inputs.h"
#include "lib/index/parallel_build.h"
#include "lib/input/input_size.h"
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

class LiveIndex : public detail::LiveFeed {
 public:
  LiveIndex(const LiveConfig& config, LiveObserver* observer)
      : config_(config), observer_(observer), start_(Clock::now()) {
    config_.index = detail::with_plain_db_path(config.index);
    // What is watched is read once closed, and followed where it goes.
    config_.index.follow_changes = config.watch && !config.paths.empty();
  }
  // The writer goes first: let go with changes pending (the run ended by
  // an error), it commits them, and note_commit() reads the members below.
  ~LiveIndex() override { writer_.reset(); }

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
    detail::IndexWriterAccess::before_each_commit(*writer_, [this] { note_commit(); });
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

  void take(Article&& article, const std::string& origin) override {
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
    commit_before_the_writer();
  }
  void problem(const ReadProblem& problem) override {
    if (problem.skipped) {
      ++report_.skipped;
      pending_.skipped();
    } else {
      ++report_.repaired;
    }
    if (observer_) observer_->on_problem(problem);
  }
  void notice(const ReadProblem& notice) override {
    if (observer_) observer_->on_problem(notice);
  }
  bool cancelled() const override {
    return config_.index.cancel && config_.index.cancel->load(std::memory_order_relaxed);
  }
  void remove(const std::string& id) override {
    if (!writer_->remove(id)) return;
    ++report_.deleted;
    pending_.deleted(id);
    commit_before_the_writer();
  }
  void begin_sweep() override { detail::IndexWriterAccess::forget_upserted(*writer_); }
  void delete_unseen(const std::string& origin) override {
    for (const std::string& id : detail::IndexWriterAccess::delete_unseen(*writer_, origin)) {
      ++report_.deleted;
      pending_.deleted(id);
    }
  }

 private:
  void watch();
  void loop();
  void read_stdin();
  void commit();
  void note_commit();
  void commit_before_the_writer();
  int poll_timeout() const;
  IndexReport finish() {
    report_.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    if (cancelled()) report_.cancelled = true;
    return report_;
  }
  LiveConfig config_;
  LiveObserver* observer_;
  Clock::time_point start_;
  IndexReport report_;
  std::optional<IndexWriter> writer_;
  std::unique_ptr<detail::LiveInputs> inputs_;
  std::optional<detail::JsonlStream> stdin_;
  PendingCommit pending_;
  // The changes of the commit being written, and whether the observer
  // has noted them in it.
  std::optional<LiveCommit> committing_;
  bool noted_ = false;
  std::size_t commits_ = 0;
  Clock::time_point last_commit_;
  Clock::time_point next_recheck_;
};

void LiveIndex::watch() {
  if (config_.read_stdin) stdin_.emplace("stdin");
  if (config_.paths.empty() || !config_.watch) return;
  inputs_ = std::make_unique<detail::LiveInputs>(*this, config_.paths);
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
  if (inputs_ && inputs_->awaiting()) {
    const int recheck = static_cast<int>(detail::kAwaitedRecheck.count());
    timeout = timeout < 0 ? recheck : std::min(timeout, recheck);
  }
  return timeout;
}

void LiveIndex::loop() {
  last_commit_ =
      Clock::now() - std::chrono::duration_cast<Clock::duration>(config_.commit_interval);
  for (;;) {
    if (cancelled()) return;
    if (!inputs_ && !stdin_) return;
    std::vector<pollfd> fds;
    if (inputs_) fds.push_back({inputs_->fd(), POLLIN, 0});
    const int stdin_slot = stdin_ ? static_cast<int>(fds.size()) : -1;
    if (stdin_) fds.push_back({config_.stdin_fd, POLLIN, 0});
    if (config_.wake_fd >= 0) fds.push_back({config_.wake_fd, POLLIN, 0});
    const int ready = poll(fds.data(), fds.size(), poll_timeout());
    if (ready < 0 && errno != EINTR) {
      throw InputError("cannot wait for input: " + std::string(strerror(errno)));
    }
    if (ready > 0) {
      if (inputs_ && fds[0].revents) inputs_->read_changes();
      if (stdin_slot >= 0 && fds[stdin_slot].revents) read_stdin();
    }
    if (inputs_ && inputs_->awaiting() && Clock::now() >= next_recheck_) {
      next_recheck_ = Clock::now() + detail::kAwaitedRecheck;
      inputs_->read_awaited();
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
    detail::LiveSink(*this, kStdinOrigin).on_problem(failed);
  }
  detail::LiveSink sink(*this, kStdinOrigin);
  if (count <= 0) {
    stdin_->finish(sink);
    stdin_.reset();
    return;
  }
  stdin_->feed(std::string_view(buffer, static_cast<std::size_t>(count)), sink);
}

void LiveIndex::commit() {
  // The interval runs from one commit's start to the next's: an article
  // that arrives while a commit is written waits for that commit to end and
  // for the interval's rest, not a whole interval more.
  last_commit_ = Clock::now();
  const double seconds = std::chrono::duration<double>(last_commit_ - start_).count();
  committing_ = pending_.take(++commits_, seconds);
  noted_ = false;
  writer_->commit();
  const LiveCommit committed = std::move(*committing_);
  committing_.reset();
  if (observer_) observer_->on_commit(committed);
}

// Called by the writer as each commit begins, so that the observer's note
// of the changes (the articles to alert on) goes in the transaction that
// makes them durable, whoever commits: commit(), or the writer itself as
// it is let go when the run ends by an error, with what was pending.
void LiveIndex::note_commit() {
  if (!committing_) {
    if (pending_.empty()) return;
    const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    committing_ = pending_.take(++commits_, seconds);
    noted_ = false;
  }
  if (noted_ || !observer_) return;
  noted_ = true;
  observer_->before_commit(*writer_, *committing_);
}

// The writer commits by itself once it holds many changes, which the
// loop's commit would then find durable already, without its note: a burst
// between two commits (a long interval, a fast feed) is committed here
// first, as one commit of the loop's.
void LiveIndex::commit_before_the_writer() {
  if (detail::IndexWriterAccess::changes_before_own_commit(*writer_) <= 1) commit();
}

}  // namespace

IndexReport run_live_index(const LiveConfig& config, LiveObserver* observer) {
  return LiveIndex(config, observer).run();
}

}  // namespace quarry
