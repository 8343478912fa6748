// Helpers for tests that break things on purpose: large synthetic corpora,
// private mounts (a small or read-only file system), and checks that an
// index is whole.
#ifndef QUARRY_TESTS_FAULT_UTIL_H_
#define QUARRY_TESTS_FAULT_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace quarry::testing {

// `count` JSON Lines articles with ids prefix0 .. prefix<count-1>, of news-
// like length, made of pseudo-words drawn with `seed`. Every body holds the
// word "quarrystone".
std::string synthetic_corpus(std::size_t count, std::uint32_t seed, const std::string& prefix);

// The ids synthetic_corpus gives `count` articles with `prefix`.
std::vector<std::string> synthetic_ids(const std::string& prefix, std::size_t count);

// The seed of a randomised test: $QUARRY_TEST_SEED when set, else random.
// Printed by the caller so that a failure can be replayed.
std::uint32_t test_seed();

// The full path of a program found on $PATH, or "" when there is none.
std::string find_program(const std::string& name);

// Runs xapian-check on `db`; returns "" when it finds the database
// consistent, else what it said.
std::string xapian_check(const std::filesystem::path& db);

// The ids of `db` (from the article data) that are not held by exactly one
// document, and whether the document count equals `expected.size()` with
// every expected id present. Returns a description of every discrepancy, or
// "" when the index holds each expected article exactly once.
std::string index_discrepancies(const std::filesystem::path& db,
                                const std::vector<std::string>& expected);

// A mount namespace of this process's own, in which file systems can be
// mounted for a test and vanish with it. Unavailable (see reason()) where
// the sandbox forbids it.
class PrivateMounts {
 public:
  PrivateMounts();
  ~PrivateMounts();  // unmounts what was mounted
  PrivateMounts(const PrivateMounts&) = delete;
  PrivateMounts& operator=(const PrivateMounts&) = delete;

  bool available() const { return reason_.empty(); }
  const std::string& reason() const { return reason_; }

  // A tmpfs of `bytes` at `folder`. Returns false (and sets reason()) when
  // it cannot be mounted.
  bool mount_tmpfs(const std::filesystem::path& folder, std::size_t bytes);
  // `folder` made read-only where it is.
  bool make_read_only(const std::filesystem::path& folder);

 private:
  std::string reason_;
  std::vector<std::filesystem::path> mounted_;
};

}  // namespace quarry::testing

#endif  // QUARRY_TESTS_FAULT_UTIL_H_
