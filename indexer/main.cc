// quarry-index: builds or updates a Quarry index from folders of .txt
// articles and JSON Lines corpora.
#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <string>

#include "app/common/exit_status.h"
#include "app/common/index_location.h"
#include "app/common/version_text.h"
#include "app/indexing/index_command.h"
#include "indexer/completion.h"
#include "quarry/index/index_writer.h"
#include "quarry/text/analyzer.h"

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
  quarry-index --wait corpus/   from cron: wait for a run still going on
  quarry-index --watch inbox/ news.jsonl
                                index them, then each article as it lands in
                                inbox/ or is appended to news.jsonl, until
                                Ctrl-C or SIGTERM
  feed-fetcher | quarry-index - the articles a program writes, as they come
  quarry-index --db /srv/news --snapshot /backup/news-monday
                                a compacted copy of the index as it is now,
                                even while another quarry-index writes it)";

constexpr char kExitCodes[] = R"(Exit codes:
  0  every article was indexed; with --watch, SIGINT or SIGTERM ends the
     run so, after committing what was read, and with - alone, the end of
     standard input
  1  the index could not be opened or written (locked, disk full, ...), or
     a run without --watch or - was interrupted (what was indexed by then is
     kept), or a snapshot could not be taken (no index, disk full, ...)
  2  usage error: a PATH that does not exist or is of no kind quarry-index
     reads, folders with no article to make a new index of (with --watch,
     an empty index is made for what is to come), an --db that is
     a file or a folder of other files, or --shards or --language at odds
     with the existing index, or a --snapshot DEST that exists and is not
     an empty folder (nothing is written)
  3  the index was updated, but an input was skipped that no earlier run
     had reported (see messages), or a folder given holds no article; a
     problem met again in an unchanged file ("as before") is no failure;
     with --watch or -, a file or line skipped while watching counts too)";

// A week: any longer and something is stuck.
constexpr double kMaxWaitSeconds = 7 * 24 * 3600;

// The help's option names without the value a flag takes when given alone
// ("--wait[=SECONDS]", not "--wait{3600}"): the description says what it is.
class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_name(const CLI::Option* option, bool is_positional) const override {
    std::string name = CLI::Formatter::make_option_name(option, is_positional);
    for (std::size_t open = name.find('{'); open != std::string::npos; open = name.find('{')) {
      name.erase(open, name.find('}', open) + 1 - open);
    }
    return name;
  }
  // A value that may be left out follows the name: "--wait[=SECONDS]".
  std::string make_option_opts(const CLI::Option* option) const override {
    std::string opts = CLI::Formatter::make_option_opts(option);
    return opts.starts_with(" [=") ? opts.substr(1) : opts;
  }
};

std::atomic<bool> interrupted{false};
// The writing end of a pipe that wakes a live index waiting for input.
int wake_pipe = -1;

