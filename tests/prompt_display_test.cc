#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/common/terminal_text.h"
#include "app/terminal/prompt.h"
#include "quarry/index/index_writer.h"
#include "tests/prompt_session.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;

TEST_F(PromptTest, CompletesCommandsAndIndexedWords) {
  struct Case {
    std::string word;
    std::vector<std::string> expected;
  };
  const std::vector<Case> commands = {
      {":n", {":next"}},
      {":s", {":show", ":story", ":stats"}},
      {":", PromptSession::commands()},
      {":quit", {":quit"}},
      {":z", {}},
      {"", {}},
      {"zzzz", {}},
  };
  for (const Case& c : commands) EXPECT_EQ(session_->complete(c.word), c.expected) << c.word;

  struct Word {
    std::string typed;
    std::string wanted;
  };
  // Completions keep the case typed.
  const std::vector<Word> words = {
      {"pen", "penalty"}, {"Eders", "Ederson"},   {"PEN", "PENALTY"},  {"Manch", "Manchester"},
      {"mil", "milk"},    {"herrera", "herrera"}, {"HErr", "HErrera"}, {"P", "Portuguese"},
  };
  for (const Word& w : words) {
    const std::vector<std::string> found = session_->complete(w.typed);
    EXPECT_NE(std::find(found.begin(), found.end(), w.wanted), found.end())
        << w.typed << ": " << ::testing::PrintToString(found);
    EXPECT_LE(found.size(), PromptSession::kMaxCompletions);
    for (const std::string& word : found) {
      EXPECT_TRUE(word.starts_with(w.typed)) << w.typed << ": " << word;
    }
  }
}

TEST_F(PromptTest, LongArticlesGoThroughThePager) {
  const fs::path paged = dir_ / "paged.txt";
  const std::string pager = "cat > '" + paged.string() + "'";
  struct Case {
    std::string pager;
    std::size_t screen_rows;
    bool paged;
  };
  const std::vector<Case> cases = {
      {pager, 2, true},
      {pager, 0, false},       // not a terminal
      {"", 2, false},          // no pager
      {pager, 100000, false},  // the article fits on the screen
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.pager + " on " + std::to_string(c.screen_rows) + " rows");
    fs::remove(paged);
    PromptConfig config;
    config.pager = c.pager;
    config.screen_rows = c.screen_rows;
    config.screen_columns = 80;
    open(config);
    ASSERT_EQ(say(kQuery).diagnostics, "");
    const Reply reply = say(":show 1");
    EXPECT_EQ(reply.diagnostics, "");
    const std::string article = c.paged ? read_file(paged) : reply.out;
    EXPECT_EQ(fs::exists(paged), c.paged);
    EXPECT_EQ(reply.out.empty(), c.paged) << reply.out;
    const std::optional<Article> expected = searcher_->fetch(expected_ids(kQuery)[0]);
    ASSERT_TRUE(expected);
    EXPECT_TRUE(article.starts_with(expected->title + "\n" + expected->id)) << article;
    const std::vector<std::string> body = words_of(expected->body);
    const std::vector<std::string> shown = words_of(article);
    ASSERT_GE(shown.size(), body.size());
    EXPECT_TRUE(std::equal(body.begin(), body.end(), shown.end() - body.size())) << article;
  }
}

// The screen fills with rows, not lines: long paragraphs wrap.
TEST_F(PromptTest, ThePagerIsUsedWhenWrappedLinesFillTheScreen) {
  const fs::path paged = dir_ / "paged.txt";
  ASSERT_EQ(say(kQuery).diagnostics, "");
  const std::string article = say(":show 1").out;
  const std::size_t lines = lines_of(article).size();
  for (const std::size_t columns : {20, 40, 100000}) {
    SCOPED_TRACE(std::to_string(columns) + " columns");
    fs::remove(paged);
    PromptConfig config;
    config.pager = "cat > '" + paged.string() + "'";
    // One more row than the article has lines: only wrapping fills it.
    config.screen_rows = lines + 1;
    config.screen_columns = columns;
    open(config);
    ASSERT_EQ(say(kQuery).diagnostics, "");
    say(":show 1");
    EXPECT_EQ(fs::exists(paged), columns != 100000);
  }
}

