#include "lib/index/story_linker.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <xapian.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "lib/index/index_writer_access.h"
#include "lib/index/parallel_build.h"
#include "lib/index/schema.h"
#include "lib/index/shard_set.h"
#include "lib/index/story_signature.h"
#include "quarry/index/index_writer.h"
#include "quarry/input/article_reader.h"
#include "quarry/search/searcher.h"
#include "tests/test_util.h"

namespace quarry {
namespace {

namespace fs = std::filesystem;
using testing::read_file;
using testing::TempDir;
using testing::write_file;

// The sample articles: one Manchester derby told by three outlets.
constexpr char kFirst[] = "000_574c536d11495eda.txt";
constexpr char kSecond[] = "001_371a5a90d3b1c93b.txt";
constexpr char kThird[] = "002_d1cfeb7c7497b831.txt";

constexpr char kOtherStory[] =
    "Title: Oil prices slide as OPEC output rises\nDate: 2017-12-11\n\n"
    "Oil prices fell for a third day on Monday after figures showed that OPEC members pumped "
    "more crude in November than in any month this year, and American shale producers added "
    "rigs. Brent crude futures lost 2 percent in London trading, and analysts at two banks cut "
    "their forecasts for the first quarter, citing rising inventories in Asia.\n";

struct Group {
  std::string story;
  std::string duplicate;
  bool operator==(const Group&) const = default;
};

// Each article's story and duplicate keys, by id, read from the index at
// `db` (one database, or a shard set's folder).
std::map<std::string, Group> groups(const std::string& db) {
  Xapian::Database database(db);
  std::map<std::string, Group> found;
  for (auto it = database.postlist_begin(""); it != database.postlist_end(""); ++it) {
    const Xapian::Document doc = database.get_document(*it);
    found[detail::id_of_hit_order_key(doc.get_value(detail::kHitOrderSlot))] = {
        doc.get_value(detail::kStorySlot), doc.get_value(detail::kDuplicateSlot)};
  }
  return found;
}

void copy_sample(const fs::path& folder, const std::string& name) {
  fs::create_directories(folder);
  fs::copy_file(fs::path(QUARRY_CORPUS_DIR) / name, folder / name,
                fs::copy_options::overwrite_existing);
}

IndexReport index_folder(const std::string& db, const fs::path& folder, std::size_t threads = 0,
                         std::size_t shards = 0) {
  IndexConfig config;
  config.db_path = db;
  config.threads = threads;
  config.shards = shards;
  return index_paths(config, {folder.string()});
}

SearchOptions collapsing(Collapse collapse) {
  SearchOptions options;
  options.collapse.by = collapse;
  options.snippets.enabled = false;
  return options;
}

TEST(StorySignature, EditedCopyResemblesItsOriginalAndOtherTextsDoNot) {
  std::vector<std::uint64_t> original;
  for (std::uint64_t word = 0; word < 300; ++word) original.push_back(word * 7919);
  std::vector<std::uint64_t> edited = original;
  edited[100] = 1;  // a word changed, a word dropped, a sentence added
  edited.erase(edited.begin() + 200);
  for (std::uint64_t word = 0; word < 10; ++word) edited.push_back(word + 5);
  std::vector<std::uint64_t> other;
  for (std::uint64_t word = 0; word < 300; ++word) other.push_back(word * 104729 + 3);
  const detail::MinHash a = detail::min_hash(original);
  EXPECT_EQ(detail::resemblance(a, a), 1.0);
  EXPECT_GE(detail::resemblance(a, detail::min_hash(edited)), detail::kDuplicateResemblance);
  EXPECT_LT(detail::resemblance(a, detail::min_hash(other)), 0.2);
}

TEST(StorySignature, ValuesRoundTrip) {
  const detail::MinHash sketch = detail::min_hash({1, 2, 3, 4, 5});
  detail::MinHash back;
  ASSERT_TRUE(detail::decode_min_hash(detail::encode_min_hash(sketch), &back));
  EXPECT_EQ(back, sketch);
  EXPECT_FALSE(detail::decode_min_hash("short", &back));
  const std::vector<detail::StemCount> stems = {{"Zderbi", 3}, {"Zmourinho", 300}};
  const std::vector<detail::StemCount> expected = {{"Zderbi", 3}, {"Zmourinho", 255}};
  EXPECT_EQ(detail::decode_stem_counts(detail::encode_stem_counts(stems)), expected);
  EXPECT_TRUE(detail::decode_stem_counts("\x09truncated").empty());
}

TEST(StoryKeys, MembersListsHoldAnyIdsInOrder) {
  const std::vector<std::string> ids = {"b", std::string(300, 'x'), std::string("n\0l\n", 4), "",
                                        "a"};
  std::vector<std::string> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(detail::decode_members(detail::encode_members(ids)), sorted);
  EXPECT_TRUE(detail::decode_members("").empty());
  // A list cut short gives the ids before the cut.
  const std::string list = detail::encode_members({"first", "second"});
  EXPECT_EQ(detail::decode_members(list.substr(0, list.size() - 1)),
            std::vector<std::string>{"first"});
}

TEST(StoryLinker, SampleArticlesAreOneStoryShownOnce) {
  TempDir dir;
  const std::string db = (dir / "index").string();
  index_folder(db, QUARRY_CORPUS_DIR);
  const std::map<std::string, Group> expected = {
      {kFirst, {kFirst, ""}}, {kSecond, {kFirst, ""}}, {kThird, {kFirst, ""}}};
  EXPECT_EQ(groups(db), expected);

  Searcher searcher(db);
  const SearchResult once = searcher.search("penalty Herrera", collapsing(Collapse::kStory));
  EXPECT_EQ(once.total, 3U);
  EXPECT_EQ(once.stories, 1U);
  EXPECT_TRUE(once.stories_exact);
  ASSERT_EQ(once.hits.size(), 1U);
  EXPECT_EQ(once.hits[0].story, kFirst);
  EXPECT_EQ(once.hits[0].more_total, 2U);
  std::vector<std::string> all = once.hits[0].more;
  all.push_back(once.hits[0].id);
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, (std::vector<std::string>{kFirst, kSecond, kThird}));

