// `quarry alerts` run as a user would: the alerts after a cursor, followed
// as they are appended, and a follower that stops and starts again from its
// last cursor.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "quarry/search/alert_log.h"
#include "tests/child_process.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::vector<Alert> alerts_named(const std::string& prefix, int count, std::uint64_t revision) {
  std::vector<Alert> alerts;
  for (int i = 0; i < count; ++i) {
    Alert alert;
    alert.alert = "opec";
    alert.id = prefix + std::to_string(i);
    alert.title = "Oil prices, part " + std::to_string(i);
    alert.snippet = "…<b>OPEC</b> said…";
    alert.language = "en";
    alert.revision = revision;
    alerts.push_back(alert);
  }
  return alerts;
}

std::vector<std::uint64_t> cursors_printed(const std::string& out) {
  std::vector<std::uint64_t> cursors;
  for (const std::string& line : lines_of(out)) {
    const std::optional<Alert> alert = parse_alert_json(line);
    EXPECT_TRUE(alert) << line;
    if (alert) cursors.push_back(alert->cursor);
  }
  return cursors;
}

// Waits until `child` has printed `lines` lines, or fails when it has not in
// time (or has ended).
void wait_for_lines(ChildProcess& child, std::size_t lines) {
  const auto deadline = Clock::now() + time_allowed(std::chrono::seconds(10));
  while (lines_of(child.out()).size() < lines) {
    ASSERT_TRUE(child.running()) << child.out() << child.err();
    ASSERT_LT(Clock::now(), deadline) << "printed only: " << child.out() << child.err();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

using Cursors = std::vector<std::uint64_t>;

TEST(AlertsCliTest, SincePrintsExactlyTheAlertsAfterTheCursorAsTheLogHoldsThem) {
  TempDir dir;
  AlertLog log(dir.path().string());
  log.append(alerts_named("a", 3, 1));
  log.append(alerts_named("b", 2, 2));
  const std::vector<std::string> lines = lines_of(read_file(dir / "alerts.jsonl"));

  RunResult all = run_program(QUARRY_BIN, {"alerts", "--db", dir.path().string()});
  EXPECT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(all.out, read_file(dir / "alerts.jsonl"));
  EXPECT_EQ(all.err, "");

  RunResult after =
      run_program(QUARRY_BIN, {"alerts", "--since", "2", "--db", dir.path().string()});
  EXPECT_EQ(after.exit_code, 0) << after.err;
  EXPECT_EQ(after.out, lines[2] + "\n" + lines[3] + "\n" + lines[4] + "\n");

  // The index through QUARRY_DB, as every command finds it.
  RunResult by_env =
      run_program(QUARRY_BIN, {"alerts", "--since", "4"}, "", {"QUARRY_DB=" + dir.path().string()});
  EXPECT_EQ(by_env.exit_code, 0) << by_env.err;
  EXPECT_EQ(cursors_printed(by_env.out), (Cursors{5}));

  RunResult none = run_program(QUARRY_BIN, {"alerts", "--since", "5", "--db", dir.path().string()});
  EXPECT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(none.out, "");
}

TEST(AlertsCliTest, ACursorPastTheEndOfALogCutShortReadsItAgainWithAWarning) {
  TempDir dir;
  AlertLog(dir.path().string()).append(alerts_named("a", 2, 1));
  RunResult result =
      run_program(QUARRY_BIN, {"alerts", "--since", "9", "--db", dir.path().string()});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(cursors_printed(result.out), (Cursors{1, 2}));
  EXPECT_NE(result.err.find("quarry: warning: the alert log ends before cursor 9"),
            std::string::npos)
      << result.err;
}

TEST(AlertsCliTest, UsageErrorsExit2AndAMissingIndexExits1) {
  TempDir dir;
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"alerts", "--since", "-1"},
                                             {"alerts", "--since", "x"},
                                             {"alerts", "--nonsense"},
                                             {"-n", "5", "alerts"}}) {
    RunResult result = run_program(QUARRY_BIN, args);
    EXPECT_EQ(result.exit_code, 2) << args.back() << ": " << result.err;
    EXPECT_TRUE(result.err.starts_with("quarry: ")) << result.err;
  }
  // A cursor past the largest is refused as quarry refuses such counts,
  // rather than read as another cursor: nothing of the log is printed.
  AlertLog(dir.path().string()).append(alerts_named("a", 3, 1));
  for (const std::string huge : {"99999999999999999999", "18446744073709551616"}) {
    const RunResult refused =
        run_program(QUARRY_BIN, {"alerts", "--db", dir.path().string(), "--since", huge});
    EXPECT_EQ(refused.exit_code, 2) << huge << ": " << refused.err;
    EXPECT_EQ(refused.out, "") << huge;
    EXPECT_EQ(refused.err,
              "quarry: --since must be a whole number from 0 to 18446744073709551615, not '" +
                  huge + "' (quarry --help lists the options)\n");
  }
  RunResult missing = run_program(QUARRY_BIN, {"alerts", "--db", (dir / "none").string()});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find((dir / "none").string()), std::string::npos) << missing.err;
  EXPECT_EQ(missing.out, "");
}

