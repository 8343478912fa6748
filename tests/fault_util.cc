#include "tests/fault_util.h"

#include <sched.h>
#include <sys/mount.h>
#include <unistd.h>
#include <xapian.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "lib/index/article_store.h"
#include "lib/index/schema.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

std::string pseudo_word(std::mt19937& random) {
  static constexpr char kSyllables[][4] = {"ka",  "lo",  "mi",  "ne",  "ru",  "sa",  "ti", "vo",
                                           "ber", "dan", "gor", "pel", "qua", "str", "wen"};
  std::uniform_int_distribution<int> syllables(1, 4);
  std::uniform_int_distribution<std::size_t> pick(0, std::size(kSyllables) - 1);
  std::string word;
  for (int i = syllables(random); i > 0; --i) word += kSyllables[pick(random)];
  return word;
}

}  // namespace

std::string synthetic_corpus(std::size_t count, std::uint32_t seed, const std::string& prefix) {
  std::mt19937 random(seed);
  std::vector<std::string> vocabulary;
  for (int i = 0; i < 5000; ++i) vocabulary.push_back(pseudo_word(random));
  // Zipf-like: low ranks are drawn far more often, as in real text.
  std::vector<double> weights;
  for (std::size_t rank = 1; rank <= vocabulary.size(); ++rank) weights.push_back(1.0 / rank);
  std::discrete_distribution<std::size_t> word(weights.begin(), weights.end());
  std::uniform_int_distribution<int> length(30, 150);
  std::string corpus;
  for (std::size_t i = 0; i < count; ++i) {
    std::string title = vocabulary[word(random)] + " " + vocabulary[word(random)];
    std::string body = "quarrystone";
    for (int n = length(random); n > 0; --n) body += " " + vocabulary[word(random)];
    const nlohmann::json line = {
        {"id", prefix + std::to_string(i)}, {"title", title}, {"body", body}};
    corpus += line.dump() + "\n";
  }
  return corpus;
}

std::vector<std::string> synthetic_ids(const std::string& prefix, std::size_t count) {
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < count; ++i) ids.push_back(prefix + std::to_string(i));
  return ids;
}

std::uint32_t test_seed() {
  if (const char* seed = std::getenv("QUARRY_TEST_SEED"); seed && *seed) {
    return static_cast<std::uint32_t>(std::strtoul(seed, nullptr, 10));
  }
  return std::random_device()();
}

std::string find_program(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream folders(path ? path : "/usr/bin:/bin");
  for (std::string folder; std::getline(folders, folder, ':');) {
    const std::filesystem::path candidate = std::filesystem::path(folder) / name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return "";
}

std::string xapian_check(const std::filesystem::path& db) {
  const std::string program = find_program("xapian-check");
  if (program.empty()) return "xapian-check is not installed";
  const RunResult result = run_program(program, {db.string()});
  if (result.exit_code == 0 && result.out.find("No errors found") != std::string::npos) return "";
  return "xapian-check exit " + std::to_string(result.exit_code) + ":\n" + result.out + result.err;
}

std::string index_discrepancies(const std::filesystem::path& db_path,
                                const std::vector<std::string>& expected) {
  std::ostringstream problems;
  try {
    const Xapian::Database db(db_path.string());
    if (db.get_doccount() != expected.size()) {
      problems << db.get_doccount() << " documents, expected " << expected.size() << "\n";
    }
    std::size_t shown = 0;
    for (const std::string& id : expected) {
      const Xapian::doccount freq = db.get_termfreq(detail::id_term(id));
      if (freq != 1 && shown++ < 10) problems << "id " << id << " held " << freq << " times\n";
    }
    std::map<std::string, int> seen;
    detail::ArticleStore store(db.get_metadata(detail::kTextDictionaryKey));
    for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) {
      ++seen[store.decode(db.get_document(*it).get_value(detail::kArticleSlot)).id];
    }
    for (const auto& [id, times] : seen) {
      if (times != 1 && shown++ < 20) problems << "stored article " << id << " " << times << "x\n";
    }
  } catch (const std::exception& error) {
    problems << "cannot read " << db_path << ": " << error.what() << "\n";
  } catch (const Xapian::Error& error) {
    problems << "cannot read " << db_path << ": " << error.get_description() << "\n";
  }
  return problems.str();
}

PrivateMounts::PrivateMounts() {
  if (unshare(CLONE_NEWNS) != 0) {
    reason_ = std::string("cannot make a mount namespace: ") + std::strerror(errno);
  } else if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
    reason_ = std::string("cannot make mounts private: ") + std::strerror(errno);
  }
}

PrivateMounts::~PrivateMounts() {
  for (auto it = mounted_.rbegin(); it != mounted_.rend(); ++it) umount2(it->c_str(), MNT_DETACH);
}

bool PrivateMounts::mount_tmpfs(const std::filesystem::path& folder, std::size_t bytes) {
  if (!available()) return false;
  const std::string options = "size=" + std::to_string(bytes);
  if (mount("tmpfs", folder.c_str(), "tmpfs", 0, options.c_str()) != 0) {
    reason_ = std::string("cannot mount a tmpfs: ") + std::strerror(errno);
    return false;
  }
  mounted_.push_back(folder);
  return true;
}

bool PrivateMounts::make_read_only(const std::filesystem::path& folder) {
  if (!available()) return false;
  if (mount(folder.c_str(), folder.c_str(), nullptr, MS_BIND, nullptr) != 0) {
    reason_ = std::string("cannot bind-mount: ") + std::strerror(errno);
    return false;
  }
  mounted_.push_back(folder);
  if (mount(nullptr, folder.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) != 0) {
    reason_ = std::string("cannot remount read-only: ") + std::strerror(errno);
    return false;
  }
  return true;
}

}  // namespace quarry::testing
