// Alerts from a live index's commits: each commit's matches written once,
// whether the watcher is killed after its commit or after its alerts.
#include "app/indexing/alert_observer.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "app/common/saved_searches.h"
#include "quarry/index/index_writer.h"
#include "quarry/index/live_index.h"
#include "quarry/search/alert_log.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

Article article(const std::string& id, const std::string& body) {
  return {id, "Title of " + id, body, "2026-03-01", "", "", "english"};
}

// (search, id, batch) of alerts.
using Logged = std::vector<std::tuple<std::string, std::string, std::uint64_t>>;

// (search, id, batch) of every alert in the log, in order.
Logged logged(const std::string& db) {
  Logged alerts;
  for (const Alert& alert : AlertLog(db).read_since(0, 1000)) {
    alerts.emplace_back(alert.alert, alert.id, alert.revision);
  }
  return alerts;
}

// A live index's writer and alert observer past the first run, as a
// watcher holds them while it watches.
struct Watcher {
  Watcher(const IndexConfig& config, const std::string& db, std::ostream& err)
      : writer(config), observer(db, nullptr, err) {
    observer.after_initial_run(writer);
  }

  IndexWriter writer;
  AlertObserver observer;
};

class AlertObserverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    index_articles(dir_, {article("old", "an old report on oil quotas")});
    SavedSearchFile searches(db());
    searches.save({"oil", "oil quota", {}});
    searches.save({"strike", "rail strike", {}});
    config_.db_path = db();
  }

  std::string db() const { return index_path(dir_); }

  // One commit of a live index: `articles` upserted, noted by the
  // observer in the commit's transaction.
  static void commit(IndexWriter& writer, AlertObserver& observer,
                     const std::vector<Article>& articles) {
    LiveCommit pending;
    for (const Article& added : articles) {
      writer.upsert(added, "wire");
      pending.upserted_ids.push_back(added.id);
    }
    observer.before_commit(writer, pending);
    writer.commit();
  }

  // One commit, as above, told to the observer after, as the live index
  // tells it.
  static void commit_and_tell(IndexWriter& writer, AlertObserver& observer,
                              const std::vector<Article>& articles) {
    commit(writer, observer, articles);
    observer.on_commit({});
  }

  // A watcher's start after a stop, to the end of its matching: its first
  // run finds nothing new, and matches what the last one left.
  void restart_and_match() { Watcher(config_, db(), err_).observer.wait_until_matched(); }

  // Makes a folder where the alert log goes, so that no alert can be
  // written; the log's path.
  std::filesystem::path block_the_log() const {
    const std::filesystem::path log = std::filesystem::path(db()) / "alerts.jsonl";
    std::filesystem::create_directory(log);
    return log;
  }

  TempDir dir_;
  IndexConfig config_;
  std::ostringstream err_;
};

TEST_F(AlertObserverTest, EachCommitsMatchesAreAlertedOnceWithTheirBatch) {
  Watcher watcher(config_, db(), err_);
  auto& [writer, observer] = watcher;
  commit_and_tell(writer, observer, {article("a", "oil quota cut"), article("b", "a rail strike")});
  commit_and_tell(writer, observer, {article("c", "the rail strike and the oil quota")});
  observer.wait_until_matched();
  EXPECT_EQ(logged(db()),
            (Logged{{"oil", "a", 1}, {"strike", "b", 1}, {"oil", "c", 2}, {"strike", "c", 2}}));
  EXPECT_EQ(err_.str(), "");
}

TEST_F(AlertObserverTest, AWatcherKilledAfterItsCommitAlertsOnItsRestart) {
  {
    Watcher watcher(config_, db(), err_);
    auto& [writer, observer] = watcher;
    commit(writer, observer, {article("a", "oil quota cut")});
    // Killed here: committed, not yet matched.
  }
  EXPECT_TRUE(logged(db()).empty());
  restart_and_match();
  EXPECT_EQ(logged(db()), (Logged{{"oil", "a", 1}}));
}

