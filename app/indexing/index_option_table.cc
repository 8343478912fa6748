#include "app/indexing/index_option_table.h"

#include <algorithm>
#include <limits>

#include "app/common/index_location.h"
#include "quarry/text/analyzer.h"

namespace quarry {
namespace {

// A week: any longer and something is stuck.
constexpr double kMaxWaitSeconds = 7 * 24 * 3600;

std::vector<IndexOption> make_table() {
  using enum ValueKind;
  using option_value::count;
  using option_value::flag;
  using option_value::number;
  using option_value::text;
  return {
      {.name = "help",
       .short_name = 'h',
       .role = IndexRowRole::kHelp,
       .help = "Print this help message and exit"},
      {.name = "version",
       .role = IndexRowRole::kVersion,
       .help = "Print the versions of quarry-index, Xapian and ICU, and exit"},
      {.name = "db",
       .kind = kPath,
       .help = "Index folder (default: $QUARRY_DB, else $XDG_DATA_HOME/quarry/index)",
       .value_name = "PATH",
       .names = IndexValueNames::kFolder,
       .set = [](IndexCommand& c, const OptionValue& v) { c.index.db_path = text(v); }},
      {.name = "language",
       .kind = kText,
       .help = "Language of a new index's articles that do not say their own: 'auto' (the "
               "default) tells each from its text, and analyzes those it cannot tell in "
               "English; a language analyzes them all in it ('none' for no stemming): " +
               Analyzer::available_languages(),
       .value_name = "LANGUAGE",
       .names = IndexValueNames::kLanguage,
       .run = IndexRun::kIndexing,
       .set = [](IndexCommand& c, const OptionValue& v) { c.index.language = text(v); }},
      {.name = "commit-every",
       .kind = kCount,
       .help = "Articles per commit; an interrupted run loses at most this many (default: " +
               std::to_string(IndexConfig{}.commit_every) + ")",
       .value_name = "N",
       .run = IndexRun::kIndexing,
       .least = 1,
       .set = [](IndexCommand& c, const OptionValue& v) { c.index.commit_every = count(v); }},
      {.name = "synonyms",
       .kind = kPath,
       .help = "Synonym list to store: one group of equivalent words or phrases per line, "
               "comma-separated",
       .value_name = "FILE",
       .names = IndexValueNames::kExistingFile,
       .run = IndexRun::kIndexing,
       .set = [](IndexCommand& c, const OptionValue& v) { c.index.synonyms_file = text(v); }},
      {.name = "shards",
       .kind = kCount,
       .help = "Split a new index over N databases by a hash of each article's id: --db "
               "becomes a folder of shard-0 … shard-N-1, a lexicon and the stub file "
               "XAPIANDB naming them (later runs keep the shards without this option)",
       .value_name = "N",
       .run = IndexRun::kIndexing,
       .least = 1,
       .set = [](IndexCommand& c, const OptionValue& v) { c.index.shards = count(v); }},
      {.name = "changesets",
       .kind = kCount,
       .help = "Keep the changes of each database's last N commits beside it, as Xapian's "
               "replication needs to bring replicas up to date by sending only what changed "
               "(xapian-replicate-server serves them); give it on every run, or a replica "
               "gets a full copy after a run without it (default: $XAPIAN_MAX_CHANGESETS, "
               "else none)",
       .value_name = "N",
       .most = std::numeric_limits<unsigned>::max(),
       .set = [](IndexCommand& c, const OptionValue& v) { c.changesets = count(v); }},
      {.name = "threads",
       .short_name = 'j',
       .kind = kCount,
       .help = "Writers for a new index, one shard each, merged at the end (default: the "
               "cores available)",
       .value_name = "N",
       .run = IndexRun::kIndexing,
       .set = [](IndexCommand& c, const OptionValue& v) { c.index.threads = count(v); }},
      {.name = "wait",
       .kind = kNumber,
       .help = "When another quarry-index works on the index, wait for it (--wait=SECONDS: at "
               "most that long; alone: an hour) instead of exiting at once",
       .value_name = "[=SECONDS]",
       .run = IndexRun::kIndexing,
       .most = kMaxWaitSeconds,
       .when_alone = "3600",
       .set =
           [](IndexCommand& c, const OptionValue& v) {
             c.index.lock_wait = std::chrono::duration<double>(number(v));
           }},
      {.name = "quiet",
       .short_name = 'q',
       .help = "No progress line and no summary; problems are still shown",
       .set = [](IndexCommand& c, const OptionValue& v) { c.quiet = flag(v); }},
      {.name = "watch",
       .help = "Index the PATHs, then keep running until SIGINT or SIGTERM (which commit what "
               "was read, and exit 0): a .txt file under the folders, at any depth and in "
               "folders made later, is indexed once closed after writing or moved in, and "
               "deleted from the index when deleted or moved away; lines appended to a .jsonl "
               "corpus are indexed as each ends, following it through truncation and "
               "rotation as tail -F does. A .jsonl.gz corpus is indexed once, not followed",
       .run = IndexRun::kIndexing,
       .set = [](IndexCommand& c, const OptionValue& v) { c.watch = flag(v); }},
      {.name = "commit-interval",
       .kind = kNumber,
       .help = "With --watch or -: commit what arrived at most once every SECONDS (default: "
               "1; 0.2 allowed)",
       .value_name = "SECONDS",
       .run = IndexRun::kIndexing,
       .most = kMaxWaitSeconds,
       .set =
           [](IndexCommand& c, const OptionValue& v) {
             c.commit_interval = std::chrono::duration<double>(number(v));
           }},
      {.name = "snapshot",
       .kind = kPath,
       .help = "Instead of indexing, write a compacted copy of the index as it is at one "
               "commit to DEST, a new or empty folder, while other runs or a --watch go on "
               "writing it (their commits wait while its files are copied, 5 s at most, "
               "and a copy a commit fell in is taken again); DEST is "
               "written as DEST.partial-XXXXXX and renamed once whole",
       .value_name = "DEST",
       .names = IndexValueNames::kFolder,
       .run = IndexRun::kSnapshot,
       .check = [](std::string_view dest) -> std::string {
         return dest.empty() ? "names no folder" : "";
       },
       .set = [](IndexCommand& c, const OptionValue& v) { c.snapshot = text(v); }},
      {.name = "PATH",
       .role = IndexRowRole::kArguments,
       .kind = kPaths,
       .help = "Folders, .txt files or .jsonl[.gz] corpora; - reads JSON Lines from standard "
               "input as they arrive, committing as they come, to its end",
       .value_name = "...",
       .names = IndexValueNames::kArticles,
       .run = IndexRun::kIndexing,
       .set = [](IndexCommand& c,
                 const OptionValue& v) { c.paths = std::get<std::vector<std::string>>(v); }},
  };
}

}  // namespace

std::string IndexOption::long_flag() const {
  return role == IndexRowRole::kArguments ? std::string(name) : "--" + std::string(name);
}

std::string IndexOption::short_flag() const {
  return short_name ? std::string{'-', short_name} : std::string();
}

const std::vector<IndexOption>& index_option_table() {
  static const std::vector<IndexOption> kTable = make_table();
  return kTable;
}

IndexCommand default_index_command() {
  IndexCommand command;
  command.index.db_path = default_index_path();
  return command;
}

void resolve_index_command(IndexCommand& command) {
  std::vector<std::string>& paths = command.paths;
  if (std::find(paths.begin(), paths.end(), "-") != paths.end()) {
    command.read_stdin = true;
    paths.erase(std::remove(paths.begin(), paths.end(), "-"), paths.end());
  }
}

}  // namespace quarry
