#include "lib/input/input_size.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <string>

#include "quarry/index/index_writer.h"
#include "tests/test_util.h"

namespace quarry::detail {
namespace {

using testing::TempDir;
using testing::write_file;

void write_gzip(const std::filesystem::path& path, const std::string& contents) {
  gzFile file = gzopen(path.c_str(), "wb");
  ASSERT_NE(file, nullptr);
  ASSERT_EQ(gzwrite(file, contents.data(), static_cast<unsigned>(contents.size())),
            static_cast<int>(contents.size()));
  ASSERT_EQ(gzclose(file), Z_OK);
}

TEST(InputSize, CountsArticleFilesUncompressedAndNothingElse) {
  TempDir dir;
  write_file(dir / "news" / "a.txt", std::string(10, 'a'));
  write_file(dir / "news" / "deep" / "b.jsonl", std::string(20, 'b'));
  write_file(dir / "news" / ".hidden" / "c.txt", std::string(40, 'c'));
  write_file(dir / "news" / "notes.md", std::string(80, 'd'));
  write_gzip(dir / "news" / "wire.jsonl.gz", std::string(5000, 'e'));
  write_file(dir / "single.txt", std::string(7, 'f'));
  EXPECT_EQ(estimated_input_bytes({(dir / "news").string(), (dir / "single.txt").string(),
                                   (dir / "missing").string()}),
            10u + 20u + 5000u + 7u);
}

TEST(InputSize, ARunReadsAboutWhatWasEstimated) {
  TempDir dir;
  std::string corpus;
  for (int i = 0; i < 50; ++i) {
    corpus += "{\"id\": \"a" + std::to_string(i) + "\", \"title\": \"Derby\", \"body\": \"" +
              std::string(400, 'x') + "\"}\n";
  }
  write_gzip(dir / "wire.jsonl.gz", corpus);
  IndexConfig config;
  config.db_path = (dir / "index").string();
  const IndexReport report = index_paths(config, {(dir / "wire.jsonl.gz").string()});
  EXPECT_EQ(report.input_bytes, corpus.size());
  // The text of the articles, without the JSON around it.
  EXPECT_LT(report.bytes_read, report.input_bytes);
  EXPECT_GT(report.bytes_read, report.input_bytes * 9 / 10);
}

}  // namespace
}  // namespace quarry::detail