TEST(AlertsCliTest, FollowPrintsAlertsAppendedAfterItStartedUntilASignal) {
  TempDir dir;
  TempDir logs;
  AlertLog log(dir.path().string());
  // No log yet: --follow waits for its first line.
  ChildProcess follower(QUARRY_BIN, {"alerts", "--db", dir.path().string(), "--follow"},
                        logs.path());
  log.append(alerts_named("a", 2, 1));
  wait_for_lines(follower, 2);
  log.append(alerts_named("b", 1, 2));
  wait_for_lines(follower, 3);
  follower.signal(SIGTERM);
  EXPECT_EQ(follower.wait(std::chrono::duration_cast<std::chrono::milliseconds>(
                time_allowed(std::chrono::seconds(10)))),
            0)
      << follower.err();
  EXPECT_EQ(follower.out(), read_file(dir / "alerts.jsonl"));
  EXPECT_EQ(follower.err(), "");
}

// An index folder replaced by another (mv new live), its log copied over:
// the follower watches the new one and goes on after its cursor.
TEST(AlertsCliTest, FollowGoesOnInAFolderThatReplacedTheIndexFolder) {
  TempDir dir;
  TempDir logs;
  const fs::path live = dir / "live";
  fs::create_directory(live);
  AlertLog(live.string()).append(alerts_named("a", 2, 1));
  ChildProcess follower(QUARRY_BIN, {"alerts", "--db", live.string(), "--follow"}, logs.path());
  wait_for_lines(follower, 2);
  fs::create_directory(dir / "new");
  fs::copy_file(live / "alerts.jsonl", dir / "new" / "alerts.jsonl");
  fs::rename(live, dir / "old");
  fs::rename(dir / "new", live);
  AlertLog(live.string()).append(alerts_named("b", 1, 2));
  wait_for_lines(follower, 3);
  // Printed once the follower has seen the move: this one needs the new
  // folder watched.
  AlertLog(live.string()).append(alerts_named("c", 1, 3));
  wait_for_lines(follower, 4);
  follower.signal(SIGTERM);
  EXPECT_EQ(follower.wait(std::chrono::duration_cast<std::chrono::milliseconds>(
                time_allowed(std::chrono::seconds(10)))),
            0);
  EXPECT_EQ(cursors_printed(follower.out()), (Cursors{1, 2, 3, 4}));
  EXPECT_EQ(follower.err(), "");
}

TEST(AlertsCliTest, AFollowerStartedAgainFromItsLastCursorMissesNoneAndRepeatsNone) {
  TempDir dir;
  TempDir logs;
  AlertLog log(dir.path().string());
  log.append(alerts_named("a", 3, 1));
  std::uint64_t last = 0;
  std::vector<std::uint64_t> seen;
  for (int run = 0; run < 3; ++run) {
    ChildProcess follower(
        QUARRY_BIN,
        {"alerts", "--db", dir.path().string(), "--since", std::to_string(last), "--follow"},
        logs.path());
    const std::size_t expected = run == 0 ? 4 : 3;
    // Two were appended while it was down; one more while it runs.
    log.append(alerts_named("r" + std::to_string(run), 1, 10 + run));
    wait_for_lines(follower, expected);
    follower.signal(run == 1 ? SIGINT : SIGTERM);
    ASSERT_EQ(follower.wait(std::chrono::duration_cast<std::chrono::milliseconds>(
                  time_allowed(std::chrono::seconds(10)))),
              0)
        << follower.err();
    const Cursors printed = cursors_printed(follower.out());
    EXPECT_EQ(printed.size(), expected) << follower.out();
    seen.insert(seen.end(), printed.begin(), printed.end());
    last = seen.back();
    log.append(alerts_named("d" + std::to_string(run), 2, 20 + run));
  }
  EXPECT_EQ(seen, (Cursors{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
}

}  // namespace
}  // namespace quarry::testing
