// Runs the real quarry program on a pseudo-terminal, as a person would type
// at its prompt: line editing, history, completion, Ctrl-C and Ctrl-D.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "app/common/terminal_text.h"
#include "quarry/index/index_writer.h"
#include "quarry/search/searcher.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;

constexpr char kPrompt[] = "quarry> ";
constexpr char kEnter[] = "\r";
constexpr char kCtrlC[] = "\x03";
constexpr char kCtrlD[] = "\x04";
constexpr char kUp[] = "\x1b[A";

// The sample articles; every one of them has "penalty", "Herrera",
// "Ederson" and "milk".
const std::vector<std::string> kAllArticles = {
    "000_574c536d11495eda.txt", "001_371a5a90d3b1c93b.txt", "002_d1cfeb7c7497b831.txt"};
constexpr char kAllHits[] = "Hits 1-3 of 3 (";

// The last line of an article file: body text no snippet shows.
std::string last_line_of(const std::string& id) {
  std::string last;
  for (const std::string& line : lines_of(read_file(fs::path(QUARRY_CORPUS_DIR) / id))) {
    if (!line.empty()) last = line;
  }
  return last;
}

// Each test has a home and history of its own over the shared index.
class TerminalTest : public SharedIndexTest {
 protected:
  // quarry at a prompt of its own, with no local configuration or history
  // but this test's.
  std::unique_ptr<Pty> start(const std::vector<std::string>& args = {},
                             const std::string& pager = "cat") {
    std::vector<std::string> all{"--db", db_path(), "--color", "never"};
    all.insert(all.end(), args.begin(), args.end());
    // The sample articles are one story: unless told otherwise, these tests
    // see each of them.
    if (std::find(args.begin(), args.end(), "--collapse") == args.end()) {
      all.insert(all.end(), {"--collapse", "none"});
    }
    auto pty = std::make_unique<Pty>(
        QUARRY_BIN, all,
        std::vector<std::string>{"TERM=xterm", "INPUTRC=/dev/null", "HOME=" + home_.string(),
                                 "XDG_STATE_HOME=" + state_.string(), "PAGER=" + pager,
                                 "NO_COLOR=1", "LANG=C.UTF-8", "LC_ALL=C.UTF-8"});
    // Typing before readline sets the terminal up would be echoed by the
    // terminal itself.
    EXPECT_TRUE(pty->wait_for(kPrompt)) << pty->output();
    return pty;
  }

  fs::path history_file() const { return state_ / "quarry" / "history"; }

  TempDir dir_;
  const fs::path home_ = dir_ / "home";
  const fs::path state_ = dir_ / "state";
};

TEST_F(TerminalTest, QueryShowsHitsAndCountsThem) {
  auto pty = start();
  pty->type("penalty Herrera" + std::string(kEnter));
  ASSERT_TRUE(pty->wait_for(kAllHits)) << pty->output();
  for (const std::string& id : kAllArticles) {
    EXPECT_NE(pty->output().find(id), std::string::npos) << id << " in\n" << pty->output();
  }
  EXPECT_TRUE(pty->wait_for(kPrompt)) << "the prompt comes back\n" << pty->output();
  EXPECT_TRUE(pty->running());
}

TEST_F(TerminalTest, NextShowsTheNextPage) {
  auto pty = start({"-n", "1"});
  pty->type("penalty Herrera" + std::string(kEnter));
  ASSERT_TRUE(pty->wait_for("Hits 1-1 of 3 (")) << pty->output();
  ASSERT_TRUE(pty->wait_for(kPrompt)) << pty->output();
  pty->type(":next" + std::string(kEnter));
  ASSERT_TRUE(pty->wait_for("2. ")) << pty->output();
  EXPECT_TRUE(pty->wait_for("Hits 2-2 of 3 (")) << pty->output();
}

// The widest title or snippet line of an answer the terminal shows,
// escapes left out (the line of a hit's id and fields is not wrapped).
std::size_t widest_line(std::string_view shown) {
  std::size_t widest = 0;
  for (std::size_t start = 0; start < shown.size();) {
    const std::size_t end = std::min(shown.find("\r\n", start), shown.size());
    const std::string_view line = shown.substr(start, end - start);
    if (line.find(".txt · ") == std::string_view::npos) {
      widest = std::max(widest, display_width(line));
    }
    start = end + 2;
  }
  return widest;
}

