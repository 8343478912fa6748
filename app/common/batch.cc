#include "app/common/batch.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "quarry/error.h"
#include "quarry/thread_count.h"

namespace quarry {
namespace {

struct Job {
  std::size_t sequence;
  std::string qid;
  std::string query;
};

// What answering one job found, held until the jobs before it are written.
struct Outcome {
  Job job;
  std::optional<SearchResult> result;  // none when the query could not be run
  std::string error;                   // why not
  double took_ms = 0;
};

// Splits "qid<TAB>query"; a line without a tab is its own query, numbered.
Job parse_line(const std::string& line, std::size_t line_number, std::size_t sequence) {
  Job job{sequence, "", line};
  if (auto tab = line.find('\t'); tab != std::string::npos) {
    job.qid = line.substr(0, tab);
    job.query = line.substr(tab + 1);
  } else {
    job.qid = std::to_string(line_number);
  }
  if (!job.query.empty() && job.query.back() == '\r') job.query.pop_back();
  return job;
}

bool is_blank(const std::string& line) {
  return line.find_first_not_of(" \t\r\n\f\v") == std::string::npos;
}

PrinterConfig printer_config(const BatchConfig& config) {
  PrinterConfig printer;
  printer.format = config.format;
  printer.style = config.style;
  printer.timings = config.timings;
  printer.run_tag = config.run_tag;
  return printer;
}

Outcome answer(Searcher& searcher, Job job, const SearchOptions& options) {
  Outcome outcome;
  outcome.job = std::move(job);
  const auto start = std::chrono::steady_clock::now();
  try {
    outcome.result = searcher.search(outcome.job.query, options);
    outcome.took_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  } catch (const QueryError& error) {
    outcome.error = error.what();
  }
  return outcome;
}

// Says on `diagnostics` what the printer leaves out, each line naming its query.
void say(std::ostream& diagnostics, std::string_view program, const Job& job, std::string_view kind,
         const std::vector<std::string>& messages) {
  for (const std::string& message : messages) {
    diagnostics << program << ": qid " << job.qid << ": " << kind << message << '\n';
  }
}

// Writes an answer after those before it, and counts it.
void write_outcome(const Outcome& outcome, AnswerPrinter& printer, std::ostream& diagnostics,
                   std::string_view program, BatchReport& report) {
  const Job& job = outcome.job;
  ++report.queries;
  if (!outcome.result) {
    ++report.failed;
    printer.query_error(job.query, outcome.error, {job.qid, std::nullopt});
    diagnostics << program << ": qid " << job.qid << ": " << outcome.error << '\n';
    return;
  }
  printer.answer(*outcome.result, {job.qid, outcome.took_ms});
  const DiagnosedMessages diagnosed = printer.diagnosed();
  if (diagnosed.notes) say(diagnostics, program, job, "note: ", outcome.result->notes);
  if (diagnosed.warnings) say(diagnostics, program, job, "warning: ", outcome.result->warnings);
}

// Calls `submit` with each query of `in`, numbered from 0.
template <typename Submit>
std::size_t read_jobs(std::istream& in, Submit submit) {
  std::string line;
  std::size_t line_number = 0, sequence = 0;
  while (std::getline(in, line)) {
    ++line_number;
    // Editors on some systems start a file with a byte order mark.
    if (line_number == 1 && line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);
    if (is_blank(line)) continue;
    submit(parse_line(line, line_number, sequence++));
  }
  return sequence;
}

// Jobs flow from the reading thread to the workers; results come back keyed
// by input order, and the reading thread prints them in that order. The
// workers only search: a printer is not thread-safe, and keeps what it has
// written (text sets each answer apart from the one before).
class Pipeline {
 public:
  Pipeline(const BatchConfig& config, std::size_t threads, AnswerPrinter& printer,
           std::ostream& diagnostics, std::string_view program)
      : config_(config),
        window_(threads * 4),
        printer_(printer),
        diagnostics_(diagnostics),
        program_(program) {
    // Open every searcher before starting, so that a missing index is thrown
    // here, on the caller's thread.
    for (std::size_t i = 0; i < threads; ++i) searchers_.emplace_back(config.db_paths, config.open);
    for (std::size_t i = 0; i < threads; ++i) {
      workers_.emplace_back([this, i] { work(searchers_[i]); });
    }
  }