  const SearchResult every = searcher.search("penalty Herrera", collapsing(Collapse::kNone));
  EXPECT_EQ(every.hits.size(), 3U);
  EXPECT_EQ(every.stories, 3U);
  for (const Hit& hit : every.hits) EXPECT_EQ(hit.more_total, 0U);
  // Three outlets' wording: one story, but no two of them copies.
  EXPECT_EQ(searcher.search("penalty Herrera", collapsing(Collapse::kDuplicates)).hits.size(), 3U);
}

TEST(StoryLinker, ArticleAddedLaterJoinsItsStory) {
  TempDir dir;
  const std::string db = (dir / "index").string();
  copy_sample(dir / "in", kSecond);
  copy_sample(dir / "in", kThird);
  index_folder(db, dir / "in");
  EXPECT_EQ(groups(db)[kThird].story, kSecond);
  copy_sample(dir / "in", kFirst);
  index_folder(db, dir / "in");
  for (const auto& [id, group] : groups(db)) EXPECT_EQ(group.story, kFirst) << id;
}

TEST(StoryLinker, ChangedArticleLeavesAndDeletedArticlesLeaveTheRestTogether) {
  TempDir dir;
  const std::string db = (dir / "index").string();
  for (const char* name : {kFirst, kSecond, kThird}) copy_sample(dir / "in", name);
  index_folder(db, dir / "in");

  write_file(dir / "in" / kSecond, kOtherStory);
  index_folder(db, dir / "in");
  std::map<std::string, Group> now = groups(db);
  EXPECT_EQ(now[kSecond].story, "");
  EXPECT_EQ(now[kFirst].story, kFirst);
  EXPECT_EQ(now[kThird].story, kFirst);

  // The key holder goes: the others keep one key, their smallest id.
  copy_sample(dir / "in", kSecond);
  index_folder(db, dir / "in");
  fs::remove(dir / "in" / kFirst);
  index_folder(db, dir / "in");
  now = groups(db);
  ASSERT_EQ(now.size(), 2U);
  EXPECT_EQ(now[kSecond].story, kSecond);
  EXPECT_EQ(now[kThird].story, kSecond);
  Xapian::Database database(db);
  EXPECT_TRUE(detail::group_members(database, detail::GroupKind::kStory, kFirst).empty());
  EXPECT_EQ(detail::group_members(database, detail::GroupKind::kStory, kSecond),
            (std::vector<std::string>{kSecond, kThird}));

  // Alone, an article has no story.
  fs::remove(dir / "in" / kSecond);
  index_folder(db, dir / "in");
  EXPECT_EQ(groups(db)[kThird].story, "");
}

// The articles of `folder`, read as the indexer reads them.
std::vector<Article> articles_in(const fs::path& folder) {
  struct Collect : ArticleSink {
    std::vector<Article> articles;
    void on_article(Article&& article, const SourceLocation&) override {
      articles.push_back(std::move(article));
    }
    void on_problem(const ReadProblem& problem) override { ADD_FAILURE() << problem.reason; }
  } sink;
  read_articles(folder, sink);
  return sink.articles;
}

TEST(StoryLinker, KilledBuildIsLinkedWhenTheNextRunAdoptsIt) {
  TempDir dir;
  const std::string db = (dir / "index").string();
  {
    detail::ParallelBuild build(db, "english", 2, 1000);
    for (Article& article : articles_in(QUARRY_CORPUS_DIR)) {
      build.add(std::move(article), QUARRY_CORPUS_DIR);
    }
  }  // never published, as when the process is killed: the parts stay behind
  index_folder(db, QUARRY_CORPUS_DIR);
  for (const char* id : {kFirst, kSecond, kThird}) EXPECT_EQ(groups(db)[id].story, kFirst) << id;
}

// Articles of one bag of words, `words` in turn from `first` on, and
// `name` three times: shuffled alike, two such texts are of one story but
// no copies (they share no run of four words).
std::string rotated_text(const std::vector<std::string>& words, std::size_t first,
                         const std::string& name, bool reversed) {
  std::string text = "Title: " + name + "\n\n";
  for (int time = 0; time < 3; ++time) text += name + " ";
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::size_t at = (first + i) % words.size();
    text += words[reversed ? words.size() - 1 - at : at] + " ";
  }
  return text + "\n";
}