extern "C" void on_interrupt(int) {
  interrupted.store(true);
  if (wake_pipe >= 0) {
    const int saved = errno;
    [[maybe_unused]] const ssize_t written = write(wake_pipe, "", 1);
    errno = saved;
  }
  // A second signal ends the program at once.
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
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
  quarry::IndexCommand command;
  quarry::IndexConfig& config = command.index;
  config.db_path = quarry::default_index_path();
  app.add_option("--db", config.db_path,
                 "Index folder (default: $QUARRY_DB, else "
                 "$XDG_DATA_HOME/quarry/index)")
      ->option_text("PATH");
  app.add_option("--language", config.language,
                 "Language of a new index's articles that do not say their own: 'auto' "
                 "(the default) tells each from its text, and analyzes those it cannot tell "
                 "in English; a language analyzes them all in it ('none' for no stemming): " +
                     quarry::Analyzer::available_languages())
      ->option_text("LANGUAGE");
  app.add_option("--commit-every", config.commit_every,
                 "Articles per commit; an interrupted run loses at most this many (default: " +
                     std::to_string(config.commit_every) + ")")
      ->option_text("N")
      ->check(CLI::PositiveNumber);
  app.add_option("--synonyms", config.synonyms_file,
                 "Synonym list to store: one group of equivalent words or phrases per line, "
                 "comma-separated")
      ->option_text("FILE")
      ->check(CLI::ExistingFile);
  app.add_option("--shards", config.shards,
                 "Split a new index over N databases by a hash of each article's id: --db "
                 "becomes a folder of shard-0 … shard-N-1, a lexicon and the stub file "
                 "XAPIANDB naming them (later runs keep the shards without this option)")
      ->option_text("N")
      ->check(CLI::PositiveNumber);
  unsigned changesets = 0;
  app.add_option("--changesets", changesets,
                 "Keep the changes of each database's last N commits beside it, as Xapian's "
                 "replication needs to bring replicas up to date by sending only what changed "
                 "(xapian-replicate-server serves them); give it on every run, or a replica "
                 "gets a full copy after a run without it (default: $XAPIAN_MAX_CHANGESETS, "
                 "else none)")
      ->option_text("N");
  app.add_option("-j,--threads", config.threads,
                 "Writers for a new index, one shard each, merged at the end (default: the "
                 "cores available)")
      ->option_text("N");
  double wait_seconds = 0;
  app.add_flag("--wait{3600}", wait_seconds,
               "When another quarry-index works on the index, wait for it (--wait=SECONDS: at "
               "most that long; alone: an hour) instead of exiting at once")
      ->option_text("[=SECONDS]")
      ->check(CLI::Range(0.0, kMaxWaitSeconds));
  app.add_flag("-q,--quiet", command.quiet,
               "No progress line and no summary; problems are still shown");
  app.add_flag("--watch", command.watch,
               "Index the PATHs, then keep running until SIGINT or SIGTERM (which commit what "
               "was read, and exit 0): a .txt file under the folders, at any depth and in "
               "folders made later, is indexed once closed after writing or moved in, and "
               "deleted from the index when deleted or moved away; lines appended to a .jsonl "
               "corpus are indexed as each ends, following it through truncation and "
               "rotation as tail -F does. A .jsonl.gz corpus is indexed once, not followed");
  double commit_interval = 1;
  app.add_option("--commit-interval", commit_interval,
                 "With --watch or -: commit what arrived at most once every SECONDS (default: "
                 "1; 0.2 allowed)")
      ->option_text("SECONDS")
      ->check(CLI::Range(0.0, kMaxWaitSeconds));
  CLI::Option* snapshot =
      app.add_option("--snapshot", command.snapshot,
                     "Instead of indexing, write a compacted copy of the index as it is at one "
                     "commit to DEST, a new or empty folder, while other runs or a --watch go on "
                     "writing it (their commits wait while its files are copied, 5 s at most, "
                     "and a copy a commit fell in is taken again); DEST is "
                     "written as DEST.partial-XXXXXX and renamed once whole")
          ->option_text("DEST")
          ->check([](const std::string& dest) { return dest.empty() ? "names no folder" : ""; });
  app.add_option("PATH", command.paths,
                 "Folders, .txt files or .jsonl[.gz] corpora; - reads JSON Lines from standard "
                 "input as they arrive, committing as they come, to its end")
      ->option_text("...");
  app.formatter(std::make_shared<HelpFormatter>());
  app.get_formatter()->label("Positionals", "Arguments");
  app.footer(std::string(kExamples) + "\n\n" + kExitCodes);
  // What the build installs beside the program, written from the options
  // above; left out of the help, which it documents.
  if (argc == 3 && std::string_view(argv[1]) == "--generate") {
    return quarry::write_index_completion(app, argv[2], std::cout, std::cerr, kProgram);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  // Checked here rather than by CLI11's excludes(), which the help would list.
  for (const char* indexing : {"--language", "--commit-every", "--synonyms", "--shards",
                               "--threads", "--wait", "--watch", "--commit-interval", "PATH"}) {
    if (snapshot->count() > 0 && app.get_option(indexing)->count() > 0) {
      app.exit(CLI::ExcludesError("--snapshot", indexing));
      return 2;
    }
  }
  if (command.snapshot.empty() && command.paths.empty()) {
    app.exit(CLI::RequiredError("PATH"));
    return 2;
  }
  if (!command.snapshot.empty()) {
    // A snapshot interrupted leaves no DEST, only DEST.partial-XXXXXX.
    return quarry::run_reporting_errors(kProgram, std::cerr, quarry::InputErrorIs::kUsage, [&] {
      return quarry::run_index_command(command, kProgram, std::cerr);
    });
  }

  if (const auto dash = std::find(command.paths.begin(), command.paths.end(), "-");
      dash != command.paths.end()) {
    command.read_stdin = true;
    command.paths.erase(std::remove(command.paths.begin(), command.paths.end(), "-"),
                        command.paths.end());
  }
  command.commit_interval = std::chrono::duration<double>(commit_interval);
  // Xapian 1.4 reads how many changesets to keep from the environment
  // alone, as each database is opened for writing.
  if (changesets > 0) setenv("XAPIAN_MAX_CHANGESETS", std::to_string(changesets).c_str(), 1);
  if (command.watch || command.read_stdin) {
    int ends[2];
    if (pipe2(ends, O_CLOEXEC | O_NONBLOCK) == 0) {
      command.wake_fd = ends[0];
      wake_pipe = ends[1];
    }
  }
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  command.index.cancel = &interrupted;
  command.index.lock_wait = std::chrono::duration<double>(wait_seconds);
  command.progress = !command.quiet && isatty(STDERR_FILENO);
  return quarry::run_reporting_errors(kProgram, std::cerr, quarry::InputErrorIs::kUsage, [&] {
    return quarry::run_index_command(command, kProgram, std::cerr);
  });
}
