// The search prompt: queries and ":" commands, one line at a time, from a
// person at a terminal (terminal_prompt.h adds line editing and history) or
// from a pipe.
#ifndef QUARRY_APP_TERMINAL_PROMPT_H_
#define QUARRY_APP_TERMINAL_PROMPT_H_

#include <cstddef>
#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "app/common/session.h"
#include "quarry/search/searcher.h"

namespace quarry {

struct PromptConfig {
  SessionConfig session;
  // At a terminal: say how many articles matched and how long it took, and
  // confirm what commands change.
  bool decorations = false;
  // A shell command that shows articles filling more than screen_rows rows
  // of a screen screen_columns wide (0: lines are not wrapped); empty or
  // screen_rows 0: articles are written to the output as they are. The
  // pager gets LESS=FRX and LV=-c when they are unset, as git gives them,
  // so that less and lv show colours rather than escape codes.
  std::string pager;
  std::size_t screen_rows = 0;
  std::size_t screen_columns = 0;
  // What the greeting calls the index searched: its folder or stub file.
  std::string index_name;
};

// What the prompt remembers between lines: the last query and its page, and
// the options changed with commands.
class PromptSession {
 public:
  enum class Next { kContinue, kQuit };

  // `searcher` must outlive the session.
  PromptSession(Searcher& searcher, PromptConfig config, std::ostream& out,
                std::ostream& diagnostics, std::string_view program);
  ~PromptSession();
  PromptSession(const PromptSession&) = delete;
  PromptSession& operator=(const PromptSession&) = delete;

  // At a terminal, says what is searched and where help is, as the prompt
  // opens: "Searching 2,225 articles in /srv/news. Type a query, or :help
  // for the commands."; without decorations, nothing.
  void greet();

  // Answers one line: a query, or a command starting with ':'. Problems
  // (a bad query, an unknown command) are explained in one line on the
  // diagnostics stream and counted. Throws IndexError.
  Next handle(std::string_view line);

  // Completions of the word being typed: commands after ':', else words
  // that exist in the index, each starting as typed (Manch: Manchester;
  // MANCH: MANCHESTER).
  std::vector<std::string> complete(std::string_view word);

  // The screen is now `rows` by `columns` (a terminal resized): answers
  // and articles from the next on are wrapped to it.
  void resize(std::size_t rows, std::size_t columns);

  std::size_t problems() const { return problems_; }

  // Every command, the prompt's own and those of the options in the
  // option table (:limit, :recency …), as :help lists them.
  static const std::vector<std::string>& commands();

  static constexpr std::size_t kMaxCompletions = 100;

 private:
  // The printer of the format asked for last.
  AnswerPrinter& printer();
  // `heading`, when the query is good, goes before the answer.
  void search(const std::string& query, std::size_t offset, const std::string& like = "",
              std::string_view heading = {});
  // The hit on screen numbered `argument` (its rank), or null; with
  // hit_on_screen, after saying why there is none as a problem of `command`.
  const Hit* hit_shown(std::string_view argument) const;
  const Hit* hit_on_screen(std::string_view argument, const char* command);
  // The article :show shows: hit `argument` on screen, else the article
  // whose id `argument` is; nothing after saying why there is none.
  std::optional<Article> article_to_show(std::string_view argument);
  void like(std::string_view argument);
  void command(std::string_view name, std::string_view argument);
  void show(std::string_view argument);
  void story(std::string_view argument);
  void facets(std::string_view argument);
  void stats();
  void help();
  void confirm(const std::string& message);
  void problem(const std::string& message);

  Searcher& searcher_;
  PromptConfig config_;
  std::ostream& out_;
  std::ostream& diagnostics_;
  std::string program_;
  bool searched_ = false;
  std::string last_query_;
  std::string last_like_;  // the id of the article the last results are like
  SearchResult last_result_;
  std::size_t offset_ = 0;
  std::size_t problems_ = 0;
  bool answered_before_ = false;
  std::unique_ptr<AnswerPrinter> printer_;
  OutputFormat printer_format_ = OutputFormat::kText;
};

// Answers each line of `in` as the prompt would, without its decorations
// (queries and commands alike), until the input ends or ":quit". Returns
// how many lines were bad queries or bad commands.
std::size_t answer_lines(Searcher& searcher, std::istream& in, const SessionConfig& config,
                         std::ostream& out, std::ostream& diagnostics, std::string_view program);

}  // namespace quarry

#endif  // QUARRY_APP_TERMINAL_PROMPT_H_