// A first build killed after committing some articles, then run again, is
// linked as if it had run through: by the words' frequencies in the whole
// index, not in the part committed before the kill.
TEST(StoryLinker, AResumedBuildIsLinkedAsABuildRunThrough) {
  const std::vector<std::string> common = {"market",  "shares", "company",   "profit",
                                           "quarter", "sales",  "investors", "growth"};
  TempDir dir;
  const fs::path in = dir / "in";
  // Two reports sharing the names zorblatt and quixmoor: rare among the
  // first articles, of one story there; two more articles name them too.
  std::vector<std::pair<std::string, std::string>> first;
  for (std::size_t k = 0; k < common.size(); ++k) {
    first.emplace_back("filler-" + std::to_string(k) + ".txt",
                       rotated_text(common, k, "filler" + std::string(1, char('a' + k)), false));
  }
  first.emplace_back("a1.txt", rotated_text(common, 0, "zorblatt quixmoor", false));
  first.emplace_back("a2.txt", rotated_text(common, 3, "zorblatt quixmoor", true));
  std::vector<std::pair<std::string, std::string>> later;
  for (const char* name : {"a4", "a5"}) {
    std::string text = "Title: elsewhere\n\n";
    for (int word = 0; word < 20; ++word)
      text += std::string(name) + "x" + std::to_string(word) + " ";
    later.emplace_back(std::string(name) + ".txt", text + "zorblatt quixmoor zorblatt quixmoor\n");
  }
  for (const auto& [name, text] : first) write_file(in / name, text);
  const std::string db = (dir / "index").string();
  {
    detail::ParallelBuild build(db, "english", 2, 1000);
    for (Article& article : articles_in(in)) build.add(std::move(article), in.string());
  }  // never published, as when the process is killed: the parts stay behind
  for (const auto& [name, text] : later) write_file(in / name, text);
  index_folder(db, in);
  const std::string clean = (dir / "clean").string();
  index_folder(clean, in);
  const std::map<std::string, Group> expected = groups(clean);
  ASSERT_EQ(expected.size(), first.size() + later.size());
  // Among all of them the two names are not rare enough to make a story.
  EXPECT_EQ(expected.at("a1.txt").story, "");
  EXPECT_EQ(groups(db), expected);
}

