// Where a run's readers put what they find: the index itself or the
// writers of a parallel build (a Destination), through a sink that keeps
// the run's tallies and tells a repeated id; and the pass over the paths
// given.
#ifndef QUARRY_LIB_INDEX_INDEXING_SINK_H_
#define QUARRY_LIB_INDEX_INDEXING_SINK_H_

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lib/index/index_writer_access.h"
#include "lib/index/parallel_build.h"
#include "lib/index/reported_problems.h"
#include "quarry/index/index_writer.h"
#include "quarry/input/article_reader.h"

namespace quarry::detail {

// Where the articles a reader finds go: the index itself, or the writers of
// a parallel build.
class Destination {
 public:
  virtual ~Destination() = default;
  virtual Upsert put(Article&& article, const std::string& origin) = 0;
  // Makes what was put durable when the destination commits as it goes.
  virtual void checkpoint() {}
  // Whether articles are put into an index that existed before the run,
  // whose observers are told each one (IndexObserver::on_upserted).
  virtual bool in_place() const { return false; }
};

// An index updated in place, article by article, one database or a shard
// set.
class WriterDestination : public Destination {
 public:
  explicit WriterDestination(IndexWriter& writer) : writer_(writer) {}
  Upsert put(Article&& article, const std::string& origin) override {
    return writer_.upsert(article, origin);
  }
  void checkpoint() override { detail::IndexWriterAccess::checkpoint(writer_); }
  bool in_place() const override { return true; }

 private:
  IndexWriter& writer_;
};

class BuildDestination : public Destination {
 public:
  explicit BuildDestination(detail::ParallelBuild& build) : build_(build) {}
  Upsert put(Article&& article, const std::string& origin) override {
    build_.add(std::move(article), origin);
    return Upsert::kAdded;
  }

 private:
  detail::ParallelBuild& build_;
};

// Feeds what one path's reader finds into the destination, keeping the
// tallies.
class IndexingSink : public ArticleSink {
 public:
  IndexingSink(Destination& destination, const IndexConfig& config, IndexReport& report,
               IndexObserver* observer, detail::ReportedProblems& reported)
      : destination_(destination),
        config_(config),
        report_(report),
        observer_(observer),
        reported_(reported) {}

  void set_origin(std::string origin) {
    origin_ = std::move(origin);
    read_whole_ = true;
  }

  // Frees the ids kept to tell repeated ones, once every path is read.
  void forget_ids() {
    first_seen_ = {};
    seen_paths_ = {};
  }

  // Whether the origin set last was read without skipping anything: only
  // then is an article of it that was not met gone.
  bool read_whole() const { return read_whole_; }

  void on_article(Article&& article, const SourceLocation& where) override {
    ++articles_;
    report_.bytes_read += article.id.size() + article.title.size() + article.body.size() +
                          article.date.size() + article.category.size() + article.source.size();
    // The first article of an id is kept, as the index keeps what it has:
    // taking a later one would rewrite the article on every run.
    if (auto [first, inserted] = first_seen_.try_emplace(article.id, seen_at(where)); !inserted) {
      skip_duplicate(article.id, {seen_paths_[first->second.path], first->second.line}, where);
      return;
    }
    const bool told = observer_ && destination_.in_place();
    const std::string id = told ? article.id : std::string();
    const Upsert done = destination_.put(std::move(article), origin_);
    if (told) observer_->on_upserted(id, done);
    switch (done) {
      case Upsert::kAdded:
        ++report_.added;
        ++pending_;
        break;
      case Upsert::kUpdated:
        ++report_.updated;
        ++pending_;
        break;
      case Upsert::kUnchanged:
        ++report_.unchanged;
        break;
    }
    if (pending_ >= config_.commit_every) {
      destination_.checkpoint();
      pending_ = 0;
    }
    if (observer_ && report_.seen() % kProgressEvery == 0) observer_->on_progress(report_);
  }

  void on_problem(const ReadProblem& problem) override {
    ++problems_;
    if (problem.skipped && !problem.read_whole) read_whole_ = false;
    ++(problem.skipped ? report_.skipped : report_.repaired);
    if (reported_.note(origin_, problem)) {
      ++(problem.skipped ? report_.skipped_as_before : report_.repaired_as_before);
    } else if (observer_) {
      observer_->on_problem(problem);
    }
  }

  void on_other_file(const std::filesystem::path& path) override {
    ++report_.other_files[path.extension().string()];
  }
  bool follows_changes() const override { return config_.follow_changes; }
  void on_passed_over(const SourceLocation& /*where*/) override { read_whole_ = false; }

  // Articles and problems met since the last call.
  std::size_t take_found() { return std::exchange(articles_, 0) + std::exchange(problems_, 0); }

  bool should_stop() const override {
    return config_.cancel && config_.cancel->load(std::memory_order_relaxed);
  }

 private:
  static constexpr std::size_t kProgressEvery = 1000;

  // The id was met: the input was still read whole. Built field by field,
  // as the readers' problems are: GCC 12 warns of uninitialized strings in
  // a braced temporary ReadProblem at -O3.
  void skip_duplicate(const std::string& id, const SourceLocation& first,
                      const SourceLocation& where) {
    ReadProblem problem;
    problem.where = where;
    problem.reason = "duplicate id '" + id + "', first at " + first.to_string();
    problem.skipped = true;
    problem.read_whole = true;
    on_problem(problem);
  }

  // Every id read is kept to tell a repeated one: a million of them, each
  // with its file's path, took a sixth of a gigabyte; each path is kept
  // once.
  struct FirstSeen {
    std::uint32_t path;  // in seen_paths_
    std::size_t line;
  };
  FirstSeen seen_at(const SourceLocation& where) {
    if (seen_paths_.empty() || seen_paths_.back() != where.path) {
      seen_paths_.push_back(where.path);
    }
    return {static_cast<std::uint32_t>(seen_paths_.size() - 1), where.line};
  }

  Destination& destination_;
  const IndexConfig& config_;
  IndexReport& report_;
  IndexObserver* observer_;
  detail::ReportedProblems& reported_;
  std::string origin_;
  bool read_whole_ = true;
  std::size_t pending_ = 0;
  std::size_t articles_ = 0;
  std::size_t problems_ = 0;
  std::unordered_map<std::string, FirstSeen> first_seen_;
  std::vector<std::string> seen_paths_;
};

// Reads every path into the sink; `after_origin` runs after each pass over
// one that was not cancelled, even one that skipped something. Returns
// false when cancelled.
bool read_paths(const std::vector<std::string>& paths, IndexingSink& sink,
                const std::function<void(const std::string& origin)>& after_origin);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_INDEXING_SINK_H_
