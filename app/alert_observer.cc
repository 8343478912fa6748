#include "app/alert_observer.h"

#include <sys/stat.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "app/saved_searches.h"
#include "quarry/error.h"

namespace quarry {
namespace {

using Json = nlohmann::json;

// The index's note of the batches whose alerts may not be in the log yet.
constexpr char kPendingNote[] = "quarry.alerts.pending";

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
    : index_path_(std::move(index_path)), next_(next), err_(err), log_(index_path_) {}

AlertObserver::~AlertObserver() = default;

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

void AlertObserver::after_initial_run(IndexWriter& writer) {
  if (next_) next_->after_initial_run(writer);
  read_note(writer);
  if (!initial_.empty()) {
    // Noted and committed before they are matched, as a live commit's are.
    batches_.push_back({next_number_++, std::move(initial_)});
    initial_.clear();
    write_note(writer);
    writer.commit();
  }
  deliver();
}

void AlertObserver::before_commit(IndexWriter& writer, const LiveCommit& pending) {
  if (next_) next_->before_commit(writer, pending);
  read_note(writer);
  if (!pending.upserted_ids.empty()) batches_.push_back({next_number_++, pending.upserted_ids});
  write_note(writer);
}

void AlertObserver::on_commit(const LiveCommit& committed) {
  if (next_) next_->on_commit(committed);
  deliver();
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
  std::vector<SavedSearch> searches;
  try {
    for (const SavedSearchEntry& entry : file.read()) searches.push_back(saved_search_of(entry));
  } catch (const Error& error) {
    err_ << "alerts: " << error.what() << '\n';
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
        err_ << "alerts: " << error.what() << '\n';
      }
    }
    matcher_->set_searches(std::move(readable));
  }
  return true;
}

void AlertObserver::deliver() {
  if (batches_.empty() || batches_.back().number <= delivered_through_) return;
  const std::uint64_t in_log = log_.last_revision();
  const bool searching = refresh_searches();
  for (const Batch& batch : batches_) {
    if (batch.number <= std::max(in_log, delivered_through_)) continue;
    if (!searching) continue;
    std::vector<Alert> alerts;
    for (SavedSearchMatch& match : matcher_->match(batch.ids)) {
      alerts.push_back({0, std::move(match.search), std::move(match.id), std::move(match.title),
                        std::move(match.date), std::move(match.snippet), std::move(match.language),
                        batch.number});
    }
    // One write a batch: the log holds all of a batch's alerts or none.
    if (!alerts.empty()) log_.append(std::move(alerts));
  }
  delivered_through_ = batches_.back().number;
}

}  // namespace quarry