// A run killed after committing articles, before linking them, or a writer
// let go without commit() (Xapian commits its articles): the next writer's
// commit links them, in one database as in a shard set.
TEST(StoryLinker, ArticlesCommittedButNotLinkedAreLinkedByTheNextCommit) {
  for (const auto& [shards, checkpoint] :
       {std::pair<std::size_t, bool>{0, true}, {2, true}, {0, false}, {2, false}}) {
    SCOPED_TRACE(std::to_string(shards) + " shards" + (checkpoint ? "" : ", no checkpoint"));
    TempDir dir;
    write_file(dir / "in" / "004_oil.txt", kOtherStory);
    for (const char* name : {kFirst, kSecond, kThird}) copy_sample(dir / "in", name);
    const std::string clean = (dir / "clean").string();
    index_folder(clean, dir / "in", 0, shards);

    const std::string db = (dir / "index").string();
    write_file(dir / "first" / "004_oil.txt", kOtherStory);
    index_folder(db, dir / "first", 0, shards);
    IndexConfig config;
    config.db_path = db;
    {
      IndexWriter writer(config);
      for (const Article& article : articles_in(dir / "in")) writer.upsert(article, "in");
      if (checkpoint) detail::IndexWriterAccess::checkpoint(writer);
    }  // never committed, as when the process is killed after a checkpoint
    ASSERT_EQ(groups(db)[kFirst].story, "");
    IndexWriter(config).commit();
    EXPECT_EQ(groups(db), groups(clean));
    EXPECT_EQ(groups(db)[kThird].story, kFirst);
  }
}

// The three sample articles of one story, in their order.
std::vector<Article> story_samples() {
  std::vector<Article> samples = articles_in(fs::path(QUARRY_CORPUS_DIR));
  std::erase_if(samples, [](const Article& a) {
    return a.id != kFirst && a.id != kSecond && a.id != kThird;
  });
  return samples;
}

// An article of another story.
Article oil_article() {
  Article oil;
  oil.id = "004_oil.txt";
  oil.body = kOtherStory;
  return oil;
}

// Copy `i` of one wire text resent many times, a word of its own at the end.
Article resent_copy(std::size_t i) {
  std::string body;
  for (int word = 0; word < 80; ++word) body += "word" + std::to_string(word * 7 % 83) + " ";
  Article copy;
  copy.id = "copy-" + std::to_string(i);
  copy.title = "Resent " + std::to_string(i);
  copy.body = body + "correction" + std::to_string(i) + ".";
  copy.date = "2024-03-0" + std::to_string(1 + i % 3);
  return copy;
}

// A live index links each commit's articles with every article's bands
// kept from the commit before, rather than read anew: the stories and
// copies found must be the same, as articles arrive, change and change
// back, and as a text resent many times fills its bands' buckets beyond
// the neighbours each article is compared with.
TEST(StoryLinker, BandsKeptBetweenCommitsLinkAsBandsReadAnew) {
  for (const std::size_t shards : {0, 2}) {
    SCOPED_TRACE(std::to_string(shards) + " shards");
    TempDir dir;
    const std::vector<Article> samples = story_samples();
    ASSERT_EQ(samples.size(), 3U);
    const Article oil = oil_article();
    Article changed = samples[2];
    changed.body = kOtherStory;
    std::vector<Article> copies;
    for (std::size_t i = 0; i < 40; ++i) copies.push_back(resent_copy(i));
    // Each step is one commit.
    std::vector<std::vector<Article>> steps = {
        {samples[1]}, {samples[2], oil}, {changed}, {samples[2]}, {samples[0]}};
    for (std::size_t from = 0; from < copies.size(); from += 10) {
      steps.emplace_back(copies.begin() + from, copies.begin() + from + 10);
    }

    // The groups after each step, with bands read anew and kept.
    std::vector<std::map<std::string, Group>> found[2];
    for (const bool keep : {false, true}) {
      IndexConfig config;
      config.db_path = (dir / (keep ? "kept" : "anew")).string();
      config.shards = shards;
      IndexWriter writer(config);
      if (keep) detail::IndexWriterAccess::keep_story_bands(writer);
      for (const std::vector<Article>& step : steps) {
        for (const Article& article : step) writer.upsert(article, "in");
        writer.commit();
        found[keep].push_back(groups(config.db_path));
      }
    }
    EXPECT_EQ(found[1], found[0]);
    EXPECT_EQ(found[1].back()["copy-39"].duplicate, "copy-0");
    EXPECT_EQ(found[1].back()[kThird].story, kFirst);
  }
}

