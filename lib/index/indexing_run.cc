// One run of index_paths: reading the inputs, and writing what they hold in
// whichever of three ways suits the index the run finds (see Strategy).
#include <chrono>
#include <filesystem>
#include <fstream>
#include <unordered_map>
#include <utility>

#include "lib/index/index_lock.h"
#include "lib/index/parallel_build.h"
#include "lib/index/schema.h"
#include "lib/index/shard_set.h"
#include "lib/index/story_linker.h"
#include "lib/input/input_size.h"
#include "quarry/error.h"
#include "quarry/index/index_writer.h"
#include "quarry/thread_count.h"

namespace quarry {
namespace {

// Where the articles a reader finds go: the index itself, or the writers of
// a parallel build.
class Destination {
 public:
  virtual ~Destination() = default;
  virtual Upsert put(Article&& article, const std::string& origin, bool repeated) = 0;
  // Makes what was put durable when the destination commits as it goes.
  virtual void checkpoint() {}
};

// An index updated in place, article by article: one database
// (IndexWriter) or a shard set (detail::ShardSetWriter).
template <typename Writer>
class WriterDestination : public Destination {
 public:
  explicit WriterDestination(Writer& writer) : writer_(writer) {}
  Upsert put(Article&& article, const std::string& origin, bool) override {
    return writer_.upsert(article, origin);
  }
  void checkpoint() override { writer_.commit(); }

 private:
  Writer& writer_;
};

class BuildDestination : public Destination {
 public:
  explicit BuildDestination(detail::ParallelBuild& build) : build_(build) {}
  Upsert put(Article&& article, const std::string& origin, bool repeated) override {
    build_.add(std::move(article), origin, repeated);
    return repeated ? Upsert::kUpdated : Upsert::kAdded;
  }

 private:
  detail::ParallelBuild& build_;
};

// Feeds what one path's reader finds into the destination, keeping the
// tallies.
class IndexingSink : public ArticleSink {
 public:
  IndexingSink(Destination& destination, const IndexConfig& config, IndexReport& report,
               IndexObserver* observer, std::vector<std::string>& written)
      : destination_(destination),
        config_(config),
        report_(report),
        observer_(observer),
        written_(written) {}

  void set_origin(std::string origin) { origin_ = std::move(origin); }