// :show wraps the article at spaces to the screen's width, as the hits are
// wrapped: a terminal or a pager left to wrap it breaks words in two.
TEST_F(PromptTest, ShowWrapsTheArticleWithoutBreakingWords) {
  const fs::path paged = dir_ / "paged.txt";
  for (const bool through_pager : {false, true}) {
    for (const std::size_t columns : {30, 60, 110}) {
      SCOPED_TRACE(std::to_string(columns) + (through_pager ? " columns, paged" : " columns"));
      fs::remove(paged);
      PromptConfig config;
      config.pager = through_pager ? "cat > '" + paged.string() + "'" : "";
      config.screen_rows = 2;
      config.screen_columns = columns;
      open(config);
      ASSERT_EQ(say(kQuery).diagnostics, "");
      const Reply reply = say(":show 1");
      ASSERT_EQ(reply.diagnostics, "");
      const std::string shown = through_pager ? read_file(paged) : reply.out;
      const std::optional<Article> article = searcher_->fetch(expected_ids(kQuery)[0]);
      ASSERT_TRUE(article);
      const std::vector<std::string> body = words_of(article->body);
      const std::vector<std::string> words = words_of(shown);
      ASSERT_GE(words.size(), body.size());
      EXPECT_TRUE(std::equal(body.begin(), body.end(), words.end() - body.size())) << shown;
      bool wrapped = false;
      for (const std::string& line : lines_of(shown)) {
        EXPECT_LE(display_width(line), columns) << line;
        wrapped = wrapped || display_width(line) > columns / 2;
      }
      EXPECT_TRUE(wrapped) << "lines are filled, not cut short:\n" << shown;
    }
  }
}

// The article's paragraphs are set apart by a blank line, however many
// line breaks apart they were.
TEST_F(PromptTest, ShowSetsParagraphsApart) {
  IndexConfig config;
  config.db_path = (dir_ / "index").string();
  write_file(dir_ / "articles" / "lines.txt",
             "Zebra crossing\n\nOne zebrafish.\nTwo zebrafish.\n\n\nThree zebrafish.\n");
  ASSERT_EQ(index_paths(config, {(dir_ / "articles").string()}).added, 1u);
  use_index(config.db_path);
  open();
  ASSERT_EQ(say("zebrafish").diagnostics, "");
  const std::string shown = say(":show 1").out;
  EXPECT_NE(shown.find("\n\nOne zebrafish.\n\nTwo zebrafish.\n\nThree zebrafish.\n"),
            std::string::npos)
      << shown;
}

// At a terminal the prompt opens by saying what it searches and where its
// help is.
TEST_F(PromptTest, GreetingNamesTheIndexAndHelp) {
  PromptConfig config;
  config.decorations = true;
  config.index_name = "/srv/news";
  open(config);
  session_->greet();
  const std::string greeting = out_.str();
  const std::string articles = std::to_string(searcher_->stats().articles) + " articles";
  EXPECT_NE(greeting.find(articles + " in /srv/news"), std::string::npos) << greeting;
  EXPECT_NE(greeting.find(":help"), std::string::npos) << greeting;
  EXPECT_EQ(lines_of(greeting).size(), 1u) << greeting;

  open();  // answering a pipe: nothing but answers
  session_->greet();
  EXPECT_EQ(out_.str(), "");
}