// A terminal made narrower (SIGWINCH) has the answers from then on wrapped
// to its new width, not the width it had when the prompt opened.
TEST_F(TerminalTest, AnswersFollowTheTerminalResized) {
  auto pty = start();  // 200 columns
  // The widest line of the answer to the query typed now: after the line
  // typed, before the count of the hits.
  const auto answer_width = [&] {
    const std::size_t typed = pty->output().size();
    pty->type("penalty Herrera" + std::string(kEnter));
    EXPECT_TRUE(pty->wait_for(kAllHits)) << pty->output();
    EXPECT_TRUE(pty->wait_for(kPrompt)) << pty->output();
    const std::string shown = pty->output().substr(typed);
    const std::size_t start = shown.find("\r\n") + 2;
    return widest_line(std::string_view(shown).substr(start, shown.find(kAllHits) - start));
  };
  EXPECT_GT(answer_width(), 60u) << "the snippets fill wide lines\n" << pty->output();
  pty->resize(24, 60);
  // Asleep waiting for keys again, it has had the signal.
  ASSERT_TRUE(pty->wait_idle()) << pty->output();
  EXPECT_LE(answer_width(), 60u) << pty->output();
  EXPECT_TRUE(pty->running());
}

// With stories collapsed, the pages go through the stories, and the count
// under them says how many there are to page through.
TEST_F(TerminalTest, TheFooterCountsTheStoriesPagedThrough) {
  auto pty = start({"--collapse", "story"});
  pty->type("penalty Herrera" + std::string(kEnter));
  ASSERT_TRUE(pty->wait_for("3 articles match, 1 story")) << pty->output();
  EXPECT_TRUE(pty->wait_for("Hits 1-1 of 1 story (")) << pty->output();
}

TEST_F(TerminalTest, ShowWritesTheArticleThroughThePager) {
  // The first article is longer than the 24 rows of the terminal.
  auto pty = start({}, "sed 's/^/paged: /'");
  pty->type("penalty Herrera" + std::string(kEnter));
  ASSERT_TRUE(pty->wait_for(kAllHits)) << pty->output();
  ASSERT_TRUE(pty->wait_for(kPrompt)) << pty->output();
  const std::string id = Searcher(db_path()).search("penalty Herrera").hits.at(0).id;
  pty->type(":show 1" + std::string(kEnter));
  ASSERT_TRUE(pty->wait_for("paged: " + last_line_of(id))) << pty->output();
  EXPECT_TRUE(pty->wait_for(kPrompt)) << pty->output();
}

TEST_F(TerminalTest, HistoryIsKeptBetweenRuns) {
  {
    auto pty = start();
    for (const char* line : {"Ederson", "", "   ", "Ederson"}) {
      pty->type(line + std::string(kEnter));
      ASSERT_TRUE(pty->wait_for(kPrompt)) << pty->output();
    }
    pty->type(kCtrlD);
    ASSERT_EQ(pty->wait_exit(), 0) << pty->output();
  }
  EXPECT_EQ(lines_of(read_file(history_file())), std::vector<std::string>{"Ederson"})
      << "once, and without blank lines";

  auto pty = start();
  pty->type(kUp);
  ASSERT_TRUE(pty->wait_for("Ederson")) << "Up recalls the last line\n" << pty->output();
  pty->type(kEnter);
  ASSERT_TRUE(pty->wait_for(kAllHits)) << pty->output();
  ASSERT_TRUE(pty->wait_for(kPrompt)) << pty->output();
  pty->type(":quit" + std::string(kEnter));
  ASSERT_EQ(pty->wait_exit(), 0) << pty->output();
  EXPECT_EQ(lines_of(read_file(history_file())), (std::vector<std::string>{"Ederson", ":quit"}));
}

TEST_F(TerminalTest, CtrlCAbandonsTheLine) {
  auto pty = start();
  pty->type("mourin");
  // A Ctrl-C flushes what the terminal holds: let the echo through first.
  ASSERT_TRUE(pty->wait_for("mourin")) << pty->output();
  ASSERT_TRUE(pty->wait_idle()) << pty->output();
  pty->type(kCtrlC);
  ASSERT_TRUE(pty->wait_for("^C")) << pty->output();
  ASSERT_TRUE(pty->wait_for(kPrompt)) << pty->output();
  EXPECT_TRUE(pty->running());
  pty->type("milk" + std::string(kEnter));
  ASSERT_TRUE(pty->wait_for(kAllHits)) << pty->output();
  EXPECT_EQ(pty->output().find("No articles match."), std::string::npos) << "mourin was searched\n"
                                                                         << pty->output();
  EXPECT_EQ(pty->output().find("Hits "), pty->output().rfind("Hits ")) << pty->output();
  // While a line is answered the terminal is back in cooked mode, where
  // Ctrl-D is no key: press it at the prompt, as a person would.
  ASSERT_TRUE(pty->wait_for(kPrompt)) << pty->output();
  ASSERT_TRUE(pty->wait_idle()) << pty->output();
  pty->type(kCtrlD);
  ASSERT_EQ(pty->wait_exit(), 0) << pty->output();
  EXPECT_EQ(lines_of(read_file(history_file())), std::vector<std::string>{"milk"});
}

