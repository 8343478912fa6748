// The fixture of the prompt's tests: a session over the sample articles'
// index, fed one line at a time, and ways to read what it answers.
#ifndef QUARRY_TESTS_PROMPT_SESSION_H_
#define QUARRY_TESTS_PROMPT_SESSION_H_

#include <gtest/gtest.h>

#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "app/terminal/prompt.h"
#include "tests/test_util.h"

namespace quarry::testing {

using Next = PromptSession::Next;

inline constexpr char kProgram[] = "quarry";
// Every sample article has both words; ranks differ.
inline constexpr char kQuery[] = "penalty Herrera";

inline std::vector<std::string> words_of(const std::string& text) {
  std::istringstream in(text);
  return {std::istream_iterator<std::string>(in), std::istream_iterator<std::string>()};
}

// The ids of the hits in text output, in the order written: each hit is
//   N. Title  [score]
//      id
inline std::vector<std::string> ids_in(const std::string& text) {
  const std::vector<std::string> lines = lines_of(text);
  std::vector<std::string> ids;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    const std::size_t dot = lines[i].find(". ");
    const bool numbered =
        dot != std::string::npos && dot > 0 && lines[i].find_first_not_of("0123456789") == dot;
    // The id, then " · " and the date, source and category it has.
    // Indented under the title, as wide as "N. ".
    const std::size_t indent = dot + 2;
    if (numbered && lines[i + 1].starts_with(std::string(indent, ' '))) {
      ids.push_back(lines[i + 1].substr(indent, lines[i + 1].find(" · ") - indent));
    }
  }
  return ids;
}

inline std::vector<std::size_t> ranks_in(const std::string& text) {
  std::vector<std::size_t> ranks;
  for (const std::string& line : lines_of(text)) {
    const std::size_t dot = line.find(". ");
    if (dot != std::string::npos && dot > 0 && line.find_first_not_of("0123456789") == dot) {
      ranks.push_back(std::stoul(line.substr(0, dot)));
    }
  }
  return ranks;
}

// What one line made the session do.
struct Reply {
  Next next = Next::kContinue;
  std::string out;
  std::string diagnostics;
};

// A session over an index of the sample articles, shared by the tests but
// one that changes an index of its own.
class PromptTest : public SharedIndexTest {
 protected:
  void SetUp() override { open(); }

  // Starts over with a session of this configuration.
  void open(const PromptConfig& config = {}) {
    out_.str("");
    diagnostics_.str("");
    session_ = std::make_unique<PromptSession>(*searcher_, config, out_, diagnostics_, kProgram);
  }

  Reply say(std::string_view line) {
    const std::size_t out_before = out_.str().size();
    const std::size_t diagnostics_before = diagnostics_.str().size();
    Reply reply;
    reply.next = session_->handle(line);
    reply.out = out_.str().substr(out_before);
    reply.diagnostics = diagnostics_.str().substr(diagnostics_before);
    return reply;
  }

  // Sessions opened from now on search the index at `db`.
  void use_index(const std::string& db) {
    own_searcher_ = std::make_unique<Searcher>(db);
    searcher_ = own_searcher_.get();
  }

  // Indexes `articles` in the test's folder, then opens a session over
  // them that decorates its answers, as at a terminal.
  void open_decorated(const std::vector<Article>& articles) {
    index_articles(dir_, articles);
    use_index(index_path(dir_));
    PromptConfig config;
    config.decorations = true;
    open(config);
  }

  // The ids the searcher itself ranks for `query`.
  std::vector<std::string> expected_ids(std::string_view query) {
    std::vector<std::string> ids;
    for (const Hit& hit : searcher_->search(query).hits) ids.push_back(hit.id);
    return ids;
  }

  TempDir dir_;
  // The searcher sessions open() makes use: the suite's unless a test
  // points it at an index of its own (kept in own_searcher_).
  Searcher* searcher_ = &searcher();
  std::unique_ptr<Searcher> own_searcher_;
  std::ostringstream out_;
  std::ostringstream diagnostics_;
  std::unique_ptr<PromptSession> session_;
};

// A problem is one line on the diagnostics, and nothing on the output.
inline void expect_problem(const Reply& reply, std::string_view line, std::string_view mention) {
  EXPECT_EQ(reply.next, Next::kContinue) << line;
  EXPECT_EQ(reply.out, "") << line;
  const std::vector<std::string> lines = lines_of(reply.diagnostics);
  ASSERT_EQ(lines.size(), 1u) << line << ": " << reply.diagnostics;
  EXPECT_TRUE(reply.diagnostics.ends_with("\n")) << line;
  EXPECT_TRUE(lines[0].starts_with("quarry: ")) << line << ": " << lines[0];
  EXPECT_NE(lines[0].find(mention), std::string::npos) << line << ": " << lines[0];
}

}  // namespace quarry::testing

#endif  // QUARRY_TESTS_PROMPT_SESSION_H_
