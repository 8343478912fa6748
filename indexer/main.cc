// quarry-index: builds or updates a Quarry index from folders of .txt
// articles and JSON Lines corpora.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "app/ansi.h"
#include "app/index_location.h"
#include "app/version_text.h"
#include "quarry/error.h"
#include "quarry/index/index_writer.h"

namespace {

constexpr char kProgram[] = "quarry-index";

constexpr char kExamples[] = R"(Examples:
  quarry-index corpus/          index the .txt articles under corpus/ into the
                                default index, where quarry searches
  quarry-index corpus/          again: only new, changed or deleted articles
  quarry-index news.jsonl.gz    a JSON Lines corpus, plain or gzipped
  quarry-index --db /srv/news --language french articles/
                                an index of its own, stemmed as French
  quarry-index --db /srv/news --shards 3 news.jsonl.gz
                                three shards, searched as one by quarry --db /srv/news
  quarry-index --synonyms synonyms.txt corpus/
                                queries for one word of a line find the others
  quarry-index --wait corpus/   from cron: wait for a run still going on)";

constexpr char kExitCodes[] = R"(Exit codes:
  0  every article was indexed
  1  the index could not be opened or written (locked, disk full, ...), or
     the run was interrupted (what was indexed by then is kept)
  2  usage error: a PATH that does not exist or is of no kind quarry-index
     reads, an --db that is a file or a folder of other files, or --shards or
     --language at odds with the existing index (nothing is written)
  3  the index was updated, but some inputs were skipped (see messages), or
     a folder given holds no article)";

// A week: any longer and something is stuck.
constexpr double kMaxWaitSeconds = 7 * 24 * 3600;

std::atomic<bool> interrupted{false};

