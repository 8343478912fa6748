// The alert log: numbering across writers, a torn last line, reading from a
// cursor, and followers of a log that grows, is cut short or replaced.
#include "quarry/search/alert_log.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "quarry/error.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;

Alert alert_of(const std::string& name, const std::string& id, std::uint64_t revision) {
  Alert alert;
  alert.alert = name;
  alert.id = id;
  alert.title = "Title of " + id;
  alert.date = "1987-03-02";
  alert.snippet = "…the <b>words</b> \"quoted\"…";
  alert.language = "en";
  alert.revision = revision;
  return alert;
}

std::vector<std::uint64_t> cursors_of(const std::vector<Alert>& alerts) {
  std::vector<std::uint64_t> cursors;
  for (const Alert& alert : alerts) cursors.push_back(alert.cursor);
  return cursors;
}

void append_raw(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::app) << bytes;
}

using Cursors = std::vector<std::uint64_t>;

TEST(AlertLogTest, AnAlertIsOneLineThatReadsBack) {
  Alert alert = alert_of("opec", "reuters-123", 42);
  alert.cursor = 17;
  alert.date = "";
  EXPECT_EQ(alert_json(alert),
            "{\"cursor\":17,\"alert\":\"opec\",\"id\":\"reuters-123\",\"title\":\"Title of "
            "reuters-123\",\"date\":\"\",\"snippet\":\"…the <b>words</b> \\\"quoted\\\"…\","
            "\"language\":\"en\",\"revision\":42}");
  EXPECT_EQ(parse_alert_json(alert_json(alert)), alert);
  // Invalid UTF-8 is replaced, never thrown.
  alert.title = "bad \xff byte";
  EXPECT_EQ(parse_alert_json(alert_json(alert))->title, "bad \xEF\xBF\xBD byte");
  for (const char* line :
       {"", "{", "[]", "{\"cursor\":0,\"alert\":\"a\",\"id\":\"b\"}",
        "{\"cursor\":\"1\",\"alert\":\"a\",\"id\":\"b\"}", "{\"alert\":\"a\"}"}) {
    EXPECT_FALSE(parse_alert_json(line)) << line;
  }
}

TEST(AlertLogTest, AppendsNumberOnFromTheLastCursorWhoeverWrites) {
  TempDir dir;
  AlertLog first(dir.path().string());
  EXPECT_EQ(first.last_cursor(), 0u);
  EXPECT_EQ(first.last_revision(), 0u);
  EXPECT_FALSE(fs::exists(dir / "alerts.jsonl"));
  EXPECT_TRUE(first.append({}).empty());
  EXPECT_FALSE(fs::exists(dir / "alerts.jsonl"));

  EXPECT_EQ(cursors_of(first.append({alert_of("a", "1", 3), alert_of("b", "2", 3)})),
            (Cursors{1, 2}));
  AlertLog second(dir.path().string());
  EXPECT_EQ(cursors_of(second.append({alert_of("a", "3", 5)})), (Cursors{3}));
  EXPECT_EQ(cursors_of(first.append({alert_of("a", "4", 7), alert_of("c", "5", 7)})),
            (Cursors{4, 5}));
  EXPECT_EQ(second.last_cursor(), 5u);
  EXPECT_EQ(second.last_revision(), 7u);

  const std::vector<std::string> lines = lines_of(read_file(dir / "alerts.jsonl"));
  ASSERT_EQ(lines.size(), 5u);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::optional<Alert> alert = parse_alert_json(lines[i]);
    ASSERT_TRUE(alert) << lines[i];
    EXPECT_EQ(alert->cursor, i + 1);
  }
  EXPECT_EQ(parse_alert_json(lines[2])->id, "3");
  EXPECT_EQ(parse_alert_json(lines[2])->revision, 5u);
}