// The lines under hits 10 and on start under their titles, as those under
// hits 1 to 9 do, wrapped or not.
TEST_F(PromptTest, HitsPastTheNinthAreAligned) {
  std::vector<Article> articles;
  for (int i = 0; i < 12; ++i) {
    articles.push_back({"beacon-" + std::to_string(i), "Beacon number " + std::to_string(i),
                        "The beacon on the headland was lit again at dusk, said the keepers of "
                        "the old harbour, who had waited for it all winter long.",
                        "", "", ""});
  }
  open_decorated(articles);
  for (const std::size_t columns : {0, 40}) {
    SCOPED_TRACE(std::to_string(columns) + " columns");
    PromptConfig config;
    config.decorations = true;
    config.session.search.limit = 12;
    config.session.style.width = columns;
    open(config);
    const std::string out = say("beacon").out;
    ASSERT_EQ(ranks_in(out).size(), 12u) << out;
    std::size_t indent = 0;
    bool wrapped = false;
    for (const std::string& line : lines_of(out)) {
      if (line.starts_with("Hits ")) break;
      if (columns > 0) {
        EXPECT_LE(display_width(line), columns) << line;
      }
      wrapped = wrapped || display_width(line) > columns / 2;
      const std::size_t dot = line.find(". ");
      if (dot != std::string::npos && line.find_first_not_of("0123456789") == dot) {
        indent = dot + 2;
      } else if (indent > 0) {
        EXPECT_EQ(line.find_first_not_of(' '), indent) << "'" << line << "' in\n" << out;
      }
    }
    EXPECT_TRUE(wrapped) << out;
  }
}

// :like N says which article the results are like: hit N is no longer on
// the screen.
class ScopedEnvironment {
 public:
  ScopedEnvironment(std::string name, const char* value) : name_(std::move(name)) {
    if (const char* old = std::getenv(name_.c_str())) old_ = old;
    if (value) {
      setenv(name_.c_str(), value, 1);
    } else {
      unsetenv(name_.c_str());
    }
  }
  ~ScopedEnvironment() {
    if (old_) {
      setenv(name_.c_str(), old_->c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

// less shows escape codes as text unless told with -R (or LESS=R): the
// pager gets LESS=FRX when LESS is unset, as git gives it, and LESS as the
// user set it otherwise.
TEST_F(PromptTest, ThePagerIsToldToShowColours) {
  const fs::path seen = dir_ / "less.txt";
  struct Case {
    const char* less;
    std::string expected;
  };
  for (const Case& c : {Case{nullptr, "FRX"}, Case{"-i", "-i"}, Case{"", ""}}) {
    SCOPED_TRACE(c.less ? c.less : "unset");
    const ScopedEnvironment less("LESS", c.less);
    PromptConfig config;
    config.pager = "printf '%s' \"$LESS\" > '" + seen.string() + "'; cat > /dev/null";
    config.screen_rows = 2;
    config.session.style.color = true;
    open(config);
    ASSERT_EQ(say(kQuery).diagnostics, "");
    ASSERT_EQ(say(":show 1").diagnostics, "");
    EXPECT_EQ(read_file(seen), c.expected);
  }
}

TEST_F(PromptTest, ShowWritesControlCharactersVisibly) {
  write_file(dir_ / "in" / "a.jsonl",
             R"({"id": "a\u001b[2J\r", "title": "\u001b]0;pwned\u0007 Zebra", )"
             R"("body": "A zebrafish\u001b[2J here.\n\nIt\tswam."})"
             "\n");
  IndexConfig config;
  config.db_path = (dir_ / "index").string();
  ASSERT_EQ(index_paths(config, {(dir_ / "in").string()}).added, 1u);
  use_index(config.db_path);
  open();
  const Reply found = say("zebrafish");
  EXPECT_NE(found.out.find("^[]0;pwned^G Zebra"), std::string::npos) << found.out;
  const Reply shown = say(":show 1");
  EXPECT_EQ(shown.diagnostics, "");
  EXPECT_TRUE(
      shown.out.starts_with("^[]0;pwned^G Zebra\na^[[2J^M · en\n\nA zebrafish^[[2J here.\n"))
      << shown.out;
  EXPECT_NE(shown.out.find("It\tswam."), std::string::npos) << shown.out;
  for (const std::string& text : {found.out, shown.out}) {
    for (const char c : text) {
      EXPECT_TRUE(c == '\n' || c == '\t' || static_cast<unsigned char>(c) >= 0x20) << text;
    }
  }
}

}  // namespace
}  // namespace quarry::testing
