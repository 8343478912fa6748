// Batches as streams: a long input answered in order with few queries in
// flight, and each line answered before the next is read, so that a
// program that writes a query and waits gets its answer.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

#include "app/common/batch.h"
#include "tests/batch_fixture.h"

namespace quarry::testing {
namespace {

using nlohmann::json;

// Hands out "q<n>\t<query>" lines one at a time (every 50th line blank),
// counting the queries it has handed out.
class QuerySource : public std::streambuf {
 public:
  explicit QuerySource(std::size_t lines) : lines_(lines), queries_(make_queries(97)) {}
  std::size_t queries_served() const { return queries_served_; }

 protected:
  int_type underflow() override {
    if (served_ == lines_) return traits_type::eof();
    if (served_ % 50 == 49) {
      line_ = "\n";
    } else {
      line_ = "q" + std::to_string(served_) + "\t" + queries_[served_ % queries_.size()] + "\n";
      ++queries_served_;
    }
    ++served_;
    setg(line_.data(), line_.data(), line_.data() + line_.size());
    return traits_type::to_int_type(line_[0]);
  }

 private:
  const std::size_t lines_;
  const std::vector<std::string> queries_;
  std::string line_;
  std::size_t served_ = 0;
  std::atomic<std::size_t> queries_served_ = 0;
};

// Checks each line written as it arrives: the qids follow the input, and
// few input lines have been read ahead of the answers written.
class AnswerSink : public std::streambuf {
 public:
  explicit AnswerSink(const QuerySource& source) : source_(source) {}
  std::size_t answers() const { return answers_; }
  std::size_t most_ahead() const { return most_ahead_; }
  std::size_t served_at_first_answer() const { return served_at_first_answer_; }
  std::size_t out_of_order() const { return out_of_order_; }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    if (traits_type::to_char_type(c) != '\n') {
      line_.push_back(traits_type::to_char_type(c));
      return c;
    }
    if (answers_ == 0) served_at_first_answer_ = source_.queries_served();
    if (next_line_ % 50 == 49) ++next_line_;
    const std::string qid = json::parse(line_).at("qid").get<std::string>();
    if (qid != "q" + std::to_string(next_line_)) ++out_of_order_;
    ++next_line_;
    ++answers_;
    most_ahead_ = std::max(most_ahead_, source_.queries_served() - answers_);
    line_.clear();
    return c;
  }

 private:
  const QuerySource& source_;
  std::string line_;
  std::size_t next_line_ = 0;
  std::size_t answers_ = 0;
  std::size_t most_ahead_ = 0;
  std::size_t served_at_first_answer_ = 0;
  std::size_t out_of_order_ = 0;
};

// Serves its lines one read at a time, noting what had been written to
// `out` when each line was asked for.
class LineByLine : public std::streambuf {
 public:
  LineByLine(std::vector<std::string> lines, const std::ostringstream& out)
      : lines_(std::move(lines)), out_(out) {}

  // What `out` held when each line was read.
  const std::vector<std::string>& written_before() const { return written_before_; }

 protected:
  int_type underflow() override {
    if (next_ == lines_.size()) return traits_type::eof();
    written_before_.push_back(out_.str());
    current_ = lines_[next_++];
    setg(current_.data(), current_.data(), current_.data() + current_.size());
    return traits_type::to_int_type(current_[0]);
  }

 private:
  std::vector<std::string> lines_;
  const std::ostringstream& out_;
  std::size_t next_ = 0;
  std::string current_;
  std::vector<std::string> written_before_;
};

// A program that writes a query and waits for its answer gets it before
// it writes the next.

TEST_F(BatchTest, LongInputStreamsInOrderWithFewQueriesInFlight) {
  constexpr std::size_t kLines = 20000;
  constexpr std::size_t kBlank = kLines / 50;
  QuerySource source(kLines);
  AnswerSink sink(source);
  std::istream in(&source);
  std::ostream out(&sink);
  std::ostringstream diagnostics;
  BatchConfig batch = config(2);
  batch.search.snippets.enabled = false;
  batch.search.limit = 3;
  const BatchReport report = run_batch(batch, in, out, diagnostics, "quarry");
  EXPECT_EQ(report.queries, kLines - kBlank);
  EXPECT_EQ(report.failed, 0u);
  EXPECT_EQ(sink.answers(), kLines - kBlank);
  EXPECT_EQ(sink.out_of_order(), 0u);
  EXPECT_LT(sink.served_at_first_answer(), 100u);
  EXPECT_LE(sink.most_ahead(), 16 * batch.threads);
}

// A program that writes a query and waits for its answer gets it before
// it writes the next.
TEST_F(BatchTest, EachLineIsAnsweredBeforeTheNextIsRead) {
  const std::vector<std::string> queries = {"penalty\n", "keeper\n", "derby final\n"};
  for (OutputFormat format : {OutputFormat::kJson, OutputFormat::kText, OutputFormat::kTrec}) {
    BatchConfig batch = config();
    batch.format = format;
    std::ostringstream out, diagnostics;
    LineByLine lines(queries, out);
    std::istream in(&lines);
    Searcher searcher(db_path());
    const BatchReport report = answer_each_line(searcher, batch, in, out, diagnostics, "quarry");
    EXPECT_EQ(report.queries, queries.size());
    ASSERT_EQ(lines.written_before().size(), queries.size());
    EXPECT_EQ(lines.written_before()[0], "");
    for (std::size_t i = 1; i < queries.size(); ++i) {
      EXPECT_GT(lines.written_before()[i].size(), lines.written_before()[i - 1].size()) << i;
    }
    // The same answers as a batch run.
    EXPECT_EQ(out.str(), run(batch, queries[0] + queries[1] + queries[2]).out);
  }
}

}  // namespace
}  // namespace quarry::testing
