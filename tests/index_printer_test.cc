#include "app/indexing/index_printer.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <utility>

#include "app/common/exit_status.h"
#include "app/indexing/index_command.h"
#include "tests/test_util.h"

namespace quarry {
namespace {

using testing::TempDir;
using testing::write_file;

constexpr char kProgram[] = "quarry-index";

// Built field by field: GCC 12 at -O3 takes a braced ReadProblem temporary
// for one read before its strings are set (-Wmaybe-uninitialized).
ReadProblem problem(std::string path, std::size_t line, std::string reason, bool skipped) {
  ReadProblem made;
  made.where.path = std::move(path);
  made.where.line = line;
  made.reason = std::move(reason);
  made.skipped = skipped;
  return made;
}

TEST(DurationText, RoundsToTheSecondThenTheMinute) {
  const struct {
    double seconds;
    const char* text;
  } cases[] = {
      {0, "0 s"},          {0.4, "0 s"},        {42, "42 s"},
      {59.6, "1 min 0 s"}, {185, "3 min 5 s"},  {3599, "59 min 59 s"},
      {3600, "1 h 0 min"}, {3720, "1 h 2 min"}, {90000, "25 h 0 min"},
  };
  for (const auto& c : cases) EXPECT_EQ(duration_text(c.seconds), c.text) << c.seconds;
}

TEST(IndexProgressPrinter, ProblemsNameWhereAndWhetherTheArticleWasSkipped) {
  std::ostringstream out;
  IndexProgressPrinter printer(out, kProgram, false);
  printer.on_problem(problem("news.jsonl", 12, "empty article", true));
  printer.on_problem(problem("a.txt", 0, "invalid UTF-8 repaired (2 bytes)", false));
  printer.on_problem(problem("", 0, "cannot read news.jsonl.gz: gone", true));
  EXPECT_EQ(out.str(),
            "quarry-index: news.jsonl:12: empty article (skipped)\n"
            "quarry-index: a.txt: invalid UTF-8 repaired (2 bytes)\n"
            "quarry-index: cannot read news.jsonl.gz: gone (skipped)\n");
}

// A report of `count` articles added so far, and nothing else done.
IndexReport added_so_far(std::size_t count) {
  IndexReport report;
  report.added = count;
  return report;
}

// A file named to retitle the terminal, or an id with a bell, is shown, not
// obeyed.
TEST(IndexProgressPrinter, ControlCharactersInProblemsAreShownVisibly) {
  std::ostringstream out;
  IndexProgressPrinter printer(out, kProgram, false);
  printer.on_problem(problem("\x1b]0;owned\x07.txt", 0, "binary file", true));
  printer.on_problem(
      problem("news.jsonl", 3, "duplicate id 'a\x07\nb', first at news.jsonl:1", true));
  EXPECT_EQ(out.str(),
            "quarry-index: ^[]0;owned^G.txt: binary file (skipped)\n"
            "quarry-index: news.jsonl:3: duplicate id 'a^G^Jb', first at news.jsonl:1 (skipped)\n");
}

TEST(IndexProgressPrinter, ProgressLineIsRewrittenInPlace) {
  std::ostringstream out;
  IndexProgressPrinter printer(out, kProgram, true);
  IndexReport so_far = added_so_far(900);
  so_far.unchanged = 100;
  printer.print_progress(so_far, 2);
  EXPECT_EQ(out.str(), "\r1000 articles, 500/s, 2 s\x1b[K");
  // Once the size of the inputs is known: how much is read, how long is left.
  out.str("");
  so_far.input_bytes = 4000;
  so_far.bytes_read = 1000;
  printer.print_progress(so_far, 60);
  EXPECT_EQ(out.str(), "\r1000 articles, 17/s, 60 s, 25%, about 3 min 0 s left\x1b[K");
  // Read all (the estimate falls short): no time left is guessed.
  out.str("");
  so_far.bytes_read = 4000;
  printer.print_progress(so_far, 0);
  EXPECT_EQ(out.str(), "\r1000 articles, 0/s, 0 s\x1b[K");
}

TEST(IndexProgressPrinter, StepsAfterReadingAreNamedAtAHundredPercent) {
  std::ostringstream out;
  IndexProgressPrinter printer(out, kProgram, true);
  IndexReport so_far = added_so_far(21577);
  so_far.input_bytes = 4000;
  so_far.bytes_read = 3100;
  const struct {
    IndexStep step;
    const char* line;
  } cases[] = {
      {IndexStep::kFinishingParts, "\r21577 articles, 44 s, 100%, writing the last articles\x1b[K"},
      {IndexStep::kCommitting, "\r21577 articles, 44 s, 100%, committing\x1b[K"},
      {IndexStep::kLinkingStories, "\r21577 articles, 44 s, 100%, linking stories\x1b[K"},
      {IndexStep::kMerging, "\r21577 articles, 44 s, 100%, merging the parts\x1b[K"},
  };
  for (const auto& c : cases) {
    out.str("");
    so_far.step = c.step;
    printer.print_progress(so_far, 44);
    EXPECT_EQ(out.str(), c.line);
  }
  // Linking, once under way, tells how far it is.
  out.str("");
  so_far.step = IndexStep::kLinkingStories;
  so_far.linked = 256;
  so_far.to_link = 1024;
  printer.print_progress(so_far, 44);
  EXPECT_EQ(out.str(), "\r21577 articles, 44 s, 100%, linking stories (25%)\x1b[K");
  so_far.step = IndexStep::kMerging;
  // Cancelled: not all was read.
  out.str("");
  so_far.cancelled = true;
  printer.print_progress(so_far, 44);
  EXPECT_EQ(out.str(), "\r21577 articles, 44 s, merging the parts\x1b[K");
}

TEST(IndexProgressPrinter, AProblemOrTheEndClearsTheProgressLineFirst) {
  std::ostringstream out;
  IndexProgressPrinter printer(out, kProgram, true);
  printer.clear_progress();
  EXPECT_EQ(out.str(), "") << "nothing shown, nothing to clear";
  IndexReport so_far = added_so_far(1000);
  printer.print_progress(so_far, 1);
  printer.on_problem(problem("b.txt", 0, "binary file", true));
  printer.clear_progress();
  EXPECT_EQ(out.str(),
            "\r1000 articles, 1000/s, 1 s\x1b[K"
            "\r\x1b[K"
            "quarry-index: b.txt: binary file (skipped)\n");
}

TEST(IndexProgressPrinter, WithoutProgressOnlyProblemsArePrinted) {
  std::ostringstream out;
  IndexProgressPrinter printer(out, kProgram, false);
  IndexReport so_far = added_so_far(1000);
  printer.on_progress(so_far);
  printer.clear_progress();
  EXPECT_EQ(out.str(), "");
}

LiveCommit commit_of(std::size_t added, std::size_t updated, std::vector<std::string> deleted) {
  LiveCommit commit;
  commit.added = added;
  commit.updated = updated;
  commit.deleted_ids = std::move(deleted);
  return commit;
}

// On a terminal, what the commits brought is one line rewritten after each,
// set aside for a problem and shown again after it.
TEST(LiveIndexPrinter, CountsTheCommitsOnOneLineRewrittenInPlace) {
  std::ostringstream out;
  LiveIndexPrinter printer(out, kProgram, true);
  printer.on_ready(IndexReport());
  printer.on_commit(commit_of(2, 0, {}));
  printer.on_problem(problem("stdin", 3, "malformed JSON", true));
  printer.on_commit(commit_of(1, 1, {"a.txt"}));
  printer.clear_progress();
  EXPECT_EQ(out.str(),
            "\rwatching: 1 commit, 2 added, 0 updated, 0 deleted\x1b[K"
            "\r\x1b[K"
            "quarry-index: stdin:3: malformed JSON (skipped)\n"
            "\rwatching: 1 commit, 2 added, 0 updated, 0 deleted\x1b[K"
            "\rwatching: 2 commits, 3 added, 1 updated, 1 deleted\x1b[K"
            "\r\x1b[K");
}

// Elsewhere (a log, or -q), commits are not told: only problems are.
TEST(LiveIndexPrinter, WithoutProgressOnlyProblemsArePrinted) {
  std::ostringstream out;
  LiveIndexPrinter printer(out, kProgram, false);
  IndexReport initial = added_so_far(1000);
  printer.on_progress(initial);
  printer.on_ready(initial);
  printer.on_commit(commit_of(2, 0, {"b.txt"}));
  printer.on_problem(problem("stdin", 3, "malformed JSON", true));
  printer.clear_progress();
  EXPECT_EQ(out.str(), "quarry-index: stdin:3: malformed JSON (skipped)\n");
}

IndexReport finished_report() {
  IndexReport report = added_so_far(3);
  report.updated = 1;
  report.unchanged = 20;
  report.deleted = 2;
  report.skipped = 1;
  report.seconds = 1.25;
  return report;
}

TEST(SnapshotSummary, SaysWhereTheSnapshotWentItsSizeAndHowLongCommitsWaited) {
  SnapshotReport report;
  report.bytes = 801'834'000;
  report.copied_bytes = 1'100'000'000;
  report.seconds = 42;
  report.held_seconds = 2.06;
  const SnapshotConfig config{.db_path = "/srv/news", .dest = "/backup/monday"};
  std::ostringstream out;
  print_snapshot_summary(out, "quarry-index", config, report, false);
  EXPECT_EQ(out.str(),
            "quarry-index: snapshot of /srv/news written to /backup/monday: 801.8 MB (from 1.1 GB "
            "copied) in 42 s, commits held for 2.1 s\n");
  report.bytes = 999;
  std::ostringstream small;
  print_snapshot_summary(small, "quarry-index", config, report, false);
  EXPECT_NE(small.str().find(": 999 bytes (from"), std::string::npos) << small.str();
  std::ostringstream quiet;
  print_snapshot_summary(quiet, "quarry-index", config, report, true);
  EXPECT_EQ(quiet.str(), "");
}

TEST(IndexSummaryPrinter, CountsWhatTheRunDidAndHowLongItTook) {
  std::ostringstream out;
  IndexSummaryPrinter(out, kProgram, false).print(finished_report());
  EXPECT_EQ(out.str(),
            "quarry-index: 3 added, 1 updated, 20 unchanged, 2 deleted, 1 skipped in 1.2 s\n");
}

TEST(IndexSummaryPrinter, LanguagesAreCountedWithThoseIdentified) {
  IndexReport report = finished_report();
  report.languages = {{"english", {3, 3}}};
  std::ostringstream english;
  IndexSummaryPrinter(english, kProgram, false).print(report);
  EXPECT_EQ(english.str().find("languages"), std::string::npos)
      << "English alone, the default, goes without saying: " << english.str();
  report.languages = {{"german", {1, 1}}, {"english", {2, 1}}, {"french", {5, 0}}};
  std::ostringstream several;
  IndexSummaryPrinter(several, kProgram, false).print(report);
  EXPECT_NE(several.str().find("quarry-index: languages: en 2 (1 identified), fr 5, de 1 "
                               "(identified)\n"),
            std::string::npos)
      << several.str();
}

TEST(IndexSummaryPrinter, ProblemsReportedBeforeAreCountedOnce) {
  IndexReport report = finished_report();
  report.skipped_as_before = 1;
  report.repaired = 2;
  report.repaired_as_before = 2;
  std::ostringstream out;
  IndexSummaryPrinter(out, kProgram, false).print(report);
  EXPECT_EQ(out.str(),
            "quarry-index: 2 warnings of earlier runs not repeated: their files are unchanged\n"
            "quarry-index: 3 added, 1 updated, 20 unchanged, 2 deleted, 1 skipped, as before, in "
            "1.2 s\n");
  out.str("");
  report.skipped = 3;
  report.repaired_as_before = 1;
  IndexSummaryPrinter(out, kProgram, false).print(report);
  EXPECT_EQ(out.str(),
            "quarry-index: 1 warning of an earlier run not repeated: its file is unchanged\n"
            "quarry-index: 3 added, 1 updated, 20 unchanged, 2 deleted, 3 skipped (1 as before) "
            "in 1.2 s\n");
}

TEST(IndexSummaryPrinter, ArticlesKeptOfInputsNotReadWholeAreCountedByInput) {
  IndexReport report = finished_report();
  report.kept = {{"/data/c.jsonl.gz", 1013}, {"/data/news", 1}};
  std::ostringstream out;
  IndexSummaryPrinter(out, kProgram, false).print(report);
  EXPECT_EQ(out.str(),
            "quarry-index: 3 added, 1 updated, 20 unchanged, 2 deleted, 1 skipped in 1.2 s\n"
            "quarry-index: kept 1013 articles of /data/c.jsonl.gz, which could not be read "
            "whole\n"
            "quarry-index: kept 1 article of /data/news, which could not be read whole\n");
}

TEST(IndexSummaryPrinter, QuietSaysNothingUnlessInterrupted) {
  std::ostringstream quiet;
  IndexSummaryPrinter(quiet, kProgram, true).print(finished_report());
  EXPECT_EQ(quiet.str(), "");
  IndexReport interrupted = finished_report();
  interrupted.cancelled = true;
  const std::string expected =
      "quarry-index: 3 added, 1 updated, 20 unchanged, 2 deleted, 1 skipped in 1.2 s\n"
      "quarry-index: interrupted; what was indexed is saved, run again to finish\n";
  for (bool is_quiet : {false, true}) {
    std::ostringstream out;
    IndexSummaryPrinter(out, kProgram, is_quiet).print(interrupted);
    EXPECT_EQ(out.str(), expected) << is_quiet;
  }
}

TEST(IndexSummaryPrinter, FilesOfUnknownKindsAreCountedMostFrequentFirst) {
  const struct {
    std::map<std::string, std::size_t> other_files;
    const char* line;
  } cases[] = {
      {{{".md", 1}}, "quarry-index: skipped 1 file of unknown kinds: .md\n"},
      {{{".md", 3}, {".html", 1}, {"", 1}},
       "quarry-index: skipped 5 files of unknown kinds: .md ×3, (no extension), .html\n"},
      {{{".a", 2}, {".b", 5}}, "quarry-index: skipped 7 files of unknown kinds: .b ×5, .a ×2\n"},
  };
  for (const auto& c : cases) {
    IndexReport report;
    report.other_files = c.other_files;
    std::ostringstream out;
    IndexSummaryPrinter(out, kProgram, true).print(report);
    EXPECT_EQ(out.str(), c.line);
  }
}

TEST(RunIndexCommand, ExitsWithWhetherInputWasSkipped) {
  TempDir dir;
  write_file(dir / "articles" / "a.txt", "An article about milk.");
  IndexCommand command;
  command.index.db_path = (dir / "index").string();
  command.paths = {(dir / "articles").string()};
  std::ostringstream err;
  EXPECT_EQ(run_index_command(command, kProgram, err), kExitSuccess);
  EXPECT_EQ(err.str().rfind("quarry-index: 1 added, 0 updated, 0 unchanged, 0 deleted, 0 skipped "
                            "in ",
                            0),
            0u)
      << err.str();

  write_file(dir / "articles" / "b.txt", "");
  command.quiet = true;
  err.str("");
  EXPECT_EQ(run_index_command(command, kProgram, err), kExitPartial);
  EXPECT_NE(err.str().find("b.txt"), std::string::npos) << err.str();
  EXPECT_EQ(err.str().find("added"), std::string::npos) << "quiet: " << err.str();
}

}  // namespace
}  // namespace quarry
