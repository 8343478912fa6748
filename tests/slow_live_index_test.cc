// A live index that is killed, that the kernel's queue of changes
// overflows under, or that a saved search is matched beside at full speed:
// nothing is lost, and nothing is indexed or alerted twice.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "quarry/error.h"
#include "quarry/search/alert_log.h"
#include "quarry/search/searcher.h"
#include "tests/child_process.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;

std::size_t article_count(const fs::path& db) {
  try {
    return Searcher(db.string()).article_count();
  } catch (const Error&) {
    return 0;
  }
}

// Every article of `db` that `query` matches, up to `limit`, unranked.
SearchResult every_match(const fs::path& db, const std::string& query, std::size_t limit) {
  SearchOptions every;
  every.limit = limit;
  every.feedback.mode = FeedbackMode::kOff;
  every.spelling.correct = Correction::kNever;
  every.snippets.enabled = false;
  return Searcher(db.string()).search(query, every);
}

// The alerts of `db`'s log against the articles `found`: how many of them
// were not alerted, how many more than once, how many articles were
// alerted in all, and by which saved searches.
struct AlertTally {
  std::size_t missed = 0;
  std::size_t twice = 0;
  std::size_t alerted = 0;
  std::set<std::string> searches;
};

AlertTally tally_alerts(const fs::path& db, const SearchResult& found) {
  std::map<std::string, std::size_t> times;
  AlertTally tally;
  for (const Alert& alert : AlertLog(db.string()).read_since(0, 1000000)) {
    tally.searches.insert(alert.alert);
    ++times[alert.id];
  }
  for (const Hit& hit : found.hits) {
    const auto alerted = times.find(hit.id);
    if (alerted == times.end()) {
      ++tally.missed;
    } else if (alerted->second > 1) {
      ++tally.twice;
    }
  }
  tally.alerted = times.size();
  return tally;
}

std::string file_id(std::size_t i) { return "article-" + std::to_string(i) + ".txt"; }
std::string line_id(std::size_t i) { return "line-" + std::to_string(i); }

void write_article(const fs::path& inbox, std::size_t i) {
  write_file(inbox / file_id(i), "Article " + std::to_string(i) + " about milk and cheese.");
}

void append_line(const fs::path& feed, std::size_t i) {
  std::ofstream out(feed, std::ios::app);
  out << R"({"id": ")" << line_id(i) << R"(", "body": "Line )" << i << " about butter.\"}\n";
}

class LiveIndexFaults : public ::testing::Test {
 protected:
  std::unique_ptr<ChildProcess> watch() {
    return std::make_unique<ChildProcess>(
        QUARRY_INDEX_BIN,
        testing::index_args(db_, {inbox_, feed_}, {"--watch", "--commit-interval", "0.1"}),
        dir_.path());
  }
  // Every id is in the index once, and nothing else is.
  void expect_each_once(const std::vector<std::string>& ids) {
    Searcher searcher(db_.string());
    EXPECT_EQ(searcher.article_count(), ids.size());
    for (const std::string& id : ids) {
      EXPECT_EQ(searcher.search("id:\"" + id + "\"").total, 1u) << id;
    }
  }

  // Waits until the watcher has indexed as many articles as `ids` holds,
  // stops it, and expects each of `ids` indexed once.
  void stop_once_it_holds(ChildProcess& watcher, const std::vector<std::string>& ids) {
    ASSERT_TRUE(
        eventually([&] { return article_count(db_) == ids.size(); }, std::chrono::seconds(60)))
        << watcher.err();
    watcher.signal(SIGTERM);
    EXPECT_EQ(watcher.wait(std::chrono::seconds(60)), 0) << watcher.err();
    expect_each_once(ids);
  }

  // Indexes one article of the inbox, and saves the search "oil" as "oil".
  void index_one_article_and_save_oil() {
    write_article(inbox_, 0);
    const testing::RunResult built =
        testing::run_program(QUARRY_INDEX_BIN, testing::index_args(db_, {inbox_}));
    ASSERT_EQ(built.exit_code, 0) << built.err;
    const testing::RunResult saved =
        testing::run_program(QUARRY_BIN, {"alert", "add", "--db", db_.string(), "oil", "oil"});
    ASSERT_EQ(saved.exit_code, 0) << saved.err;
  }

