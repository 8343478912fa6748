#include "app/indexing/alert_observer.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <nlohmann/json.hpp>
#include <utility>

#include "app/common/saved_searches.h"
#include "quarry/error.h"

namespace quarry {
namespace {

using Json = nlohmann::json;

// How much lower than the live index's the matching thread's priority
// is (nice values).
constexpr int kMatchingNiceness = 5;

// The index's note of the batches whose alerts may not be in the log yet.
constexpr char kPendingNote[] = "quarry.alerts.pending";

// How long matching waits to try again after failing, doubled at each
// failure up to the longest: a full disk may take an operator minutes to
// clear, and trying costs little.
constexpr std::chrono::seconds kFirstRetryWait{1};
constexpr std::chrono::seconds kLongestRetryWait{60};

using Clock = std::chrono::steady_clock;

// What tells one state of the saved searches' file from another: a write
// replaces the file (saved_searches.cc), so its inode changes.
std::string stamp_of(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) return "";
  return std::to_string(status.st_ino) + ':' + std::to_string(status.st_size) + ':' +
         std::to_string(status.st_mtim.tv_sec) + '.' + std::to_string(status.st_mtim.tv_nsec);
}

}  // namespace

AlertObserver::AlertObserver(std::string index_path, LiveObserver* next, std::ostream& err)
    : retry_wait_(kFirstRetryWait),
      index_path_(std::move(index_path)),
      next_(next),
      err_(err),
      log_(index_path_) {}

AlertObserver::~AlertObserver() { stop(); }

void AlertObserver::wait_until_matched() {
  {
    std::unique_lock lock(mutex_);
    wake_.wait(lock, [&] {
      return failing_ || delivered_through_ >= committed_through_ || !matching_.joinable();
    });
  }
  report_matching();
}

void AlertObserver::finish() {
  stop();
  report_matching();
}

void AlertObserver::on_problem(const ReadProblem& problem) {
  if (next_) next_->on_problem(problem);
}

void AlertObserver::on_progress(const IndexReport& so_far) {
  if (next_) next_->on_progress(so_far);
}

void AlertObserver::on_upserted(const std::string& id, Upsert done) {
  if (done != Upsert::kUnchanged) initial_.push_back(id);
  if (next_) next_->on_upserted(id, done);
}

void AlertObserver::on_ready(const IndexReport& initial) {
  if (next_) next_->on_ready(initial);
}

void AlertObserver::before_run_commit(IndexWriter& writer) {
  if (next_) next_->before_run_commit(writer);
  const std::lock_guard lock(mutex_);
  read_note(writer);
  if (initial_.empty()) return;
  // Noted in the commit that makes them durable, as a live commit's are:
  // a kill after it finds them noted.
  batches_.push_back({next_number_++, std::move(initial_)});
  initial_.clear();
  write_note(writer);
}

void AlertObserver::after_initial_run(IndexWriter& writer) {
  if (next_) next_->after_initial_run(writer);
  {
    const std::lock_guard lock(mutex_);
    read_note(writer);
    committed();
  }
  matching_ = std::thread([this] { match_committed(); });
}

void AlertObserver::before_commit(IndexWriter& writer, const LiveCommit& pending) {
  if (next_) next_->before_commit(writer, pending);
  report_matching();
  const std::lock_guard lock(mutex_);
  read_note(writer);
  if (!pending.upserted_ids.empty()) batches_.push_back({next_number_++, pending.upserted_ids});
  write_note(writer);
}

void AlertObserver::on_commit(const LiveCommit& committed) {
  if (next_) next_->on_commit(committed);
  const std::lock_guard lock(mutex_);
  this->committed();
}

void AlertObserver::committed() {
  committed_through_ = next_number_ - 1;
  wake_.notify_all();
}

void AlertObserver::report_matching() {
  std::vector<std::string> said;
  {
    const std::lock_guard lock(mutex_);
    said.swap(said_);
  }
  for (const std::string& line : said) err_ << "alerts: " << line << '\n';
}

void AlertObserver::failed(const std::string& why) {
  if (!failing_) {
    said_.push_back(why + "; the alerts wait, noted in the index, and are tried again");
  }
  failing_ = true;
  retry_at_ = Clock::now() + retry_wait_;
  retry_wait_ = std::min<Clock::duration>(retry_wait_ * 2, kLongestRetryWait);
}

void AlertObserver::stop() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
    wake_.notify_all();
  }
  if (matching_.joinable()) matching_.join();
}

