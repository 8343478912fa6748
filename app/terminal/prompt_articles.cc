// The prompt's commands that show what the last results only list: an
// article whole (:show), through a pager when it fills the screen, and the
// other reports of a hit's story (:story).
#include <cstdio>
#include <sstream>

#include "app/common/ansi.h"
#include "app/common/terminal_text.h"
#include "app/terminal/prompt.h"
#include "quarry/text/language_identifier.h"
#include "quarry/text/utf8.h"

namespace quarry {
namespace {

// The shell command that runs `pager` with LESS and LV set as git sets them
// when they are unset: R lets colours through, F quits at once when the text
// fits, X leaves the text on the screen.
std::string pager_command(const std::string& pager) {
  return "LESS=\"${LESS-FRX}\" LV=\"${LV--c}\"; export LESS LV; " + pager;
}

// `text` with a blank line between its paragraphs, however many lines
// apart they were.
std::string paragraphs_apart(std::string_view text) {
  std::string spaced;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    if (!trim_white_space(line).empty()) {
      if (!spaced.empty()) spaced += "\n\n";
      spaced += line;
    }
    start = end + 1;
  }
  return spaced;
}

}  // namespace

std::optional<Article> PromptSession::article_to_show(std::string_view argument) {
  if (const Hit* hit = hit_shown(argument)) {
    std::optional<Article> article = searcher_.fetch(hit->id);
    if (!article) problem("article " + hit->id + " is no longer in the index");
    return article;
  }
  // An id, as :story lists the reports it has no number for.
  if (!argument.empty()) {
    if (std::optional<Article> article = searcher_.fetch(std::string(argument))) return article;
  }
  if (argument.find_first_not_of("0123456789") == std::string_view::npos) {
    hit_on_screen(argument, ":show");  // says why there is no such hit
  } else {
    problem("no article " + std::string(argument) +
            " in the index; :show takes the number of a hit, such as :show 1, or an "
            "article's id");
  }
  return std::nullopt;
}

void PromptSession::show(std::string_view argument) {
  const std::optional<Article> article = article_to_show(argument);
  if (!article) return;

  std::ostringstream page;
  const TextStyle& style = config_.session.style;
  if (style.color) page << ansi::kBold;
  page << terminal_safe(article->title);
  if (style.color) page << ansi::kReset;
  page << '\n' << terminal_safe(article->id);
  const std::string language = language_label(article->language);
  const std::string* const fields[] = {&article->date, &article->source, &article->category,
                                       &language};
  for (const std::string* field : fields) {
    if (!field->empty()) page << " · " << terminal_safe(*field);
  }
  page << "\n\n";
  std::ostringstream body;
  write_highlighted(
      body, highlight_all(searcher_.analyzer(*article), article->body, last_result_.highlight),
      style, {}, true);
  page << paragraphs_apart(body.str()) << '\n';
  // Wrapped here, at spaces, rather than by the terminal or the pager,
  // which would break lines in the middle of words.
  const std::string text = wrap_lines(page.str(), config_.screen_columns);

  if (!config_.pager.empty() && config_.screen_rows > 0 &&
      screen_rows(text, config_.screen_columns) >= config_.screen_rows) {
    out_.flush();
    if (FILE* pager = popen(pager_command(config_.pager).c_str(), "w")) {
      std::fwrite(text.data(), 1, text.size(), pager);
      // The pager's exit status (a user quitting early) is not an error.
      pclose(pager);
      return;
    }
  }
  out_ << text << '\n';
  out_.flush();
}

void PromptSession::story(std::string_view argument) {
  const Hit* found = hit_on_screen(argument, ":story");
  if (!found) return;
  const Hit& hit = *found;
  if (hit.more_total == 0)
    return problem("hit " + std::to_string(hit.rank) + " has no other reports");
  const TextStyle& style = config_.session.style;
  out_ << hit.more_total << (hit.more_total == 1 ? " more report" : " more reports") << " of "
       << terminal_safe(hit.id) << ":\n";
  for (const std::string& id : hit.more) {
    const std::optional<Article> article = searcher_.fetch(id);
    if (!article) continue;
    out_ << "  ";
    if (style.color) out_ << ansi::kBold;
    out_ << terminal_safe(article->title.empty() ? article->id : article->title);
    if (style.color) out_ << ansi::kReset << ansi::kDim;
    out_ << "\n    " << terminal_safe(article->id);
    for (const std::string* field : {&article->date, &article->source, &article->category}) {
      if (!field->empty()) out_ << " · " << terminal_safe(*field);
    }
    if (style.color) out_ << ansi::kReset;
    out_ << '\n';
  }
  if (hit.more.size() < hit.more_total) {
    out_ << "  … and " << hit.more_total - hit.more.size() << " more\n";
  }
  out_.flush();
}

}  // namespace quarry
