#include "app/terminal/prompt.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <istream>

#include "app/common/count_text.h"
#include "app/common/option_rules.h"
#include "app/common/search_option_values.h"
#include "app/common/terminal_text.h"
#include "app/common/value_parsers.h"
#include "quarry/error.h"
#include "quarry/text/utf8.h"

namespace quarry {
namespace {

std::string human_size(std::uintmax_t bytes) {
  char buffer[32];
  if (bytes >= (1u << 20)) {
    std::snprintf(buffer, sizeof buffer, "%.1f MiB", bytes / 1048576.0);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.1f KiB", bytes / 1024.0);
  }
  return buffer;
}

// Ranks first to last: "1-3", or "2".
std::string range_text(std::size_t first, std::size_t last) {
  return first == last ? std::to_string(first) : std::to_string(first) + "-" + std::to_string(last);
}

}  // namespace

PromptSession::PromptSession(Searcher& searcher, PromptConfig config, std::ostream& out,
                             std::ostream& diagnostics, std::string_view program)
    : searcher_(searcher),
      config_(std::move(config)),
      out_(out),
      diagnostics_(diagnostics),
      program_(program) {}

void PromptSession::greet() {
  if (!config_.decorations) return;
  const std::size_t articles = searcher_.stats().articles;
  out_ << "Searching " << with_thousands(articles) << (articles == 1 ? " article" : " articles");
  if (!config_.index_name.empty()) out_ << " in " << config_.index_name;
  out_ << ". Type a query, or :help for the commands.\n";
  out_.flush();
}

PromptSession::~PromptSession() {
  if (printer_) printer_->end_run();
}

AnswerPrinter& PromptSession::printer() {
  // :format takes effect at the next answer.
  if (!printer_ || printer_format_ != config_.session.format) {
    if (printer_) printer_->end_run();
    PrinterConfig printer;
    printer.format = config_.session.format;
    printer.style = config_.session.style;
    printer.layout.decorations = config_.decorations;
    printer.layout.after_answers = answered_before_;
    printer_ = make_printer(printer, out_);
    printer_format_ = config_.session.format;
    printer_->begin_run();
  }
  return *printer_;
}

void PromptSession::resize(std::size_t rows, std::size_t columns) {
  config_.screen_rows = rows;
  if (columns == config_.screen_columns) return;
  config_.screen_columns = columns;
  config_.session.style.width = columns;
  // A printer wraps to the width it was made with.
  if (printer_) printer_->end_run();
  printer_.reset();
}

PromptSession::Next PromptSession::handle(std::string_view line) {
  line = trim_white_space(line);
  if (line.empty()) return Next::kContinue;
  if (line.front() != ':') {
    search(std::string(line), 0);
    return Next::kContinue;
  }
  const auto space = line.find_first_of(" \t");
  const std::string_view name = line.substr(0, space);
  const std::string_view argument =
      space == std::string_view::npos ? std::string_view() : trim_white_space(line.substr(space));
  if (name == ":quit" || name == ":q" || name == ":exit") return Next::kQuit;
  command(name, argument);
  return Next::kContinue;
}

void PromptSession::confirm(const std::string& message) {
  // A script reading answers wants nothing else among them.
  if (!config_.decorations) return;
  out_ << message << "\n\n";
  out_.flush();
}

void PromptSession::problem(const std::string& message) {
  // A message may quote an article's id.
  diagnostics_ << program_ << ": " << terminal_safe(message, true) << '\n';
  ++problems_;
}

void PromptSession::search(const std::string& query, std::size_t offset, const std::string& like,
                           std::string_view heading) {
  SearchOptions options = config_.session.search;
  options.offset = offset;
  options.like.id = like;
  const auto start = std::chrono::steady_clock::now();
  SearchResult result;
  try {
    result = searcher_.search(query, options);
  } catch (const QueryError& error) {
    // The last good query stays the one that :next, :prev and :show use.
    problem(error.what());
    return;
  }
  const double took_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  AnswerPrinter& printer = this->printer();
  // Notes are said whatever the format, for the person who typed the query.
  for (const std::string& note : result.notes)
    diagnostics_ << program_ << ": note: " << note << '\n';
  if (printer.diagnosed().warnings) {
    for (const std::string& warning : result.warnings) {
      diagnostics_ << program_ << ": warning: " << warning << '\n';
    }
  }
  out_ << heading;
  printer.answer(result, {std::nullopt, took_ms});
  answered_before_ = true;
  out_.flush();
  searched_ = true;
  last_query_ = query;
  last_like_ = like;
  offset_ = offset;
  last_result_ = std::move(result);
}

void PromptSession::command(std::string_view name, std::string_view argument) {
  const std::size_t limit = config_.session.search.limit;
  if (name == ":next" || name == ":prev") {
    if (!searched_) return problem("no query yet: type one first");
    if (name == ":prev") {
      if (offset_ == 0) return problem("already at the first page");
      return search(last_query_, offset_ > limit ? offset_ - limit : 0, last_like_);
    }
    // The pages go through the hits shown, a story's articles as one.
    // Past the count limit the count is an estimate: there may be more.
    if (offset_ + limit >= last_result_.stories && last_result_.stories_exact) {
      return problem("no more hits");
    }
    return search(last_query_, offset_ + limit, last_like_);
  }
  if (name == ":show") return show(argument);
  if (name == ":story") return story(argument);
  if (name == ":like") return like(argument);
  if (name == ":facets") return facets(argument);
  if (name == ":accept") {
    if (last_result_.suggestion.empty() || last_result_.corrected) {
      return problem("no suggestion to accept");
    }
    return search(last_result_.suggestion, 0);
  }
  if (const SearchOption* option = option_of_prompt_command(name)) {
    try {
      return confirm(set_by_prompt_command(*option, argument, config_.session));
    } catch (const OptionError& error) {
      return problem(error.what());
    }
  }
  if (name == ":stats") return stats();
  if (name == ":help") return help();
  problem("unknown command '" + std::string(name) + "'; :help lists them");
}

const Hit* PromptSession::hit_shown(std::string_view argument) const {
  const std::size_t rank = parse_whole_number(argument).value_or(0);
  const std::vector<Hit>& hits = last_result_.hits;
  if (!searched_ || rank == 0 || hits.empty()) return nullptr;
  const std::size_t first = hits.front().rank;
  return rank >= first && rank <= hits.back().rank ? &hits[rank - first] : nullptr;
}

const Hit* PromptSession::hit_on_screen(std::string_view argument, const char* command) {
  if (const Hit* hit = hit_shown(argument)) return hit;
  const std::size_t rank = parse_whole_number(argument).value_or(0);
  if (rank == 0) {
    problem(std::string(command) + " needs the number of a hit, such as " + command + " 1");
    return nullptr;
  }
  if (!searched_) {
    problem("no query yet: type one first");
    return nullptr;
  }
  // Only a hit on screen: the number of one on another page, or past the
  // end, was never seen.
  const std::vector<Hit>& hits = last_result_.hits;
  if (hits.empty()) {
    problem("no hit " + std::to_string(rank) + " on screen; none is shown");
    return nullptr;
  }
  const std::size_t first = hits.front().rank;
  const std::size_t last = hits.back().rank;
  problem("no hit " + std::to_string(rank) + " on screen; " +
          (first == last ? "the hit shown is " : "the hits shown are ") + range_text(first, last));
  return nullptr;
}

void PromptSession::like(std::string_view argument) {
  const auto space = argument.find_first_of(" \t");
  const Hit* found = hit_on_screen(argument.substr(0, space), ":like");
  if (!found) return;
  const std::string id = found->id;
  const std::string query =
      space == std::string_view::npos ? "" : std::string(trim_white_space(argument.substr(space)));
  // At a terminal, the results say what they are like: the hit's number
  // is gone from the screen once they are.
  std::string heading;
  if (config_.decorations) {
    heading = "Articles like \"" + (found->title.empty() ? id : found->title) + '"' +
              (query.empty() ? "" : " that match " + query) + ":\n";
  }
  search(query, 0, id, heading);
}

void PromptSession::facets(std::string_view argument) {
  if (!searched_) return problem("no query yet: type one first");
  SearchOptions options = config_.session.search;
  try {
    options.facets.fields =
        parse_facet_fields(argument.empty() ? "source,category,language,date" : argument);
  } catch (const ConfigError& error) {
    return problem(error.what());
  }
  if (options.facets.fields.empty()) {
    return problem(":facets takes fields: source, category, language, date");
  }
  options.limit = 0;
  options.snippets.enabled = false;
  options.explain.enabled = false;
  options.like.id = last_like_;
  printer().facets(searcher_.search(last_query_, options));
  out_.flush();
}

void PromptSession::stats() {
  const IndexStats stats = searcher_.stats();
  out_ << "articles:      " << with_thousands(stats.articles) << '\n'
       << "words:         " << with_thousands(stats.distinct_words) << " distinct, "
       << with_thousands(stats.total_words) << " in all\n"
       << "size on disk:  " << human_size(stats.bytes_on_disk) << '\n'
       << "language:      " << stats.language;
  // What the articles turned out to be in, when each was identified.
  if (stats.language == "auto" && !stats.languages.empty()) {
    const char* separator = " (";
    for (const std::string& language : stats.languages) {
      out_ << separator << language;
      separator = ", ";
    }
    out_ << ')';
  }
  out_ << '\n';
  if (stats.shards > 1 || stats.remote_shards > 0) {
    out_ << "shards:        " << with_thousands(stats.shards);
    if (stats.remote_shards > 0)
      out_ << " (" << with_thousands(stats.remote_shards) << " remote, not in the size)";
    out_ << '\n';
  }
  out_ << "last update:   " << stats.last_update << "\n\n";
  out_.flush();
}

std::vector<std::string> PromptSession::complete(std::string_view word) {
  std::vector<std::string> found;
  if (!word.empty() && word.front() == ':') {
    for (const std::string& command : commands()) {
      if (command.starts_with(word)) found.push_back(command);
    }
    return found;
  }
  if (word.empty()) return found;
  return searcher_.complete(word, kMaxCompletions);
}

std::size_t answer_lines(Searcher& searcher, std::istream& in, const SessionConfig& config,
                         std::ostream& out, std::ostream& diagnostics, std::string_view program) {
  PromptConfig lines;
  lines.session = config;
  PromptSession session(searcher, lines, out, diagnostics, program);
  std::string line;
  while (std::getline(in, line)) {
    if (session.handle(line) == PromptSession::Next::kQuit) break;
  }
  return session.problems();
}

}  // namespace quarry
