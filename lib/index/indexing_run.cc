// One run of index_paths: reading the inputs, and writing what they hold in
// whichever of three ways suits the index the run finds (see Strategy).
#include "lib/index/indexing_run.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <utility>
#include <vector>

#include "lib/index/database_writer.h"
#include "lib/index/index_error.h"
#include "lib/index/index_folder.h"
#include "lib/index/index_lock.h"
#include "lib/index/index_writer_access.h"
#include "lib/index/indexing_sink.h"
#include "lib/index/parallel_build.h"
#include "lib/index/reported_problems.h"
#include "lib/index/schema.h"
#include "lib/input/input_size.h"
#include "quarry/error.h"
#include "quarry/index/index_writer.h"
#include "quarry/thread_count.h"

namespace quarry {
namespace {

using detail::BuildDestination;
using detail::IndexingSink;
using detail::read_paths;
using detail::WriterDestination;

// What one run is asked to do, and what it reports.
struct Run {
  const IndexConfig& config;
  const std::vector<std::string>& paths;
  const std::vector<std::vector<std::string>>& synonyms;
  IndexReport& report;
  IndexObserver* observer;

  // Tells the observer that `step` begins.
  void begin(IndexStep step) const {
    report.step = step;
    if (observer) observer->on_progress(report);
  }