TEST_F(TerminalTest, CtrlCWhileBusyIsNotHeldBackForTheNextKey) {
  // A pager that ignores Ctrl-C (as less does) and ends when Enter is
  // pressed: quarry is busy waiting for it when Ctrl-C comes.
  auto pty = start({}, "trap '' INT; cat > /dev/null; echo paging; read line < /dev/tty");
  pty->type("penalty Herrera" + std::string(kEnter));
  ASSERT_TRUE(pty->wait_for(kAllHits)) << pty->output();
  pty->type(":show 1" + std::string(kEnter));
  ASSERT_TRUE(pty->wait_for("paging")) << pty->output();
  pty->type(kCtrlC);
  pty->type(kEnter);
  ASSERT_TRUE(pty->wait_for(kPrompt)) << pty->output();
  // Whether the Ctrl-C is answered at once or not at all, it is done with
  // by the time quarry waits for keys again.
  ASSERT_TRUE(pty->wait_idle()) << pty->output();
  const std::size_t typed_at = pty->output().size();
  pty->type("milk" + std::string(kEnter));
  ASSERT_TRUE(pty->wait_for(kAllHits)) << pty->output();
  EXPECT_EQ(pty->output().find("^C", typed_at), std::string::npos)
      << "a stale ^C when typing after the pager:\n"
      << pty->output().substr(typed_at);
  EXPECT_NE(pty->output().find("milk", typed_at), std::string::npos);
}

TEST_F(TerminalTest, CtrlDOnAnEmptyLineLeaves) {
  auto pty = start();
  pty->type(kCtrlD);
  EXPECT_EQ(pty->wait_exit(), 0) << pty->output();
}

TEST_F(TerminalTest, QuitLeaves) {
  auto pty = start();
  pty->type(":quit" + std::string(kEnter));
  EXPECT_EQ(pty->wait_exit(), 0) << pty->output();
}

TEST_F(TerminalTest, TabCompletesIndexedWords) {
  auto pty = start();
  // "eders" alone matches nothing: hits mean it was completed.
  pty->type("Eders\t" + std::string(kEnter));
  ASSERT_TRUE(pty->wait_for(kAllHits)) << pty->output();
  EXPECT_EQ(pty->output().find("No articles match."), std::string::npos) << pty->output();
  ASSERT_TRUE(pty->wait_for(kPrompt)) << pty->output();
  pty->type(kCtrlD);
  ASSERT_EQ(pty->wait_exit(), 0) << pty->output();
  const std::vector<std::string> history = lines_of(read_file(history_file()));
  ASSERT_EQ(history.size(), 1u);
  EXPECT_TRUE(history[0].starts_with("Ederson")) << "in the case typed: " << history[0];
}

TEST_F(TerminalTest, TabCompletesCommands) {
  auto pty = start();
  pty->type(":sta\t" + std::string(kEnter));
  ASSERT_TRUE(pty->wait_for("language:      auto (en)")) << pty->output();
}

TEST_F(TerminalTest, AnIndexThatVanishesEndsThePromptAndRestoresTheTerminal) {
  // quarry under a shell, which shows the terminal's settings once quarry
  // has ended: readline's raw mode must not outlive the prompt. The index
  // removed is a copy of the suite's, which other tests read.
  const fs::path db = dir_ / "index";
  fs::copy(db_path(), db, fs::copy_options::recursive);
  const std::string command = std::string("'") + QUARRY_BIN + "' --db '" + db.string() +
                              "' --color never --collapse none; echo \"exit $?\"; stty -a";
  Pty pty("/bin/sh", {"-c", command},
          {"TERM=xterm", "INPUTRC=/dev/null", "HOME=" + home_.string(),
           "XDG_STATE_HOME=" + state_.string(), "LANG=C.UTF-8", "LC_ALL=C.UTF-8"});
  ASSERT_TRUE(pty.wait_for(kPrompt)) << pty.output();
  pty.type("milk" + std::string(kEnter));
  ASSERT_TRUE(pty.wait_for(kAllHits)) << pty.output();
  ASSERT_TRUE(pty.wait_for(kPrompt)) << pty.output();
  fs::remove_all(db);
  pty.type("penalty" + std::string(kEnter));
  ASSERT_TRUE(pty.wait_for("exit 1")) << "an index error ends quarry with 1\n" << pty.output();
  ASSERT_EQ(pty.wait_exit(), 0) << pty.output();
  const std::string after = std::string(pty.unmatched());
  EXPECT_NE(after.find(" icanon"), std::string::npos) << after;
  EXPECT_NE(after.find(" echo"), std::string::npos) << after;
  EXPECT_NE(pty.output().find("quarry: "), std::string::npos) << "a message\n" << pty.output();
}

}  // namespace
}  // namespace quarry::testing