TEST_F(AlertObserverTest, AWatcherKilledAfterItsAlertsDoesNotAlertAgain) {
  {
    Watcher watcher(config_, db(), err_);
    auto& [writer, observer] = watcher;
    commit_and_tell(writer, observer, {article("a", "oil quota cut")});
    // Killed here: the alerts are in the log, the note not yet cleared.
  }
  for (int restart = 0; restart < 2; ++restart) {
    Watcher watcher(config_, db(), err_);
    auto& [writer, restarted] = watcher;
    commit_and_tell(writer, restarted, {article("b" + std::to_string(restart), "oil quota again")});
    restarted.wait_until_matched();
  }
  EXPECT_EQ(logged(db()), (Logged{{"oil", "a", 1}, {"oil", "b0", 2}, {"oil", "b1", 3}}));
}

TEST_F(AlertObserverTest, WhatTheFirstRunOfARestartFindsNewIsAlerted) {
  IndexWriter writer(config_);
  AlertObserver observer(db(), nullptr, err_);
  writer.upsert(article("lost", "a rail strike"), "wire");
  observer.on_upserted("lost", Upsert::kAdded);
  observer.on_upserted("old", Upsert::kUnchanged);
  observer.before_run_commit(writer);
  writer.commit();
  observer.after_initial_run(writer);
  observer.wait_until_matched();
  EXPECT_EQ(logged(db()), (Logged{{"strike", "lost", 1}}));
}

TEST_F(AlertObserverTest, SearchesSavedWhileItRunsAreMatchedFromTheNextCommit) {
  Watcher watcher(config_, db(), err_);
  auto& [writer, observer] = watcher;
  commit_and_tell(writer, observer, {article("a", "storm floods the valley")});
  observer.wait_until_matched();
  SavedSearchFile(db()).save({"storm", "storm", {}});
  commit_and_tell(writer, observer, {article("b", "another storm")});
  observer.wait_until_matched();
  EXPECT_EQ(logged(db()), (Logged{{"storm", "b", 2}}));
}