void AlertObserver::match_committed() {
  // Below the commits and the searches beside them on the same cores:
  // alerts may wait a moment, an article waiting to be searchable or a
  // reader waiting for an answer should not. On Linux each thread has a
  // nice value of its own; failing to lower it changes nothing else.
  const auto thread = static_cast<id_t>(gettid());
  errno = 0;
  const int nice = getpriority(PRIO_PROCESS, thread);
  if (errno == 0) setpriority(PRIO_PROCESS, thread, std::min(nice + kMatchingNiceness, 19));
  try {
    // Read before the first commit, which would otherwise wait for them.
    refresh_searches();
  } catch (const std::exception& error) {
    // The first batch reads them again.
    const std::lock_guard lock(mutex_);
    failed(error.what());
    retry_at_ = Clock::now();
  }
  std::unique_lock lock(mutex_);
  for (;;) {
    // Until a batch is committed and no failure makes matching wait, or
    // until told to stop, which is worth one more try at once.
    while (!stopping_ && (committed_through_ <= delivered_through_ || Clock::now() < retry_at_)) {
      if (committed_through_ <= delivered_through_) {
        wake_.wait(lock);
      } else {
        wake_.wait_until(lock, retry_at_);
      }
    }
    if (committed_through_ <= delivered_through_) return;  // stopping, and all matched
    const bool last_try = stopping_;
    // The batches committed and not delivered, matched without the lock
    // while the next commit is read and written: however many committed
    // while the last were matched.
    const std::uint64_t through = committed_through_;
    std::vector<Batch> batches;
    for (const Batch& batch : batches_) {
      if (batch.number > delivered_through_ && batch.number <= through) batches.push_back(batch);
    }
    lock.unlock();
    std::string failure;
    try {
      deliver(batches);
    } catch (const std::exception& error) {
      failure = error.what();
    }
    lock.lock();
    if (failure.empty()) {
      delivered_through_ = through;
      if (failing_) said_.push_back("the alerts that waited are delivered");
      failing_ = false;
      retry_wait_ = kFirstRetryWait;
    } else {
      // These batches stay noted: tried again later, or by the next start.
      failed(failure);
      if (last_try) {
        said_.push_back("the alerts of " + std::to_string(through - delivered_through_) +
                        " commits are not delivered; noted in the index, they are when it is "
                        "next indexed live");
      }
    }
    wake_.notify_all();
    if (last_try) return;
  }
}

void AlertObserver::read_note(const IndexWriter& writer) {
  if (note_read_) return;
  note_read_ = true;
  const std::string note = writer.note(kPendingNote);
  if (note.empty()) return;
  try {
    const Json json = Json::parse(note);
    next_number_ = json.at("next").get<std::uint64_t>();
    for (const Json& batch : json.at("batches")) {
      batches_.push_back({batch.at("number").get<std::uint64_t>(),
                          batch.at("ids").get<std::vector<std::string>>()});
    }
  } catch (const Json::exception& error) {
    throw IndexError("the index's note of articles to alert on cannot be read (" +
                     std::string(error.what()) + ")");
  }
}

void AlertObserver::write_note(IndexWriter& writer) {
  // Those whose alerts are in the log need no note any more.
  std::erase_if(batches_, [&](const Batch& batch) { return batch.number <= delivered_through_; });
  Json batches = Json::array();
  for (const Batch& batch : batches_)
    batches.push_back({{"number", batch.number}, {"ids", batch.ids}});
  writer.set_note(kPendingNote, Json{{"next", next_number_}, {"batches", batches}}.dump());
}

bool AlertObserver::refresh_searches() {
  const SavedSearchFile file(index_path_);
  const std::string stamp = stamp_of(file.path());
  if (stamp == searches_stamp_) return matcher_ != nullptr;
  searches_stamp_ = stamp;
  matcher_.reset();
  const auto say = [&](const std::string& line) {
    const std::lock_guard lock(mutex_);
    said_.push_back(line);
  };
  std::vector<SavedSearch> searches;
  try {
    for (const SavedSearchEntry& entry : file.read()) searches.push_back(saved_search_of(entry));
  } catch (const Error& error) {
    say(error.what());
    return false;
  }
  if (searches.empty()) return false;
  if (!searcher_) searcher_.emplace(index_path_);
  matcher_ = std::make_unique<SavedSearchMatcher>(*searcher_);
  try {
    matcher_->set_searches(searches);
  } catch (const QueryError&) {
    // One search the index can no longer read leaves out that one alone.
    std::vector<SavedSearch> readable;
    for (SavedSearch& search : searches) {
      try {
        matcher_->set_searches({search});
        readable.push_back(std::move(search));
      } catch (const QueryError& error) {
        say(error.what());
      }
    }
    matcher_->set_searches(std::move(readable));
  }
  return true;
}

void AlertObserver::deliver(const std::vector<Batch>& batches) {
  if (batches.empty()) return;
  const std::uint64_t in_log = log_.last_revision();
  if (!refresh_searches()) return;
  for (const Batch& batch : batches) {
    if (batch.number <= in_log) continue;
    std::vector<Alert> alerts;
    for (SavedSearchMatch& match : matcher_->match(batch.ids)) {
      alerts.push_back({0, std::move(match.search), std::move(match.id), std::move(match.title),
                        std::move(match.date), std::move(match.snippet), std::move(match.language),
                        batch.number});
    }
    // One write a batch: the log holds all of a batch's alerts or none.
    if (!alerts.empty()) log_.append(std::move(alerts));
    // Told as each is delivered, so that the next commit's note drops it
    // though those after it fail.
    const std::lock_guard lock(mutex_);
    delivered_through_ = std::max(delivered_through_, batch.number);
  }
}

}  // namespace quarry
