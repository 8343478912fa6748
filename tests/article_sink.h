// What the tests of the article readers share: a sink that records what
// it is given, and ways to write the files they read.
#ifndef QUARRY_TESTS_ARTICLE_SINK_H_
#define QUARRY_TESTS_ARTICLE_SINK_H_

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstddef>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "quarry/input/article_reader.h"

namespace quarry::testing {

// U+FFFD, the replacement character, in UTF-8.
inline const std::string kFffd = "\xEF\xBF\xBD";

// Keeps every article and problem a reader gives it, and asks the reader
// to stop once it holds `stop_after` articles.
class RecordingSink : public ArticleSink {
 public:
  struct Delivery {
    Article article;
    SourceLocation where;
  };

  explicit RecordingSink(std::size_t stop_after = std::numeric_limits<std::size_t>::max())
      : stop_after_(stop_after) {}

  void on_article(Article&& article, const SourceLocation& where) override {
    articles.push_back({std::move(article), where});
  }
  void on_problem(const ReadProblem& problem) override { problems.push_back(problem); }
  bool should_stop() const override { return articles.size() >= stop_after_; }

  std::vector<std::string> ids() const {
    std::vector<std::string> ids;
    for (const auto& delivery : articles) ids.push_back(delivery.article.id);
    return ids;
  }

  std::vector<Delivery> articles;
  std::vector<ReadProblem> problems;

 private:
  std::size_t stop_after_;
};

// Whether `part` stands anywhere in `text`.
inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Writes `contents` gzip-compressed to `path`.
inline void write_gzip(const std::filesystem::path& path, const std::string& contents) {
  gzFile file = gzopen(path.c_str(), "wb");
  ASSERT_NE(file, nullptr);
  ASSERT_EQ(gzwrite(file, contents.data(), static_cast<unsigned>(contents.size())),
            static_cast<int>(contents.size()));
  ASSERT_EQ(gzclose(file), Z_OK);
}

// `count` JSON lines of articles, ids n1.., each of other words so that
// their compressed stream is long enough to cut; the last one ends with
// `last_words`.
inline std::string numbered_lines(int count, const std::string& last_words = "") {
  std::string contents;
  for (int i = 1; i <= count; ++i) {
    contents += R"({"id": "n)" + std::to_string(i) + R"(", "title": "Title )" +
                std::to_string(i * 7919 % 10007) + R"(", "body": "Body )" +
                std::to_string(i * 104729 % 1000003) + " " + std::to_string(i * i) +
                (i == count ? last_words : "") + "\"}\n";
  }
  return contents;
}

// `text`, `times` times over.
inline std::string repeat(const std::string& text, int times) {
  std::string repeated;
  for (int i = 0; i < times; ++i) repeated += text;
  return repeated;
}

}  // namespace quarry::testing

#endif  // QUARRY_TESTS_ARTICLE_SINK_H_