// Matching runs beside the commits: a commit never waits for the last
// one's alerts. Forced by holding the alert log's lock, which keeps the
// matching from writing: commits go on, and their alerts follow once the
// log can be written, each batch's once.
TEST_F(AlertObserverTest, CommitsGoOnWhileTheLastOnesAlertsAreMatched) {
  Watcher watcher(config_, db(), err_);
  auto& [writer, observer] = watcher;
  const int log = ::open((std::filesystem::path(db()) / "alerts.jsonl").c_str(),
                         O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(log, 0);
  ASSERT_EQ(::flock(log, LOCK_EX), 0);
  auto commits = std::async(std::launch::async, [&] {
    commit_and_tell(writer, observer, {article("a", "oil quota cut")});
    commit_and_tell(writer, observer, {article("b", "a rail strike")});
  });
  // Never ready if a commit waited for the alerts: the test then fails
  // rather than hangs (the log is let go below).
  const bool went_on = commits.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
  EXPECT_TRUE(went_on);
  EXPECT_TRUE(logged(db()).empty());
  ::close(log);
  commits.get();
  observer.wait_until_matched();
  EXPECT_EQ(logged(db()), (Logged{{"oil", "a", 1}, {"strike", "b", 2}}));
}

// The nice value of each thread of this process.
std::vector<int> thread_nice_values() {
  std::vector<int> values;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream in(task.path() / "stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::istringstream fields(stat.substr(stat.rfind(')') + 2));
    std::string field;
    // The state is the stat's third field, the nice value its nineteenth.
    for (int i = 3; i < 19; ++i) fields >> field;
    int nice = 0;
    if (fields >> nice) values.push_back(nice);
  }
  return values;
}

// Matching yields the cores to the commits and the searches beside them.
TEST_F(AlertObserverTest, MatchingRunsBelowTheLiveIndexsPriority) {
  const int own = getpriority(PRIO_PROCESS, 0);
  Watcher watcher(config_, db(), err_);
  auto& [writer, observer] = watcher;
  // Matched on the thread, which lowered its priority first.
  commit_and_tell(writer, observer, {article("a", "oil quota cut")});
  observer.wait_until_matched();
  const std::vector<int> values = thread_nice_values();
  EXPECT_EQ(std::count(values.begin(), values.end(), std::min(own + 5, 19)), 1);
}

// (search, id) of every alert in the log, sorted: each twice when it was
// delivered twice.
std::vector<std::pair<std::string, std::string>> alerted(const std::string& db) {
  std::vector<std::pair<std::string, std::string>> alerts;
  for (const Alert& alert : AlertLog(db).read_since(0, 1000)) {
    alerts.emplace_back(alert.alert, alert.id);
  }
  std::sort(alerts.begin(), alerts.end());
  return alerts;
}

// What a kill does to a live index, forced at a chosen step: it ends the
// run there, with nothing after it written.
struct Killed {};

class KilledAfterTheFirstRun : public LiveObserver {
 public:
  void after_initial_run(IndexWriter& /*writer*/) override { throw Killed(); }
};

class KilledAtTheArticle : public LiveObserver {
 public:
  explicit KilledAtTheArticle(std::size_t article) : article_(article) {}
  void on_upserted(const std::string& /*id*/, Upsert /*done*/) override {
    if (++upserted_ == article_) throw Killed();
  }

 private:
  std::size_t article_;
  std::size_t upserted_ = 0;
};

// The articles of a live index's first run, and the note of their alerts,
// are committed together: however the run ends after its commits, each
// alert of what they hold arrives once.
class FirstRunAlertsTest : public AlertObserverTest {
 protected:
  void SetUp() override {
    AlertObserverTest::SetUp();
    // Files that arrived while no watcher ran.
    std::filesystem::create_directories(inbox_);
    for (int i = 0; i < 10; ++i) {
      const std::string number = std::to_string(i);
      testing::write_file(inbox_ / ("cut-" + number + ".txt"),
                          "Title: Cut " + number + "\n\nOPEC set a lower oil quota, " + number);
      if (i < 4) {
        testing::write_file(inbox_ / ("rain-" + number + ".txt"),
                            "Title: Rain " + number + "\n\nRain fell, " + number);
      }
    }
    live_.index.db_path = db();
    live_.paths = {inbox_.string()};
    // Indexes the inbox and ends, as a watcher's first run does before it
    // watches.
    live_.watch = false;
  }

  // A watcher's start, to its end.
  void start() {
    AlertObserver observer(db(), nullptr, err_);
    run_live_index(live_, &observer);
    observer.finish();
  }

  static std::vector<std::pair<std::string, std::string>> every_cut() {
    std::vector<std::pair<std::string, std::string>> alerts;
    for (int i = 0; i < 10; ++i) alerts.emplace_back("oil", "cut-" + std::to_string(i) + ".txt");
    std::sort(alerts.begin(), alerts.end());
    return alerts;
  }

  std::filesystem::path inbox_ = dir_ / "inbox";
  LiveConfig live_;
};

TEST_F(FirstRunAlertsTest, AKillRightAfterTheFirstRunsCommitLosesNoneOfItsAlerts) {
  // Committed every 3 articles, and at the end.
  live_.index.commit_every = 3;
  {
    KilledAfterTheFirstRun kill;
    AlertObserver observer(db(), &kill, err_);
    EXPECT_THROW(run_live_index(live_, &observer), Killed);
  }
  EXPECT_TRUE(alerted(db()).empty());
  start();
  start();
  EXPECT_EQ(alerted(db()), every_cut());
  EXPECT_EQ(err_.str(), "");
}

TEST_F(FirstRunAlertsTest, ARunEndedByAnErrorLosesNoneOfTheAlertsOfWhatItCommitted) {
  live_.index.commit_every = 3;
  {
    // The writer let go at the 5th article commits it, with the 4th.
    KilledAtTheArticle kill(5);
    AlertObserver observer(db(), &kill, err_);
    EXPECT_THROW(run_live_index(live_, &observer), Killed);
  }
  start();
  start();
  EXPECT_EQ(alerted(db()), every_cut());
}

// Matching that fails for another reason than the index (the log cannot be
// written: a folder stands in its place) never stops the commits: it says
// so once, and the alerts follow when the log can be written, each once.
TEST_F(AlertObserverTest, AnUnwritableLogHoldsTheAlertsBackWithoutStoppingTheCommits) {
  const std::filesystem::path log = block_the_log();
  Watcher watcher(config_, db(), err_);
  auto& [writer, observer] = watcher;
  commit_and_tell(writer, observer, {article("a", "oil quota cut")});
  observer.wait_until_matched();
  commit_and_tell(writer, observer, {article("b", "a rail strike")});
  commit_and_tell(writer, observer, {article("c", "oil quota again")});
  observer.wait_until_matched();
  const std::vector<std::string> said = testing::lines_of(err_.str());
  ASSERT_EQ(said.size(), 1u) << err_.str();
  EXPECT_NE(said[0].find("alerts: cannot read " + log.string() + ": Is a directory"),
            std::string::npos)
      << said[0];
  EXPECT_NE(said[0].find("tried again"), std::string::npos) << said[0];
  std::filesystem::remove(log);
  observer.finish();
  EXPECT_EQ(logged(db()), (Logged{{"oil", "a", 1}, {"strike", "b", 2}, {"oil", "c", 3}}));
  EXPECT_EQ(testing::lines_of(err_.str()).back(), "alerts: the alerts that waited are delivered");
}

TEST_F(AlertObserverTest, AlertsTheLogCouldNotTakeBeforeTheEndAreDeliveredByTheNextStart) {
  const std::filesystem::path log = block_the_log();
  {
    Watcher watcher(config_, db(), err_);
    auto& [writer, observer] = watcher;
    commit_and_tell(writer, observer, {article("a", "oil quota cut")});
    commit_and_tell(writer, observer, {article("b", "a rail strike")});
    observer.finish();
  }
  EXPECT_NE(err_.str().find("alerts: the alerts of 2 commits are not delivered"), std::string::npos)
      << err_.str();
  std::filesystem::remove(log);
  for (int restart = 0; restart < 2; ++restart) {
    restart_and_match();
  }
  EXPECT_EQ(logged(db()), (Logged{{"oil", "a", 1}, {"strike", "b", 2}}));
}

// A live run ended by an error lets its writer go with articles read since
// its last commit, which the writer commits as it closes: their note goes
// in with them, and the next start alerts on them.
class KilledAtTheProblem : public LiveObserver {
 public:
  void on_problem(const ReadProblem& /*problem*/) override { throw Killed(); }
};

TEST_F(AlertObserverTest, ALiveRunEndedByAnErrorLosesNoneOfTheAlertsOfWhatItHeld) {
  int feed[2];
  ASSERT_EQ(pipe2(feed, O_CLOEXEC), 0);
  // One write, read at once: the bad line ends the run before any commit.
  std::string lines;
  for (int i = 0; i < 5; ++i) {
    lines += R"({"id": "cut-)" + std::to_string(i) + R"(", "body": "OPEC set a lower oil quota"})";
    lines += '\n';
  }
  lines += "not a line of JSON\n";
  ASSERT_EQ(write(feed[1], lines.data(), lines.size()), static_cast<ssize_t>(lines.size()));
  ASSERT_EQ(close(feed[1]), 0);
  LiveConfig live;
  live.index.db_path = db();
  live.read_stdin = true;
  live.stdin_fd = feed[0];
  {
    KilledAtTheProblem kill;
    AlertObserver observer(db(), &kill, err_);
    EXPECT_THROW(run_live_index(live, &observer), Killed);
  }
  ASSERT_EQ(close(feed[0]), 0);
  EXPECT_TRUE(logged(db()).empty());
  for (int restart = 0; restart < 2; ++restart) {
    restart_and_match();
  }
  std::vector<std::pair<std::string, std::string>> expected;
  for (int i = 0; i < 5; ++i) expected.emplace_back("oil", "cut-" + std::to_string(i));
  EXPECT_EQ(alerted(db()), expected);
}

}  // namespace
}  // namespace quarry::testing