  // Tells the observer how linking goes.
  std::function<void(std::size_t, std::size_t)> link_progress() const {
    return [this](std::size_t linked, std::size_t total) {
      report.linked = linked;
      report.to_link = total;
      if (observer) observer->on_progress(report);
    };
  }
};

// Reads the run's paths into an existing index, or a shard set new or
// not, replacing its synonyms when a list was given. The stories of what
// the run added or changed are linked at its end, by the final commit.
void update_in_place(const Run& run) {
  IndexWriter writer = detail::IndexWriterAccess::open_locked(run.config);
  if (!run.config.synonyms_file.empty()) {
    run.report.synonym_groups = writer.replace_synonyms(run.synonyms);
  }
  if (run.observer) {
    detail::IndexWriterAccess::before_each_commit(
        writer, [&writer, observer = run.observer] { observer->before_run_commit(writer); });
  }
  WriterDestination destination(writer);
  detail::ReportedProblems reported(
      detail::IndexWriterAccess::metadata(writer, detail::kReportedProblemsKey));
  IndexingSink sink(destination, run.config, run.report, run.observer, reported);
  // Only a complete pass over an origin knows which of its articles are
  // gone; an interrupted one deletes nothing, nor does one that skipped
  // something (a file cut short, corrupt or unreadable, a bad line): what
  // it could not read may hold the articles it did not meet.
  run.report.cancelled = !read_paths(run.paths, sink, [&](const std::string& origin) {
    if (sink.read_whole()) {
      run.report.deleted += writer.delete_unseen(origin);
    } else if (std::size_t kept = writer.count_unseen(origin); kept > 0) {
      run.report.kept[origin] += kept;
    }
    reported.origin_read(origin);
  });
  detail::IndexWriterAccess::set_metadata(writer, detail::kReportedProblemsKey,
                                          reported.to_stored());
  run.begin(IndexStep::kCommitting);
  detail::IndexWriterAccess::checkpoint(writer);
  run.begin(IndexStep::kLinkingStories);
  detail::IndexWriterAccess::on_link_progress(writer, run.link_progress());
  writer.commit();
  run.report.languages = writer.language_counts();
  // A cancelled commit leaves its stories to the next run.
  if (run.config.cancel && run.config.cancel->load()) run.report.cancelled = true;
}

// Every core writes a part of the new index, merged when all is read. Only
// a complete merge creates the index; a killed build is adopted by the next
// run (see choose_strategy), which then adds what is missing.
void build_in_parallel(const Run& run) {
  const IndexConfig& config = run.config;
  detail::ParallelBuild build(config.db_path, detail::new_index_language(config.language),
                              thread_count(config.threads), config.commit_every);
  BuildDestination destination(build);
  detail::ReportedProblems reported("");
  IndexingSink sink(destination, config, run.report, run.observer, reported);
  run.report.cancelled = !read_paths(run.paths, sink, [](const std::string&) {});
  sink.forget_ids();  // linking the stories needs the room
  // Publishing links the stories of the whole new index. A build
  // cancelled while reading publishes what it read, stories and all; one
  // cancelled while linking stops there, leaving its parts for the next
  // run to adopt.
  const detail::LinkControl control{run.report.cancelled ? nullptr : config.cancel,
                                    run.link_progress()};
  const bool published = build.publish([&](IndexStep step) { run.begin(step); }, control);
  run.report.languages = build.language_counts();
  if (!published) {
    run.report.cancelled = true;
    return;
  }
  const std::string problems = reported.to_stored();
  if (!run.synonyms.empty() || !problems.empty()) {
    detail::DatabaseWriter writer(config);
    if (!run.synonyms.empty()) run.report.synonym_groups = writer.replace_synonyms(run.synonyms);
    try {
      writer.database().set_metadata(detail::kReportedProblemsKey, problems);
    } catch (const Xapian::Error& error) {
      throw detail::index_error("index " + config.db_path, error);
    }
    writer.commit();
  }
}

// How a run writes.
enum class Strategy {
  kUpdateInPlace,    // an existing single database, or a shard set, article by article
  kBuildInParallel,  // a new single database, on every core
  kNone,             // cancelled while adopting what a killed build had committed
};

// Called with the index locked. A shard set is never built beside and
// merged: it is updated in place even when new. Before the other two are
// told apart, what a killed first build had committed is merged into
// place, after which the index exists and this run updates it.
Strategy choose_strategy(const IndexConfig& config) {
  if (detail::is_shard_set_config(config)) return Strategy::kUpdateInPlace;
  if (!detail::adopt_interrupted_build(config.db_path, config.cancel)) return Strategy::kNone;
  return detail::index_absent(config.db_path) ? Strategy::kBuildInParallel
                                              : Strategy::kUpdateInPlace;
}

// A new index of folders that hold no article would be an empty index, left
// where the next quarry would take it for one: the folders are refused
// instead, before anything is written.
void refuse_nothing_to_build(const IndexConfig& config, const std::vector<std::string>& paths) {
  if (!detail::index_absent(config.db_path)) return;
  std::string empty;
  for (const std::string& path : paths) {
    if (detail::holds_article_file(path)) return;
    empty += (empty.empty() ? "" : ", ") + path;
  }
  if (empty.empty()) return;
  throw InputError("nothing to index in " + empty +
                   ": no .txt, .jsonl or .jsonl.gz file; no index was made at " + config.db_path);
}

}  // namespace

namespace detail {

std::vector<std::vector<std::string>> prepare_run(const IndexConfig& config,
                                                  const std::vector<std::string>& paths,
                                                  bool refuse_empty) {
  // Read before the index is touched, so that a bad file changes nothing.
  std::vector<std::vector<std::string>> synonyms;
  if (!config.synonyms_file.empty()) synonyms = read_synonyms(config.synonyms_file);
  // An unknown language must fail before anything is created.
  if (!config.language.empty()) check_index_language(config.language);
  for (const std::string& path : paths) {
    if (std::string problem = unreadable_root(path); !problem.empty()) {
      throw InputError(path + ": " + problem);
    }
  }
  check_index_folder(config.db_path);
  if (refuse_empty) refuse_nothing_to_build(config, paths);
  return synonyms;
}

IndexReport run_locked(const IndexConfig& config, const std::vector<std::string>& paths,
                       const std::vector<std::vector<std::string>>& synonyms,
                       IndexObserver* observer) {
  const auto start = std::chrono::steady_clock::now();
  IndexReport report;
  report.input_bytes = estimated_input_bytes(paths);

  const Run run{config, paths, synonyms, report, observer};
  switch (choose_strategy(config)) {
    case Strategy::kUpdateInPlace:
      update_in_place(run);
      break;
    case Strategy::kBuildInParallel:
      build_in_parallel(run);
      break;
    case Strategy::kNone:
      report.cancelled = true;
      break;
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (observer) observer->on_progress(report);
  return report;
}

}  // namespace detail

IndexReport index_paths(const IndexConfig& given, const std::vector<std::string>& paths,
                        IndexObserver* observer) {
  const IndexConfig config = detail::with_plain_db_path(given);
  const auto start = std::chrono::steady_clock::now();
  const std::vector<std::vector<std::string>> synonyms = detail::prepare_run(config, paths, true);
  const detail::IndexLock lock(config.db_path, config.lock_wait, config.cancel);
  IndexReport report = detail::run_locked(config, paths, synonyms, observer);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace quarry