  TempDir dir_;
  fs::path db_ = dir_ / "index";
  fs::path inbox_ = dir_ / "inbox";
  fs::path feed_ = dir_ / "feed.jsonl";
};

// Killed (SIGKILL) while files land and lines are appended, then started
// again: the restart's first run finds what the killed one had not
// committed, and every article is in the index once.
TEST_F(LiveIndexFaults, KilledWhileWatchingThenRestartedHoldsEveryArticleOnce) {
  constexpr std::size_t kEach = 200;
  write_article(inbox_, 0);
  append_line(feed_, 0);
  std::vector<std::string> ids{file_id(0), line_id(0)};
  auto watcher = watch();
  ASSERT_TRUE(eventually([&] { return article_count(db_) == 2; }, std::chrono::seconds(30)))
      << watcher->err();
  for (std::size_t i = 1; i <= kEach; ++i) {
    write_article(inbox_, i);
    append_line(feed_, i);
    ids.push_back(file_id(i));
    ids.push_back(line_id(i));
    // Killed in the middle: some of what was written is committed, not
    // all of it.
    if (i == kEach / 2) {
      ASSERT_TRUE(eventually([&] { return article_count(db_) >= 20; }, std::chrono::seconds(30)));
      watcher->signal(SIGKILL);
      ASSERT_EQ(watcher->wait(std::chrono::seconds(60)), 128 + SIGKILL);
    }
  }
  const std::size_t before_restart = article_count(db_);
  EXPECT_LT(before_restart, ids.size());

  watcher = watch();
  ASSERT_TRUE(
      eventually([&] { return article_count(db_) == ids.size(); }, std::chrono::seconds(60)))
      << watcher->err();
  write_article(inbox_, kEach + 1);
  append_line(feed_, kEach + 1);
  ids.push_back(file_id(kEach + 1));
  ids.push_back(line_id(kEach + 1));
  ASSERT_NO_FATAL_FAILURE(stop_once_it_holds(*watcher, ids));
}

// The kernel's queue of changes holds fs.inotify.max_queued_events: a
// watcher held still (SIGSTOP) while more files land loses their events,
// and the deletion after them. Woken, it reads the folders again: every
// file is indexed and the deleted one's article deleted.
TEST_F(LiveIndexFaults, AnOverflowOfTheKernelsQueueLosesNothing) {
  std::size_t queue = 0;
  std::ifstream("/proc/sys/fs/inotify/max_queued_events") >> queue;
  ASSERT_GT(queue, 0u) << "the kernel does not say how many events it queues";
  write_article(inbox_, 0);
  append_line(feed_, 0);
  auto watcher = watch();
  ASSERT_TRUE(eventually([&] { return article_count(db_) == 2; }, std::chrono::seconds(30)))
      << watcher->err();
  watcher->signal(SIGSTOP);
  // Each file written gives two events (created, closed after writing).
  const std::size_t files = queue / 2 + 100;
  std::vector<std::string> ids{line_id(0)};
  for (std::size_t i = 1; i <= files; ++i) {
    write_article(inbox_, i);
    ids.push_back(file_id(i));
  }
  fs::remove(inbox_ / file_id(0));
  watcher->signal(SIGCONT);
  ASSERT_NO_FATAL_FAILURE(stop_once_it_holds(*watcher, ids));
}