TEST(AlertLogTest, ATornLastLineIsNoAlertAndTheNextAppendDropsIt) {
  TempDir dir;
  AlertLog log(dir.path().string());
  log.append({alert_of("a", "1", 3), alert_of("a", "2", 4)});
  const std::string whole = read_file(dir / "alerts.jsonl");
  // Longer than the line that will follow it, which cannot simply cover it.
  Alert torn = alert_of("a", "torn", 9);
  torn.snippet = std::string(2000, 'x');
  torn.cursor = 3;
  const std::string line = alert_json(torn);
  append_raw(dir / "alerts.jsonl", line.substr(0, line.size() / 2));

  EXPECT_EQ(log.last_cursor(), 2u);
  EXPECT_EQ(log.last_revision(), 4u);
  EXPECT_EQ(cursors_of(log.read_since(0, 100)), (Cursors{1, 2}));
  AlertFollower follower(dir.path().string(), 0);
  EXPECT_EQ(cursors_of(follower.next(100)), (Cursors{1, 2}));

  // Even a torn line that would parse whole is none without its break.
  const std::vector<Alert> added = log.append({alert_of("a", "3", 10)});
  EXPECT_EQ(cursors_of(added), (Cursors{3}));
  EXPECT_EQ(read_file(dir / "alerts.jsonl"), whole + alert_json(added[0]) + "\n");
  const std::vector<Alert> followed = follower.next(100);
  ASSERT_EQ(cursors_of(followed), (Cursors{3}));
  EXPECT_EQ(followed[0].id, "3");
  EXPECT_EQ(followed[0].revision, 10u);

  append_raw(dir / "alerts.jsonl", alert_json(torn));
  EXPECT_EQ(log.last_cursor(), 3u);
  EXPECT_TRUE(log.read_since(3, 100).empty());
  EXPECT_TRUE(follower.next(100).empty());
}

