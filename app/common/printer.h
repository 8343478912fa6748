// Printers: what the front ends say about searches — an answer, a query
// that could not be run, a count — written in one format to a stream. Each
// format is one class (text_printer.h, json_printer.h, trec_printer.h, and
// the search page's search_page_printer.h); a front end picks one with
// make_printer, or names the one its route serves, and never looks at the
// format again. As the indexer's printers (index_printer.h), a printer is
// given its stream when it is made and has one method per event.
#ifndef QUARRY_APP_COMMON_PRINTER_H_
#define QUARRY_APP_COMMON_PRINTER_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "app/common/terminal_text.h"
#include "quarry/search/searcher.h"

namespace quarry {

// The formats `quarry` writes answers in (--format, :format).
enum class OutputFormat {
  kText,  // for people: the count, then each hit's title, origin and snippet
  kJson,  // one JSON object an answer, on one line: JSON Lines for several
  kTrec,  // a TREC run's lines, for evaluation tools
};

// What a front end knows of an answer besides its result.
struct AnswerFields {
  // The query's id in a run of several: JSON's "qid", the text heading
  // "Query qid: …", a TREC run's first column.
  std::optional<std::string> qid;
  // How long the search took, when the front end timed it.
  std::optional<double> took_ms;
};

// The messages of an answer (SearchResult::notes and warnings) that a
// printer leaves to the front end's diagnostics stream.
struct DiagnosedMessages {
  bool notes = false;
  bool warnings = false;
};

// Receives the events of a run of answers, in order, and writes them to the
// stream it was made with. A run is begun and ended once; between, any
// number of the other events. Not thread-safe: one printer, one writer.
class AnswerPrinter {
 public:
  virtual ~AnswerPrinter() = default;
  AnswerPrinter(const AnswerPrinter&) = delete;
  AnswerPrinter& operator=(const AnswerPrinter&) = delete;

  // Before the first answer, and after the last.
  virtual void begin_run() {}
  virtual void end_run() {}

  // A query's answer: how many articles match, a page of its hits, and what
  // else it found.
  virtual void answer(const SearchResult& result, const AnswerFields& fields) = 0;

  // The matches of a query answered before, counted by field (the prompt's
  // :facets): no page of hits, and not a new answer to set apart from the
  // one before.
  virtual void facets(const SearchResult& result) = 0;

  // `query` could not be parsed or run, for `message`.
  virtual void query_error(std::string_view query, std::string_view message,
                           const AnswerFields& fields) = 0;

  // How many articles match `query` (--count), for scripts: the number
  // alone on a line, as `notmuch count` writes it; JSON an object, as its
  // answers name the count.
  virtual void count(std::string_view query, const CountResult& count);

  // What this format leaves out of its answers for the front end to say on
  // its diagnostics stream.
  virtual DiagnosedMessages diagnosed() const = 0;

 protected:
  explicit AnswerPrinter(std::ostream& out) : out_(out) {}

  std::ostream& out_;
};

// How a run of text answers is laid out.
struct TextLayout {
  // As the prompt at a terminal: each answer followed by the hits it shows
  // out of those there are to page through, "Hits 1-10 of 1,234 (2.1 ms)",
  // or "Hits 1-10 of 153 stories" when stories group the matches; and a
  // blank line. Without, answers are set apart by blank lines.
  bool decorations = false;
  // The output already holds answers (in another format), from which the
  // first answer is set apart too.
  bool after_answers = false;
};

// How make_printer's printer writes.
struct PrinterConfig {
  OutputFormat format = OutputFormat::kText;
  // Text: colours, the width titles and snippets are wrapped to, the layout.
  TextStyle style;
  TextLayout layout;
  // JSON: write "took_ms" in answers that were timed.
  bool timings = false;
  // TREC: the run's name, its last column.
  std::string run_tag = "quarry";
};

// The printer of config.format, writing to `out`, which must outlive it.
std::unique_ptr<AnswerPrinter> make_printer(const PrinterConfig& config, std::ostream& out);

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_PRINTER_H_