  ~Pipeline() {
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
    }
    job_ready_.notify_all();
    for (std::thread& worker : workers_) worker.join();
  }

  void submit(Job job) {
    std::unique_lock lock(mutex_);
    // Bounded: never more than window_ queries between reading and writing.
    while (job.sequence - next_to_write_ >= window_) {
      write_ready(lock);
      if (job.sequence - next_to_write_ < window_) break;
      answer_ready_.wait(lock);
    }
    jobs_.push_back(std::move(job));
    job_ready_.notify_one();
    write_ready(lock);
  }

  void finish(std::size_t total) {
    std::unique_lock lock(mutex_);
    while (next_to_write_ < total) {
      write_ready(lock);
      if (next_to_write_ < total) answer_ready_.wait(lock);
    }
    if (worker_error_) std::rethrow_exception(worker_error_);
  }

  const BatchReport& report() const { return report_; }

 private:
  void work(Searcher& searcher) {
    std::unique_lock lock(mutex_);
    for (;;) {
      job_ready_.wait(lock, [&] { return closed_ || !jobs_.empty(); });
      if (jobs_.empty()) return;
      Job job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      const std::size_t sequence = job.sequence;
      std::optional<Outcome> outcome;
      try {
        outcome = answer(searcher, std::move(job), config_.search);
      } catch (...) {
        lock.lock();
        if (!worker_error_) worker_error_ = std::current_exception();
        // The answer slot is still filled so that the writer never waits forever.
        lock.unlock();
      }
      lock.lock();
      answers_.emplace(sequence, std::move(outcome));
      answer_ready_.notify_all();
    }
  }

  // Writes the answers that are next in order. Called with the lock held.
  void write_ready(std::unique_lock<std::mutex>& lock) {
    for (auto it = answers_.find(next_to_write_); it != answers_.end();
         it = answers_.find(next_to_write_)) {
      std::optional<Outcome> ready = std::move(it->second);
      answers_.erase(it);
      ++next_to_write_;
      lock.unlock();
      // None: its worker failed, and finish() throws why.
      if (ready) write_outcome(*ready, printer_, diagnostics_, program_, report_);
      lock.lock();
    }
  }

  const BatchConfig& config_;
  const std::size_t window_;
  AnswerPrinter& printer_;
  std::ostream& diagnostics_;
  std::string_view program_;
  std::deque<Searcher> searchers_;
  std::vector<std::thread> workers_;

  std::mutex mutex_;
  std::condition_variable job_ready_;
  std::condition_variable answer_ready_;
  std::deque<Job> jobs_;
  std::map<std::size_t, std::optional<Outcome>> answers_;
  std::size_t next_to_write_ = 0;
  bool closed_ = false;
  std::exception_ptr worker_error_;
  BatchReport report_;
};

}  // namespace

BatchReport run_batch(const BatchConfig& config, std::istream& in, std::ostream& out,
                      std::ostream& diagnostics, std::string_view program) {
  const std::unique_ptr<AnswerPrinter> printer = make_printer(printer_config(config), out);
  Pipeline pipeline(config, thread_count(config.threads), *printer, diagnostics, program);
  printer->begin_run();
  const std::size_t total = read_jobs(in, [&](Job job) { pipeline.submit(std::move(job)); });
  pipeline.finish(total);
  printer->end_run();
  return pipeline.report();
}

BatchReport answer_each_line(Searcher& searcher, const BatchConfig& config, std::istream& in,
                             std::ostream& out, std::ostream& diagnostics,
                             std::string_view program) {
  const std::unique_ptr<AnswerPrinter> printer = make_printer(printer_config(config), out);
  BatchReport report;
  printer->begin_run();
  read_jobs(in, [&](Job job) {
    write_outcome(answer(searcher, std::move(job), config.search), *printer, diagnostics, program,
                  report);
    out.flush();
  });
  printer->end_run();
  return report;
}

}  // namespace quarry