  void on_article(Article&& article, const SourceLocation& where) override {
    ++articles_;
    if (!article.date.empty() && detail::sortable_date(article.date).empty()) {
      on_problem({where,
                  "date '" + article.date +
                      "' is not an ISO 8601 date (YYYY-MM-DD): the article is kept without it",
                  false});
      article.date.clear();
    }
    report_.bytes_read += article.id.size() + article.title.size() + article.body.size() +
                          article.date.size() + article.category.size() + article.source.size();
    auto [seen, inserted] = first_seen_.try_emplace(article.id, where);
    if (!inserted) {
      on_problem({where,
                  "duplicate id '" + article.id + "' (also at " + seen->second.to_string() +
                      "): this one is kept",
                  false});
      seen->second = where;
    }
    std::string id = article.id;
    switch (destination_.put(std::move(article), origin_, !inserted)) {
      case Upsert::kAdded:
        ++report_.added;
        ++pending_;
        written_.push_back(std::move(id));
        break;
      case Upsert::kUpdated:
        ++report_.updated;
        ++pending_;
        written_.push_back(std::move(id));
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
    ++(problem.skipped ? report_.skipped : report_.repaired);
    if (observer_) observer_->on_problem(problem);
  }

  void on_other_file(const std::filesystem::path& path) override {
    ++report_.other_files[path.extension().string()];
  }

  // Articles and problems met since the last call.
  std::size_t take_found() { return std::exchange(articles_, 0) + std::exchange(problems_, 0); }

  bool should_stop() const override {
    return config_.cancel && config_.cancel->load(std::memory_order_relaxed);
  }

 private:
  static constexpr std::size_t kProgressEvery = 1000;

  Destination& destination_;
  const IndexConfig& config_;
  IndexReport& report_;
  IndexObserver* observer_;
  std::vector<std::string>& written_;
  std::string origin_;
  std::size_t pending_ = 0;
  std::size_t articles_ = 0;
  std::size_t problems_ = 0;
  std::unordered_map<std::string, SourceLocation> first_seen_;
};

// Reads every path into the sink; `after_origin` runs after each complete
// pass over one. Returns false when cancelled.
template <typename AfterOrigin>
bool read_paths(const std::vector<std::string>& paths, IndexingSink& sink,
                AfterOrigin after_origin) {
  for (const std::string& path : paths) {
    // The paths were checked before the run; one may have gone since.
    if (std::string problem = unreadable_root(path); !problem.empty()) {
      sink.on_problem({{path, 0}, problem, true});
      continue;
    }
    std::error_code error;
    const std::string origin = std::filesystem::weakly_canonical(path, error).string();
    sink.set_origin(origin);
    sink.take_found();
    try {
      read_articles(path, sink);
    } catch (const InputError& input_error) {
      // Its message names the path already.
      sink.on_problem({{}, input_error.what(), true});
      continue;
    }
    if (sink.should_stop()) return false;
    if (sink.take_found() == 0 && std::filesystem::is_directory(path, error)) {
      sink.on_problem({{path, 0}, "no .txt, .jsonl or .jsonl.gz file in this folder", true});
    }
    after_origin(origin);
  }
  return true;
}

// What one run is asked to do, and what it reports.
struct Run {
  const IndexConfig& config;
  const std::vector<std::string>& paths;
  const std::vector<std::vector<std::string>>& synonyms;
  IndexReport& report;
  IndexObserver* observer;
  // The ids of the articles added or changed, whose stories are linked
  // once they are written.
  std::vector<std::string>& written;
};

// Reads the run's paths into an existing index through `writer`, replacing
// its synonyms when a list was given. Leaves the final commit to the caller.
template <typename Writer>
void update_in_place(Writer& writer, const Run& run) {
  if (!run.config.synonyms_file.empty()) {
    run.report.synonym_groups = writer.replace_synonyms(run.synonyms);
  }
  WriterDestination<Writer> destination(writer);
  IndexingSink sink(destination, run.config, run.report, run.observer, run.written);
  // Only a complete pass over an origin knows which of its articles are
  // gone; an interrupted one deletes nothing.
  run.report.cancelled = !read_paths(run.paths, sink, [&](const std::string& origin) {
    run.report.deleted += writer.delete_unseen(origin);
  });
}

void update_database(const Run& run) {
  {
    IndexWriter writer(run.config);
    update_in_place(writer, run);
    writer.commit();
  }
  detail::link_stories({run.config.db_path}, run.written);
}

std::vector<std::string> shard_paths(const std::string& folder) {
  std::vector<std::string> paths;
  std::error_code error;
  for (std::size_t i = 0;; ++i) {
    std::filesystem::path path = std::filesystem::path(folder) / detail::shard_name(i);
    if (!std::filesystem::exists(path, error)) return paths;
    paths.push_back(path.string());
  }
}

// Stories are linked over all the shards as one index, each article's
// keys written in its own shard.
void update_shard_set(const Run& run) {
  {
    detail::ShardSetWriter writer(run.config);
    update_in_place(writer, run);
    writer.finish();
  }
  detail::link_stories(shard_paths(run.config.db_path), run.written);
}

// Every core writes a part of the new index, merged when all is read. Only
// a complete merge creates the index; a killed build is adopted by the next
// run (see choose_strategy), which then adds what is missing.
void build_in_parallel(const Run& run) {
  const IndexConfig& config = run.config;
  detail::ParallelBuild build(config.db_path, detail::new_index_language(config.language),
                              thread_count(config.threads), config.commit_every);
  BuildDestination destination(build);
  IndexingSink sink(destination, config, run.report, run.observer, run.written);
  run.report.cancelled = !read_paths(run.paths, sink, [](const std::string&) {});
  // Publishing links the stories of the whole new index.
  build.publish();
  if (!run.synonyms.empty()) {
    IndexWriter writer(config);
    run.report.synonym_groups = writer.replace_synonyms(run.synonyms);
    writer.commit();
  }
}

// How a run writes.
enum class Strategy {
  kUpdateDatabase,   // an existing single database, article by article
  kBuildInParallel,  // a new single database, on every core
  kUpdateShardSet,   // a shard set, new or not, shard by shard
};

// Called with the index locked. A shard set is never built beside and
// merged: it is updated in place even when new. Before the other two are
// told apart, what a killed first build had committed is merged into
// place, after which the index exists and this run updates it.
Strategy choose_strategy(const IndexConfig& config) {
  if (config.shards != 0 || detail::is_shard_set(config.db_path)) {
    return Strategy::kUpdateShardSet;
  }
  detail::adopt_interrupted_build(config.db_path);
  return detail::index_absent(config.db_path) ? Strategy::kBuildInParallel
                                              : Strategy::kUpdateDatabase;
}

// "index/" and "index" are one index: the lock and a new index's parts sit
// beside it, named after it.
IndexConfig with_plain_db_path(IndexConfig config) {
  std::filesystem::path path = std::filesystem::path(config.db_path).lexically_normal();
  if (!path.has_filename() && path.has_relative_path()) path = path.parent_path();
  config.db_path = path.string();
  return config;
}

// Refuses what a run must not write into: an index is never written among
// other files, where a mistyped --db would otherwise put it.
void check_index_folder(const std::string& db_path) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (!fs::exists(db_path, error)) return;
  if (!fs::is_directory(db_path, error)) {
    throw ConfigError("index " + db_path + " is a file; choose an empty or new folder");
  }
  if (detail::index_absent(db_path) || detail::is_shard_set(db_path) ||
      fs::exists(fs::path(db_path) / "iamglass", error)) {
    return;
  }
  throw ConfigError("index " + db_path +
                    " holds files that are not an index; choose an empty or new folder");
}

}  // namespace

std::vector<std::vector<std::string>> read_synonyms(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot read synonym list " + path);
  std::vector<std::vector<std::string>> groups;
  std::string line;
  while (std::getline(in, line)) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::vector<std::string> group;
    std::size_t start = 0;
    while (start <= line.size()) {
      std::size_t comma = line.find(',', start);
      if (comma == std::string::npos) comma = line.size();
      group.push_back(line.substr(start, comma - start));
      start = comma + 1;
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

IndexReport index_paths(const IndexConfig& given, const std::vector<std::string>& paths,
                        IndexObserver* observer) {
  const IndexConfig config = with_plain_db_path(given);
  const auto start = std::chrono::steady_clock::now();
  // Read before the index is touched, so that a bad file changes nothing.
  std::vector<std::vector<std::string>> synonyms;
  if (!config.synonyms_file.empty()) synonyms = read_synonyms(config.synonyms_file);
  // An unknown language must fail before anything is created.
  if (!config.language.empty()) check_language(config.language);
  for (const std::string& path : paths) {
    if (std::string problem = unreadable_root(path); !problem.empty()) {
      throw InputError(path + ": " + problem);
    }
  }
  check_index_folder(config.db_path);
  const detail::IndexLock lock(config.db_path, config.lock_wait, config.cancel);
  IndexReport report;
  report.input_bytes = detail::estimated_input_bytes(paths);

  std::vector<std::string> written;
  const Run run{config, paths, synonyms, report, observer, written};
  switch (choose_strategy(config)) {
    case Strategy::kUpdateDatabase:
      update_database(run);
      break;
    case Strategy::kBuildInParallel:
      build_in_parallel(run);
      break;
    case Strategy::kUpdateShardSet:
      update_shard_set(run);
      break;
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (observer) observer->on_progress(report);
  return report;
}

}  // namespace quarry