// `count` JSON Lines of news-like English, some 120 words each, the same
// on every run; every 7th mentions oil, and no other line does.
std::string news_feed(std::size_t count) {
  static const char* const kWords[] = {
      "the",     "market",    "shares",   "rose",     "fell",    "company", "said",      "bank",
      "rates",   "trade",     "minister", "talks",    "prices",  "export",  "growth",    "quarter",
      "profit",  "loss",      "dollar",   "yen",      "grain",   "wheat",   "corn",      "coffee",
      "sugar",   "cocoa",     "gold",     "steel",    "ships",   "port",    "strike",    "union",
      "workers", "budget",    "deficit",  "tariff",   "yields",  "bonds",   "offer",     "merger",
      "stake",   "board",     "analysts", "expected", "year",    "month",   "week",      "record",
      "demand",  "supply",    "output",   "plant",    "harvest", "weather", "officials", "report",
      "economy", "inflation", "central",  "agreed",   "percent", "million", "billion",   "tonnes"};
  std::mt19937 random(20261204);
  std::uniform_int_distribution<std::size_t> word(0, std::size(kWords) - 1);
  std::string feed;
  for (std::size_t i = 0; i < count; ++i) {
    std::string body;
    for (int w = 0; w < 120; ++w) {
      if (w > 0) body += (w % 15 == 0) ? ". " : " ";
      body += kWords[word(random)];
      if (i % 7 == 0 && w == 60) body += " oil";
    }
    feed += R"({"id": ")" + line_id(i) + R"(", "title": "Report )" + std::to_string(i) +
            R"(", "date": "2026-12-04", "body": ")" + body + ".\"}\n";
  }
  return feed;
}

// A saved search beside a feed read at full speed from standard input:
// the writer commits as fast as it can while every commit is matched, and
// the matching reads an index that changes under it all along. Matching
// never stops the feed: every line is indexed, the run exits 0, and every
// match is alerted once.
TEST_F(LiveIndexFaults, ASavedSearchBesideAFullSpeedFeedStopsNothingAndAlertsEachMatchOnce) {
  constexpr std::size_t kLines = 20000;
  ASSERT_NO_FATAL_FAILURE(index_one_article_and_save_oil());

  const testing::RunResult fed =
      testing::run_program(QUARRY_INDEX_BIN, testing::index_args(db_, {"-"}), news_feed(kLines));
  EXPECT_EQ(fed.exit_code, 0) << fed.err;
  EXPECT_EQ(article_count(db_), kLines + 1);

  // What the search finds in the index as the run left it.
  const SearchResult found = every_match(db_, "oil", 2 * kLines);
  EXPECT_EQ(found.total, (kLines + 6) / 7);
  const AlertTally tally = tally_alerts(db_, found);
  EXPECT_EQ(tally.searches, std::set<std::string>{"oil"});
  EXPECT_EQ(tally.missed, 0u);
  EXPECT_EQ(tally.twice, 0u);
  EXPECT_EQ(tally.alerted, found.total);
}

// A burst of more articles than the writer holds between commits (a fast
// feed, a long commit interval): the writer would commit them by itself,
// without the note of the articles to alert on. The live index commits them
// first, with their note, so that a kill after that commit loses none of
// their alerts: the next start delivers them.
TEST_F(LiveIndexFaults, ABurstCommittedBeforeTheIntervalKeepsItsAlertsThroughAKill) {
  constexpr std::size_t kLines = 9500;
  ASSERT_NO_FATAL_FAILURE(index_one_article_and_save_oil());
  {
    testing::ChildOptions options;
    options.pipe_in = true;
    ChildProcess feed(QUARRY_INDEX_BIN,
                      testing::index_args(db_, {"-"}, {"--commit-interval", "3600"}), dir_.path(),
                      options);
    ASSERT_TRUE(feed.write_in(news_feed(kLines)));
    // Input stays open and the interval is an hour: the one commit that
    // can come is the one the burst forces; killed once it is in.
    ASSERT_TRUE(eventually([&] { return article_count(db_) > 1; }, std::chrono::seconds(300)));
    feed.signal(SIGKILL);
    feed.wait();
  }
  const std::size_t committed = article_count(db_);
  ASSERT_GT(committed, 1u);
  ASSERT_LT(committed, kLines + 1);
  const testing::RunResult restarted =
      testing::run_program(QUARRY_INDEX_BIN, testing::index_args(db_, {"-"}), "");
  ASSERT_EQ(restarted.exit_code, 0) << restarted.err;
  const SearchResult found = every_match(db_, "oil", 2 * kLines);
  ASSERT_GT(found.total, 0u);
  const AlertTally tally = tally_alerts(db_, found);
  EXPECT_EQ(tally.missed, 0u);
  EXPECT_EQ(tally.twice, 0u);
  EXPECT_EQ(tally.alerted, found.total);
}

}  // namespace
}  // namespace quarry::testing