extern "C" void on_interrupt(int) {
  interrupted.store(true);
  // A second signal ends the program at once.
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

// "42 s", "3 min 5 s", "1 h 2 min".
std::string duration(double seconds) {
  const long total = std::lround(seconds);
  char text[32];
  if (total < 60) {
    std::snprintf(text, sizeof text, "%ld s", total);
  } else if (total < 3600) {
    std::snprintf(text, sizeof text, "%ld min %ld s", total / 60, total % 60);
  } else {
    std::snprintf(text, sizeof text, "%ld h %ld min", total / 3600, total % 3600 / 60);
  }
  return text;
}

// Problems as they come; on a terminal, a progress line rewritten in place.
class ConsoleObserver : public quarry::IndexObserver {
 public:
  explicit ConsoleObserver(bool progress) : progress_(progress) {}

  void on_problem(const quarry::ReadProblem& problem) override {
    clear_progress();
    std::cerr << kProgram << ": ";
    if (!problem.where.path.empty()) std::cerr << problem.where.to_string() << ": ";
    std::cerr << problem.reason << (problem.skipped ? " (skipped)" : "") << '\n';
  }

  void on_progress(const quarry::IndexReport& so_far) override {
    if (!progress_) return;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const std::size_t seen = so_far.seen();
    char line[160];
    int used = std::snprintf(line, sizeof line, "\r%zu articles, %.0f/s, %.0f s", seen,
                             seconds > 0 ? seen / seconds : 0.0, seconds);
    if (so_far.bytes_read > 0 && so_far.input_bytes > so_far.bytes_read && used > 0) {
      const double left = seconds * static_cast<double>(so_far.input_bytes - so_far.bytes_read) /
                          static_cast<double>(so_far.bytes_read);
      std::snprintf(
          line + used, sizeof line - static_cast<std::size_t>(used), ", %.0f%%, about %s left",
          100.0 * static_cast<double>(so_far.bytes_read) / static_cast<double>(so_far.input_bytes),
          duration(left).c_str());
    }
    std::cerr << line << quarry::ansi::kClearToEndOfLine << std::flush;
    shown_ = true;
  }

  void clear_progress() {
    if (shown_) std::cerr << '\r' << quarry::ansi::kClearToEndOfLine;
    shown_ = false;
  }

 private:
  bool progress_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// "skipped 3 files of unknown kinds: .md ×2, .html", most frequent first.
void print_other_files(const quarry::IndexReport& report) {
  if (report.other_files.empty()) return;
  std::vector<std::pair<std::string, std::size_t>> kinds(report.other_files.begin(),
                                                         report.other_files.end());
  std::stable_sort(kinds.begin(), kinds.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::size_t total = 0;
  std::string list;
  for (const auto& [extension, count] : kinds) {
    total += count;
    list += (list.empty() ? "" : ", ") + (extension.empty() ? "(no extension)" : extension);
    if (count > 1) list += " ×" + std::to_string(count);
  }
  std::cerr << kProgram << ": skipped " << total << (total == 1 ? " file" : " files")
            << " of unknown kinds: " << list << '\n';
}

void print_summary(const quarry::IndexReport& report) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f", report.seconds);
  std::cerr << kProgram << ": " << report.added << " added, " << report.updated << " updated, "
            << report.unchanged << " unchanged, " << report.deleted << " deleted, "
            << report.skipped << " skipped in " << seconds << " s\n";
  if (report.cancelled) {
    std::cerr << kProgram << ": interrupted; what was indexed is saved, run again to finish\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Index articles for searching with quarry: .txt files found under each folder "
      "(recursively) and JSON Lines corpora (.jsonl, .jsonl.gz). Runs are incremental: "
      "unchanged articles are skipped, changed ones replaced, vanished ones deleted.",
      kProgram};
  app.set_version_flag(
      "--version", [] { return quarry::version_text(kProgram); },
      "Print the versions of quarry-index, Xapian and ICU, and exit");
  quarry::IndexConfig config;
  config.db_path = quarry::default_index_path();
  std::vector<std::string> paths;
  app.add_option("--db", config.db_path,
                 "Index folder (default: $QUARRY_DB, else "
                 "$XDG_DATA_HOME/quarry/index)");
  app.add_option("--language", config.language,
                 "Stemming language of a new index (default english; 'none' for no "
                 "stemming): " +
                     quarry::Analyzer::available_languages());
  app.add_option("--commit-every", config.commit_every,
                 "Articles per commit; an interrupted run loses at most this many")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--synonyms", config.synonyms_file,
                 "Synonym list to store: one group of equivalent words or phrases per line, "
                 "comma-separated")
      ->check(CLI::ExistingFile);
  app.add_option("--shards", config.shards,
                 "Split a new index over N databases by a hash of each article's id: --db "
                 "becomes a folder of shard-0 … shard-N-1, a lexicon and the stub file "
                 "XAPIANDB naming them (later runs keep the shards without this option)")
      ->check(CLI::PositiveNumber);
  app.add_option("-j,--threads", config.threads,
                 "Writers for a new index, one shard each, merged at the end (default: the "
                 "cores available)");
  double wait_seconds = 0;
  app.add_flag("--wait{3600}", wait_seconds,
               "When another quarry-index works on the index, wait for it (--wait=SECONDS: at "
               "most that long; alone: an hour) instead of exiting at once")
      ->check(CLI::Range(0.0, kMaxWaitSeconds));
  bool quiet = false;
  app.add_flag("-q,--quiet", quiet, "No progress line and no summary; problems are still shown");
  app.add_option("PATH", paths, "Folders, .txt files or .jsonl[.gz] corpora")->required();
  app.footer(std::string(kExamples) + "\n\n" + kExitCodes);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }

  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  config.cancel = &interrupted;
  config.lock_wait = std::chrono::duration<double>(wait_seconds);
  ConsoleObserver observer(!quiet && isatty(STDERR_FILENO));
  try {
    quarry::IndexReport report = quarry::index_paths(config, paths, &observer);
    observer.clear_progress();
    print_other_files(report);
    if (!quiet || report.cancelled) print_summary(report);
    if (report.cancelled) return 1;
    return report.skipped > 0 ? 3 : 0;
  } catch (const quarry::ConfigError& error) {
    std::cerr << kProgram << ": " << error.what() << '\n';
    return 2;
  } catch (const quarry::InputError& error) {
    std::cerr << kProgram << ": " << error.what() << '\n';
    return 2;
  } catch (const quarry::Error& error) {
    std::cerr << kProgram << ": " << error.what() << '\n';
    return 1;
  }
}