TEST(AlertLogTest, ReadSinceGivesWhatFollowsACursorUpToTheLimit) {
  TempDir dir;
  AlertLog log(dir.path().string());
  EXPECT_TRUE(log.read_since(0, 10).empty());
  // Long enough a log that finding a cursor bisects it.
  std::vector<Alert> alerts;
  for (int i = 0; i < 3000; ++i) alerts.push_back(alert_of("a", std::to_string(i), i / 10));
  log.append(alerts);
  ASSERT_GT(fs::file_size(dir / "alerts.jsonl"), 4u * 64 * 1024);
  struct Case {
    std::uint64_t since;
    std::size_t limit;
    Cursors expected;
  };
  const Case cases[] = {
      {0, 3, {1, 2, 3}},
      {1, 2, {2, 3}},
      {1499, 2, {1500, 1501}},
      {2998, 10, {2999, 3000}},
      {3000, 10, {}},
      {4000, 10, {}},
      {10, 0, {}},
      {2047, 1, {2048}},
      {17, 1, {18}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(cursors_of(log.read_since(c.since, c.limit)), c.expected) << c.since;
  }
  EXPECT_EQ(log.read_since(1500, 1).at(0).id, "1500");
  EXPECT_EQ(log.last_revision(), 299u);
}

TEST(AlertLogTest, AFollowerReadsOnlyWhatIsNew) {
  TempDir dir;
  AlertLog log(dir.path().string());
  AlertFollower follower(dir.path().string(), 0);
  EXPECT_TRUE(follower.next(10).empty());
  log.append({alert_of("a", "1", 1), alert_of("a", "2", 1), alert_of("a", "3", 1)});
  EXPECT_EQ(cursors_of(follower.next(2)), (Cursors{1, 2}));
  EXPECT_EQ(cursors_of(follower.next(2)), (Cursors{3}));
  EXPECT_TRUE(follower.next(2).empty());
  log.append({alert_of("a", "4", 2)});
  EXPECT_EQ(cursors_of(follower.next(2)), (Cursors{4}));
  EXPECT_FALSE(follower.started_over());
  EXPECT_EQ(follower.cursor(), 4u);

  AlertFollower later(dir.path().string(), 2);
  EXPECT_EQ(cursors_of(later.next(10)), (Cursors{3, 4}));
}

TEST(AlertLogTest, AFollowerPastTheEndOfALogCutShortStartsOver) {
  TempDir dir;
  AlertLog log(dir.path().string());
  log.append({alert_of("a", "1", 1), alert_of("a", "2", 1), alert_of("a", "3", 1)});
  AlertFollower follower(dir.path().string(), 0);
  EXPECT_EQ(cursors_of(follower.next(10)), (Cursors{1, 2, 3}));

  // Emptied in place: the numbering starts again, and so does the follower.
  fs::resize_file(dir / "alerts.jsonl", 0);
  log.append({alert_of("a", "new-1", 2), alert_of("a", "new-2", 2), alert_of("a", "new-3", 2),
              alert_of("a", "new-4", 2)});
  const std::vector<Alert> again = follower.next(10);
  EXPECT_TRUE(follower.started_over());
  ASSERT_EQ(cursors_of(again), (Cursors{1, 2, 3, 4}));
  EXPECT_EQ(again[0].id, "new-1");
  EXPECT_TRUE(follower.next(10).empty());
  EXPECT_FALSE(follower.started_over());

  // Its last lines kept in a new file: the follower finds its place by cursor.
  const std::vector<std::string> lines = lines_of(read_file(dir / "alerts.jsonl"));
  write_file(dir / "kept", lines[2] + "\n" + lines[3] + "\n");
  fs::rename(dir / "kept", dir / "alerts.jsonl");
  log.append({alert_of("a", "new-5", 3)});
  EXPECT_EQ(cursors_of(follower.next(10)), (Cursors{5}));
  EXPECT_FALSE(follower.started_over());

  // Removed: the place is kept until a log is back (a folder swapped in
  // is gone for a moment); a new log that ends before it starts over.
  fs::remove(dir / "alerts.jsonl");
  EXPECT_TRUE(follower.next(10).empty());
  EXPECT_FALSE(follower.started_over());
  log.append({alert_of("a", "newer-1", 4)});
  EXPECT_EQ(cursors_of(follower.next(10)), (Cursors{1}));
  EXPECT_TRUE(follower.started_over());

  // A cursor given past the end.
  AlertFollower ahead(dir.path().string(), 50);
  EXPECT_EQ(cursors_of(ahead.next(10)), (Cursors{1}));
  EXPECT_TRUE(ahead.started_over());
}

// An index folder swapped for its copy (mv new live) has no log for a
// moment: a follower that looks then goes on after its cursor once the
// copy is in place, neither repeating nor starting over.
TEST(AlertLogTest, AFollowerWaitsThroughAMomentWithNoLog) {
  TempDir dir;
  AlertLog log(dir.path().string());
  log.append({alert_of("a", "one", 1), alert_of("a", "two", 1)});
  AlertFollower follower(dir.path().string(), 0);
  EXPECT_EQ(cursors_of(follower.next(10)), (Cursors{1, 2}));
  fs::rename(dir / "alerts.jsonl", dir / "copy");
  EXPECT_TRUE(follower.next(10).empty());
  EXPECT_FALSE(follower.started_over());
  fs::rename(dir / "copy", dir / "alerts.jsonl");
  log.append({alert_of("a", "three", 2)});
  EXPECT_EQ(cursors_of(follower.next(10)), (Cursors{3}));
  EXPECT_FALSE(follower.started_over());
}

TEST(AlertLogTest, AFolderThatCannotBeWrittenIsAnIndexError) {
  TempDir dir;
  AlertLog log((dir / "missing").string());
  EXPECT_THROW(log.append({alert_of("a", "1", 1)}), IndexError);
  EXPECT_EQ(log.last_cursor(), 0u);
}

}  // namespace
}  // namespace quarry::testing
