#include "app/indexing/index_printer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <iterator>
#include <sstream>
#include <utility>
#include <vector>

#include "app/common/ansi.h"
#include "app/common/terminal_text.h"
#include "quarry/text/language_identifier.h"
#include "quarry/value_names.h"

namespace quarry {

std::string duration_text(double seconds) {
  const long total = std::lround(seconds);
  char text[32];
  if (total < 60) {
    std::snprintf(text, sizeof text, "%ld s", total);
  } else if (total < 3600) {
    std::snprintf(text, sizeof text, "%ld min %ld s", total / 60, total % 60);
  } else {
    std::snprintf(text, sizeof text, "%ld h %ld min", total / 3600, total % 3600 / 60);
  }
  return text;
}

IndexProgressPrinter::IndexProgressPrinter(std::ostream& out, std::string_view program,
                                           bool progress)
    : out_(out), program_(program), progress_(progress) {}

void IndexProgressPrinter::on_problem(const ReadProblem& problem) {
  clear_progress();
  out_ << program_ << ": ";
  // A file's name, or an id in a reason, may hold control characters.
  if (!problem.where.path.empty()) out_ << terminal_safe(problem.where.to_string()) << ": ";
  out_ << terminal_safe(problem.reason) << (problem.skipped ? " (skipped)" : "") << '\n';
}

void IndexProgressPrinter::on_progress(const IndexReport& so_far) {
  if (!progress_) return;
  print_progress(so_far,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
}

namespace {

// What the progress line says of each step after reading.
constexpr ValueName<IndexStep> kStepTexts[] = {
    {IndexStep::kFinishingParts, "writing the last articles"},
    {IndexStep::kCommitting, "committing"},
    {IndexStep::kLinkingStories, "linking stories"},
    {IndexStep::kMerging, "merging the parts"}};

}  // namespace

void IndexProgressPrinter::print_progress(const IndexReport& so_far, double seconds) {
  const std::size_t seen = so_far.seen();
  char line[160];
  if (so_far.step != IndexStep::kReading) {
    // The rate and the time left were the reading's; what follows is not
    // paced by articles.
    // bytes_read falls short of the estimate, which counts the JSON around
    // the articles: what was read is the whole.
    const bool all_read = !so_far.cancelled && so_far.input_bytes > 0;
    const std::string_view step = name_of(kStepTexts, so_far.step);
    int used = std::snprintf(line, sizeof line, "\r%zu articles, %.0f s, %s%.*s", seen, seconds,
                             all_read ? "100%, " : "", static_cast<int>(step.size()), step.data());
    // Linking tells how far it is, once it has begun.
    if (so_far.step == IndexStep::kLinkingStories && so_far.to_link > 0 && used > 0) {
      std::snprintf(
          line + used, sizeof line - static_cast<std::size_t>(used), " (%.0f%%)",
          100.0 * static_cast<double>(so_far.linked) / static_cast<double>(so_far.to_link));
    }
  } else {
    int used = std::snprintf(line, sizeof line, "\r%zu articles, %.0f/s, %.0f s", seen,
                             seconds > 0 ? seen / seconds : 0.0, seconds);
    if (so_far.bytes_read > 0 && so_far.input_bytes > so_far.bytes_read && used > 0) {
      const double left = seconds * static_cast<double>(so_far.input_bytes - so_far.bytes_read) /
                          static_cast<double>(so_far.bytes_read);
      std::snprintf(
          line + used, sizeof line - static_cast<std::size_t>(used), ", %.0f%%, about %s left",
          100.0 * static_cast<double>(so_far.bytes_read) / static_cast<double>(so_far.input_bytes),
          duration_text(left).c_str());
    }
  }
  out_ << line << ansi::kClearToEndOfLine << std::flush;
  shown_ = true;
}

void IndexProgressPrinter::clear_progress() {
  if (shown_) out_ << '\r' << ansi::kClearToEndOfLine;
  shown_ = false;
}

LiveIndexPrinter::LiveIndexPrinter(std::ostream& out, std::string_view program, bool progress)
    : out_(out), run_(out, program, progress), progress_(progress) {}

void LiveIndexPrinter::on_problem(const ReadProblem& problem) {
  const bool shown = shown_;
  clear_progress();
  run_.on_problem(problem);
  if (shown) print_commits();
}

void LiveIndexPrinter::on_progress(const IndexReport& so_far) {
  if (!ready_) run_.on_progress(so_far);
}

void LiveIndexPrinter::on_ready(const IndexReport& /*initial*/) {
  run_.clear_progress();
  ready_ = true;
}

void LiveIndexPrinter::on_commit(const LiveCommit& committed) {
  ++commits_;
  added_ += committed.added;
  updated_ += committed.updated;
  deleted_ += committed.deleted_ids.size();
  if (progress_) print_commits();
}

void LiveIndexPrinter::print_commits() {
  out_ << "\rwatching: " << commits_ << (commits_ == 1 ? " commit, " : " commits, ") << added_
       << " added, " << updated_ << " updated, " << deleted_ << " deleted"
       << ansi::kClearToEndOfLine << std::flush;
  shown_ = true;
}

void LiveIndexPrinter::clear_progress() {
  run_.clear_progress();
  if (shown_) out_ << '\r' << ansi::kClearToEndOfLine;
  shown_ = false;
}

IndexSummaryPrinter::IndexSummaryPrinter(std::ostream& out, std::string_view program, bool quiet)
    : out_(out), program_(program), quiet_(quiet) {}

void IndexSummaryPrinter::print(const IndexReport& report) {
  print_other_files(report);
  if (!quiet_) print_warnings_as_before(report);
  if (!quiet_ || report.cancelled) print_counts(report);
}

void IndexSummaryPrinter::print_warnings_as_before(const IndexReport& report) {
  const std::size_t count = report.repaired_as_before;
  if (count == 0) return;
  out_ << program_ << ": " << count
       << (count == 1 ? " warning of an earlier run not repeated: its file is unchanged\n"
                      : " warnings of earlier runs not repeated: their files are unchanged\n");
}

// "skipped 3 files of unknown kinds: .md ×2, .html", most frequent first.
void IndexSummaryPrinter::print_other_files(const IndexReport& report) {
  if (report.other_files.empty()) return;
  std::vector<std::pair<std::string, std::size_t>> kinds(report.other_files.begin(),
                                                         report.other_files.end());
  std::stable_sort(kinds.begin(), kinds.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::size_t total = 0;
  std::string list;
  for (const auto& [extension, count] : kinds) {
    total += count;
    list += (list.empty() ? "" : ", ") + (extension.empty() ? "(no extension)" : extension);
    if (count > 1) list += " ×" + std::to_string(count);
  }
  out_ << program_ << ": skipped " << total << (total == 1 ? " file" : " files")
       << " of unknown kinds: " << list << '\n';
}

// "de 222 (all identified), en 3 (1 identified), fr 12": what each
// article was analyzed in, and how many were identified from their text
// rather than told. Said when it tells more than that the articles are in
// English, the default.
void IndexSummaryPrinter::print_languages(const LanguageCounts& languages) {
  if (languages.empty() ||
      (languages.size() == 1 && languages.begin()->first == kDefaultLanguage)) {
    return;
  }
  out_ << program_ << ": languages:";
  const char* separator = " ";
  for (const auto& [language, count] : languages) {
    out_ << separator << language_label(language) << ' ' << count.articles;
    if (count.identified == count.articles) {
      out_ << " (" << (count.articles == 1 ? "" : "all ") << "identified)";
    } else if (count.identified > 0) {
      out_ << " (" << count.identified << " identified)";
    }
    separator = ", ";
  }
  out_ << '\n';
}

void IndexSummaryPrinter::print_counts(const IndexReport& report) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f", report.seconds);
  out_ << program_ << ": " << report.added << " added, " << report.updated << " updated, "
       << report.unchanged << " unchanged, " << report.deleted << " deleted, " << report.skipped
       << " skipped";
  if (report.skipped_as_before > 0 && report.skipped_as_before == report.skipped) {
    out_ << ", as before,";
  } else if (report.skipped_as_before > 0) {
    out_ << " (" << report.skipped_as_before << " as before)";
  }
  out_ << " in " << seconds << " s\n";
  print_languages(report.languages);
  for (const auto& [origin, kept] : report.kept) {
    out_ << program_ << ": kept " << kept << (kept == 1 ? " article" : " articles") << " of "
         << origin << ", which could not be read whole\n";
  }
  if (report.cancelled) {
    out_ << program_ << ": interrupted; what was indexed is saved, run again to finish\n";
  }
}

namespace {

// "812.4 MB": bytes in the unit that keeps them under a thousand.
std::string size_text(std::uintmax_t bytes) {
  constexpr const char* kUnits[] = {"bytes", "kB", "MB", "GB", "TB"};
  double value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= 1000 && unit + 1 < std::size(kUnits)) {
    value /= 1000;
    ++unit;
  }
  std::ostringstream text;
  if (unit == 0) {
    text << bytes << ' ' << kUnits[0];
  } else {
    text << std::fixed << std::setprecision(1) << value << ' ' << kUnits[unit];
  }
  return text.str();
}

}  // namespace

void print_snapshot_summary(std::ostream& out, std::string_view program,
                            const SnapshotConfig& config, const SnapshotReport& report,
                            bool quiet) {
  if (quiet) return;
  out << program << ": snapshot of " << config.db_path << " written to " << config.dest << ": "
      << size_text(report.bytes) << " (from " << size_text(report.copied_bytes) << " copied) in "
      << duration_text(report.seconds) << ", commits held for " << std::fixed
      << std::setprecision(1) << report.held_seconds << " s\n";
}

}  // namespace quarry
