#include "tests/test_util.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pty.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "quarry/error.h"

extern char** environ;

namespace quarry::testing {

TempDir::TempDir() {
  std::random_device random;
  const auto base = std::filesystem::temp_directory_path();
  for (int attempt = 0; attempt < 100; ++attempt) {
    auto candidate = base / ("quarry-test-" + std::to_string(random()));
    if (std::filesystem::create_directory(candidate)) {
      path_ = candidate;
      return;
    }
  }
  throw std::runtime_error("cannot create a temporary folder");
}

TempDir::~TempDir() {
  std::error_code ignored;
  // A test may have made files unreadable or folders unwritable on purpose.
  std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::add, ignored);
  std::filesystem::remove_all(path_, ignored);
}

std::string to_json_lines(const std::vector<Article>& articles) {
  std::string out;
  for (const Article& article : articles) {
    nlohmann::json line = {
        {"id", article.id},     {"title", article.title},       {"body", article.body},
        {"date", article.date}, {"category", article.category}, {"source", article.source}};
    if (!article.language.empty()) line["language"] = article.language;
    out += line.dump() + "\n";
  }
  return out;
}

std::vector<Article> english_and_french_articles() {
  return {{"strike-en", "Rail strike halts the trains",
           "Rail workers walked out on Monday, and most trains stood still.", "2026-03-02",
           "transport", "Wire", "english"},
          {"strike-fr", "La grève arrête les trains",
           "Les cheminots ont cessé le travail lundi, et la plupart des trains sont restés à quai.",
           "2026-03-02", "transport", "Wire", "french"}};
}

std::vector<Article> recency_articles() {
  return {{"lighthouse-old", "Keepers meet", "Lighthouse keepers met at the harbour.", "2024-04-01",
           "", ""},
          {"lighthouse-new", "Keepers meet again",
           "Lighthouse keepers met at the harbour on a cold and windy evening last week.",
           "2024-04-29", "", ""},
          {"ferry", "Ferry late", "The ferry left the harbour an hour late.", "2024-04-30", "", ""},
          {"market", "Fish market", "The fish market opened early.", "2024-04-30", "", ""}};
}

std::string index_path(const TempDir& dir) { return (dir / "index").string(); }

void expect_same_article(const Article& actual, const Article& expected) {
  EXPECT_EQ(actual.id, expected.id);
  EXPECT_EQ(actual.title, expected.title);
  EXPECT_EQ(actual.body, expected.body);
  EXPECT_EQ(actual.date, expected.date);
  EXPECT_EQ(actual.category, expected.category);
  EXPECT_EQ(actual.source, expected.source);
}

IndexReport index_articles(const TempDir& dir, const std::vector<Article>& articles,
                           const std::string& synonyms) {
  write_file(dir / "articles.jsonl", to_json_lines(articles));
  IndexConfig config;
  config.db_path = index_path(dir);
  if (!synonyms.empty()) {
    write_file(dir / "synonyms.txt", synonyms);
    config.synonyms_file = (dir / "synonyms.txt").string();
  }
  return index_paths(config, {(dir / "articles.jsonl").string()});
}

void write_file(const std::filesystem::path& path, const std::string& contents) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << contents;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