// An update of many articles ranks their story candidates in memory and
// reads only the bands they hold; one of a few searches for each. Both
// must link alike.
TEST(StoryLinker, ManyArticlesAddedAtOnceLinkAsAFewAtATime) {
  TempDir dir;
  const std::vector<Article> samples = story_samples();
  ASSERT_EQ(samples.size(), 3U);
  // The first commit holds the first article of the story and the first
  // copies; the update the rest.
  std::vector<Article> first = {samples[0]};
  std::vector<Article> added = {samples[1], samples[2], oil_article()};
  for (std::size_t i = 0; i < 300; ++i) (i < 10 ? first : added).push_back(resent_copy(i));
  std::map<std::string, Group> found[2];
  for (const bool at_once : {false, true}) {
    IndexConfig config;
    config.db_path = (dir / (at_once ? "at-once" : "a-few")).string();
    IndexWriter writer(config);
    for (const Article& article : first) writer.upsert(article, "in");
    writer.commit();
    for (std::size_t from = 0; from < added.size(); from += at_once ? added.size() : 10) {
      const std::size_t to = std::min(added.size(), from + (at_once ? added.size() : 10));
      for (std::size_t i = from; i < to; ++i) writer.upsert(added[i], "in");
      writer.commit();
    }
    found[at_once] = groups(config.db_path);
  }
  EXPECT_EQ(found[1], found[0]);
  EXPECT_EQ(found[1]["copy-299"].duplicate, "copy-0");
  EXPECT_EQ(found[1][kThird].story, kFirst);
}

// `count` copies of one wire story as JSON Lines, each with a word of its
// own and a line of its own at the end, as corrections are resent.
std::string resent_story(std::size_t count) {
  std::string body;
  for (int word = 0; word < 80; ++word) body += "word" + std::to_string(word * 7 % 83) + " ";
  std::string lines;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string n = std::to_string(i);
    lines += R"({"id": "copy-)" + n + R"(", "title": "Resent )" + n + R"(", "body": ")" + body +
             "correction" + n + R"(. Corrected copy )" + n + R"(.", "date": "2024-03-0)" +
             std::to_string(1 + i % 3) + "\"}\n";
  }
  return lines;
}

std::atomic<bool> interrupted{false};
extern "C" void on_interrupt(int) { interrupted.store(true); }

// Sends SIGINT, to a handler that sets `interrupted` as quarry-index's
// does, on the first news that stories are being linked.
class InterruptWhileLinking : public IndexObserver {
 public:
  void on_progress(const IndexReport& so_far) override {
    if (so_far.step != IndexStep::kLinkingStories || so_far.linked == 0) return;
    if (interrupted.load()) {
      // The run's last report may repeat the last step.
      if (so_far.linked > linked_) ++linked_after_;
      return;
    }
    linked_ = so_far.linked;
    std::raise(SIGINT);
  }
  std::size_t linked() const { return linked_; }
  // Reports of more articles linked after the signal.
  std::size_t linked_after() const { return linked_after_; }

 private:
  std::size_t linked_ = 0;
  std::size_t linked_after_ = 0;
};

