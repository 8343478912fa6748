#include "app/batch.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "app/ansi.h"
#include "app/output.h"
#include "quarry/error.h"
#include "quarry/thread_count.h"

namespace quarry {
namespace {

struct Job {
  std::size_t sequence;
  std::string qid;
  std::string query;
};

// What answering one job writes, held until the jobs before it are written.
struct JobOutput {
  std::string output;      // what goes to `out`
  std::string diagnostic;  // what goes to `diagnostics`, may be empty
  bool failed = false;
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

void write_heading(std::ostream& out, const Job& job, const TextStyle& style) {
  if (style.color) out << ansi::kBold;
  out << "Query " << job.qid << ": " << job.query;
  if (style.color) out << ansi::kReset;
  out << '\n';
}

// What is said on `diagnostics` beside an answer, each line naming its query.
std::string diagnostic_lines(std::string_view program, const Job& job, std::string_view kind,
                             const std::vector<std::string>& messages) {
  std::string lines;
  for (const std::string& message : messages) {
    lines += std::string(program) + ": qid " + job.qid + ": " + std::string(kind) + message + "\n";
  }
  return lines;
}

JobOutput answer(Searcher& searcher, const Job& job, const BatchConfig& config,
                 std::string_view program) {
  JobOutput answer;
  std::ostringstream out;
  const auto start = std::chrono::steady_clock::now();
  try {
    SearchResult result = searcher.search(job.query, config.search);
    const double took_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    switch (config.format) {
      case BatchFormat::kTrec:
        write_trec(out, job.qid, result, config.run_tag);
        answer.diagnostic = diagnostic_lines(program, job, "warning: ", result.warnings);
        break;
      case BatchFormat::kText:
        write_heading(out, job, config.style);
        write_text(out, result, config.style);
        answer.diagnostic = diagnostic_lines(program, job, "note: ", result.notes) +
                            diagnostic_lines(program, job, "warning: ", result.warnings);
        break;
      case BatchFormat::kJsonLines: {
        BatchFields fields{job.qid, std::nullopt};
        if (config.timings) fields.took_ms = took_ms;
        write_json(out, result, fields);
        break;
      }
    }
  } catch (const QueryError& error) {
    answer.failed = true;
    answer.diagnostic = std::string(program) + ": qid " + job.qid + ": " + error.what() + "\n";
    if (config.format == BatchFormat::kJsonLines) {
      write_json_error(out, job.qid, job.query, error.what());
    } else if (config.format == BatchFormat::kText) {
      write_heading(out, job, config.style);
      out << "error: " << error.what() << '\n';
    }
  }
  answer.output = std::move(out).str();
  return answer;
}

// Writes an answer after those before it, and counts it.
void write_answer(const JobOutput& answer, const BatchConfig& config, std::ostream& out,
                  std::ostream& diagnostics, BatchReport& report) {
  // Blank lines set text answers apart, as paragraphs.
  if (config.format == BatchFormat::kText && report.queries > 0) out << '\n';
  out << answer.output;
  diagnostics << answer.diagnostic;
  ++report.queries;
  if (answer.failed) ++report.failed;
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

// Jobs flow from the reading thread to the workers; answers come back keyed
// by input order, and the reading thread writes them out in that order.
class Pipeline {
 public:
  Pipeline(const BatchConfig& config, std::size_t threads, std::ostream& out,
           std::ostream& diagnostics, std::string_view program)
      : config_(config),
        window_(threads * 4),
        out_(out),
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
      JobOutput result;
      try {
        result = answer(searcher, job, config_, program_);
      } catch (...) {
        lock.lock();
        if (!worker_error_) worker_error_ = std::current_exception();
        // The answer slot is still filled so that the writer never waits forever.
        lock.unlock();
      }
      lock.lock();
      answers_.emplace(job.sequence, std::move(result));
      answer_ready_.notify_all();
    }
  }

  // Writes the answers that are next in order. Called with the lock held.
  void write_ready(std::unique_lock<std::mutex>& lock) {
    for (auto it = answers_.find(next_to_write_); it != answers_.end();
         it = answers_.find(next_to_write_)) {
      JobOutput ready = std::move(it->second);
      answers_.erase(it);
      ++next_to_write_;
      lock.unlock();
      write_answer(ready, config_, out_, diagnostics_, report_);
      lock.lock();
    }
  }

  const BatchConfig& config_;
  const std::size_t window_;
  std::ostream& out_;
  std::ostream& diagnostics_;
  std::string_view program_;
  std::deque<Searcher> searchers_;
  std::vector<std::thread> workers_;

  std::mutex mutex_;
  std::condition_variable job_ready_;
  std::condition_variable answer_ready_;
  std::deque<Job> jobs_;
  std::map<std::size_t, JobOutput> answers_;
  std::size_t next_to_write_ = 0;
  bool closed_ = false;
  std::exception_ptr worker_error_;
  BatchReport report_;
};

}  // namespace

BatchReport run_batch(const BatchConfig& config, std::istream& in, std::ostream& out,
                      std::ostream& diagnostics, std::string_view program) {
  Pipeline pipeline(config, thread_count(config.threads), out, diagnostics, program);
  const std::size_t total = read_jobs(in, [&](Job job) { pipeline.submit(std::move(job)); });
  pipeline.finish(total);
  return pipeline.report();
}

BatchReport answer_each_line(Searcher& searcher, const BatchConfig& config, std::istream& in,
                             std::ostream& out, std::ostream& diagnostics,
                             std::string_view program) {
  BatchReport report;
  read_jobs(in, [&](const Job& job) {
    write_answer(answer(searcher, job, config, program), config, out, diagnostics, report);
    out.flush();
  });
  return report;
}

}  // namespace quarry