void write_private_file(const std::filesystem::path& path, const std::string& contents) {
  write_file(path, contents);
  std::filesystem::permissions(
      path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
}

std::vector<std::string> index_args(const std::filesystem::path& db,
                                    const std::vector<std::filesystem::path>& inputs,
                                    const std::vector<std::string>& options) {
  std::vector<std::string> args{"--db", db.string(), "--quiet"};
  args.insert(args.end(), options.begin(), options.end());
  for (const std::filesystem::path& input : inputs) args.push_back(input.string());
  return args;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::set<std::string> names_in(const std::filesystem::path& folder) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    names.insert(entry.path().filename().string());
  }
  return names;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string line_naming(const std::string& err, const std::string& where) {
  for (const std::string& line : lines_of(err)) {
    if (line.find(where + ": ") != std::string::npos) return line;
  }
  return "";
}

std::vector<std::string> sorted_ids(const SearchResult& result) {
  std::vector<std::string> ids;
  for (const Hit& hit : result.hits) ids.push_back(hit.id);
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::set<std::string> hit_ids(const std::filesystem::path& db, const std::string& query) {
  const RunResult result =
      run_program(QUARRY_BIN, {"--db", db.string(), "--format", "json", "-n", "100", query});
  EXPECT_EQ(result.exit_code, 0) << query << ": " << result.err;
  std::set<std::string> ids;
  if (result.exit_code != 0) return ids;
  const nlohmann::json answer = nlohmann::json::parse(result.out);
  for (const nlohmann::json& hit : answer.at("hits")) {
    ids.insert(hit.at("id").get<std::string>());
  }
  return ids;
}

std::chrono::duration<double> time_allowed(std::chrono::duration<double> idle) {
#if defined(__SANITIZE_ADDRESS__)
  constexpr double kSanitizers = 10;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  constexpr double kSanitizers = 10;
#else
  constexpr double kSanitizers = 1;
#endif
#else
  constexpr double kSanitizers = 1;
#endif
  constexpr double kBusyCores = 3;
  return idle * kSanitizers * kBusyCores;
}

bool eventually(const std::function<bool()>& done, std::chrono::seconds patience,
                std::chrono::milliseconds interval) {
  const auto deadline = std::chrono::steady_clock::now() + time_allowed(patience);
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(interval);
  }
  return done();
}

std::size_t matches(const std::filesystem::path& db, const std::string& query) {
  try {
    return Searcher(db.string()).search(query).total;
  } catch (const Error&) {
    return 0;
  }
}

std::string id_query(const std::string& id) { return "id:\"" + id + "\""; }

std::unique_ptr<TempDir> SharedIndexTest::dir_;
std::unique_ptr<Searcher> SharedIndexTest::searcher_;

void SharedIndexTest::SetUpTestSuite() {
  const IndexReport report = index_suite_paths({QUARRY_CORPUS_DIR});
  ASSERT_EQ(report.added, 3u);
}

void SharedIndexTest::TearDownTestSuite() {
  searcher_.reset();
  dir_.reset();
}

const TempDir& SharedIndexTest::suite_dir() {
  if (!dir_) dir_ = std::make_unique<TempDir>();
  return *dir_;
}

IndexReport SharedIndexTest::index_suite_articles(const std::vector<Article>& articles,
                                                  const std::string& synonyms) {
  const IndexReport report = index_articles(suite_dir(), articles, synonyms);
  open_searcher();
  return report;
}

IndexReport SharedIndexTest::index_suite_paths(const std::vector<std::string>& paths) {
  IndexConfig config;
  config.db_path = db_path();
  const IndexReport report = index_paths(config, paths);
  open_searcher();
  return report;
}

void SharedIndexTest::open_searcher() { searcher_ = std::make_unique<Searcher>(db_path()); }

std::u32string to_u32(const std::string& utf8) {
  std::u32string text;
  for (std::size_t i = 0; i < utf8.size();) {
    const auto lead = static_cast<unsigned char>(utf8[i]);
    const int length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    char32_t code = length == 1 ? lead : lead & (0x7F >> length);
    for (int k = 1; k < length && i + k < utf8.size(); ++k) {
      code = (code << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3F);
    }
    text.push_back(code);
    i += length;
  }
  return text;
}

const std::vector<ScriptSample>& script_samples() {
  static const std::vector<ScriptSample> samples = {
      {"thai",
       "เมื่อวานฝนตกหนักในกรุงเทพฯ ทำให้น้ำท่วมหลายพื้นที่",
       {"ฝน", "ตก", "หนัก", "ฝนตก", "ฝนตกหนัก", "เมื่อวาน", "กรุงเทพ", "น้ำท่วม", "ท่วม", "พื้นที่"},
       "เมื่อวานฝนตกหนักในกรุงเทพฯ"},
      {"lao",
       "ມື້ວານນີ້ຝົນຕົກໜັກຢູ່ນະຄອນຫຼວງວຽງຈັນ",
       {"ຝົນ", "ຕົກ", "ໜັກ", "ຝົນຕົກ", "ຝົນຕົກໜັກ", "ມື້ວານນີ້", "ນະຄອນຫຼວງ", "ວຽງຈັນ"},
       "ຝົນຕົກໜັກຢູ່ນະຄອນຫຼວງວຽງຈັນ"},
      {"khmer",
       "កាលពីម្សិលមិញ ភ្លៀងធ្លាក់ខ្លាំងនៅរាជធានីភ្នំពេញ",
       {"ភ្លៀង", "ធ្លាក់", "ខ្លាំង", "ភ្លៀងធ្លាក់", "ម្សិលមិញ", "រាជធានី", "ភ្នំពេញ", "ភ្នំ", "ពេញ"},
       "ភ្លៀងធ្លាក់ខ្លាំងនៅរាជធានីភ្នំពេញ"},
      {"myanmar",
       "မနေ့က ရန်ကုန်မြို့တွင် မိုးသည်းထန်စွာရွာသွန်းခဲ့သည်",
       {"မနေ့က", "ရန်ကုန်", "မြို့", "မိုး", "သည်းထန်စွာ", "ရွာသွန်း"},
       "မိုးသည်းထန်စွာရွာသွန်းခဲ့သည်"},
      {"chinese",
       "我住在北京市中心，每天骑自行车上班。",
       {"北京", "北京市", "市中心", "中心", "每天", "自行车", "上班"},
       "我住在北京市中心"},
      {"japanese",
       "東京都庁舎は新宿区にあり、展望室は無料で公開されています。",
       {"東京", "東京都", "都庁", "庁舎", "新宿", "新宿区", "展望室", "無料", "公開"},
       "東京都庁舎は新宿区にあり"},
  };
  return samples;
}

}  // namespace quarry::testing