// Interrupted while it links a large group of copies, a run stops at once,
// writing no key, says it was cancelled, and the next run links them all,
// as a run that was not interrupted does: for a new index and an update.
TEST(StoryLinker, InterruptedWhileLinkingStopsAndTheNextRunLinks) {
  constexpr std::size_t kCopies = 1500;
  TempDir dir;
  write_file(dir / "in" / "copies.jsonl", resent_story(kCopies));
  const std::string clean = (dir / "clean").string();
  index_folder(clean, dir / "in");
  const std::map<std::string, Group> expected = groups(clean);
  ASSERT_EQ(expected.size(), kCopies);
  for (const auto& [id, group] : expected) ASSERT_EQ(group.story, "copy-0") << id;

  struct sigaction handler {};
  struct sigaction before {};
  handler.sa_handler = on_interrupt;
  ASSERT_EQ(sigaction(SIGINT, &handler, &before), 0);
  for (const bool update : {false, true}) {
    SCOPED_TRACE(update ? "update" : "new index");
    const std::string db = (dir / (update ? "update" : "new")).string();
    if (update) {
      write_file(dir / "first" / "oil.txt", kOtherStory);
      index_folder(db, dir / "first");
    }
    interrupted = false;
    IndexConfig config;
    config.db_path = db;
    config.cancel = &interrupted;
    InterruptWhileLinking observer;
    const IndexReport report = index_paths(config, {(dir / "in").string()}, &observer);
    EXPECT_TRUE(report.cancelled);
    EXPECT_GT(observer.linked(), 0U);
    EXPECT_LT(observer.linked(), report.to_link);
    EXPECT_EQ(observer.linked_after(), 0U);
    if (update) {
      for (const auto& [id, group] : groups(db)) EXPECT_EQ(group.story, "") << id;
    } else {
      EXPECT_TRUE(detail::index_absent(db));
    }

    config.cancel = nullptr;
    EXPECT_FALSE(index_paths(config, {(dir / "in").string()}).cancelled);
    std::map<std::string, Group> now = groups(db);
    now.erase("oil.txt");
    EXPECT_EQ(now, expected);
  }
  sigaction(SIGINT, &before, nullptr);
}

TEST(StoryLinker, StorySplitOverShardsIsShownOnce) {
  // The sample articles fall in both shards of two.
  ASSERT_EQ((std::set<std::size_t>{detail::shard_of(kFirst, 2), detail::shard_of(kSecond, 2),
                                   detail::shard_of(kThird, 2)})
                .size(),
            2U);
  TempDir dir;
  const std::string db = (dir / "set").string();
  index_folder(db, QUARRY_CORPUS_DIR, 0, 2);
  for (const auto& [id, group] : groups(db)) EXPECT_EQ(group.story, kFirst) << id;
  Searcher searcher(db);
  const SearchResult once = searcher.search("penalty Herrera", collapsing(Collapse::kStory));
  ASSERT_EQ(once.hits.size(), 1U);
  EXPECT_EQ(once.hits[0].more_total, 2U);
  EXPECT_EQ(once.stories, 1U);
  EXPECT_TRUE(once.stories_exact);
  SearchOptions none = collapsing(Collapse::kStory);
  none.limit = 0;
  EXPECT_EQ(searcher.search("penalty Herrera", none).stories, 1U);
}

TEST(StoryLinker, GroupsDoNotDependOnThreadsOrOrder) {
  TempDir dir;
  const fs::path in = dir / "in";
  for (const char* name : {kFirst, kSecond, kThird}) copy_sample(in, name);
  // A copy of the first, lightly edited; and an unrelated article.
  std::string copy = read_file(in / kFirst);
  copy.replace(copy.find("reportedly"), 10, "allegedly");
  write_file(in / "003_copy.txt", copy + "\nMore follows.\n");
  write_file(in / "004_oil.txt", kOtherStory);

  const std::string parallel = (dir / "parallel").string();
  index_folder(parallel, in, 2);
  const std::map<std::string, Group> built = groups(parallel);
  EXPECT_EQ(built.at("003_copy.txt"), (Group{kFirst, kFirst}));
  EXPECT_EQ(built.at(kFirst), (Group{kFirst, kFirst}));
  EXPECT_EQ(built.at(kSecond), (Group{kFirst, ""}));
  EXPECT_EQ(built.at("004_oil.txt"), (Group{"", ""}));

  // One article a run, in the opposite order, one thread.
  const std::string one_by_one = (dir / "one").string();
  const fs::path growing = dir / "growing";
  fs::create_directories(growing);
  for (const char* name : {"004_oil.txt", "003_copy.txt", kThird, kSecond, kFirst}) {
    fs::copy_file(in / name, growing / name);
    index_folder(one_by_one, growing, 1);
  }
  EXPECT_EQ(groups(one_by_one), built);

  Searcher searcher(parallel);
  const SearchResult copies =
      searcher.search("Mourinho Ederson", collapsing(Collapse::kDuplicates));
  EXPECT_EQ(copies.total, 4U);
  EXPECT_EQ(copies.hits.size(), 3U);
}

}  // namespace
}  // namespace quarry
