// An exception that is not Quarry's, met by the real programs: they end
// with one line naming it and the exit code their help documents, not
// through std::terminate.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "tests/child_process.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;

// ASan and TSan reserve terabytes of address space for their shadow memory:
// a program built with them cannot start under an address-space limit.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

// What quarry may map: far more than it needs to start and read a small
// file, far less than the file below.
constexpr unsigned long kAddressSpace = 256ul << 20;

// The help's line for exit code `code`, with the lines that continue it.
std::string exit_code_text(const std::string& help, int code) {
  const std::string marker = "\n  " + std::to_string(code) + "  ";
  const std::size_t start = help.find(marker);
  if (start == std::string::npos) return "";
  const std::size_t end = help.find("\n  " + std::to_string(code + 1) + "  ", start + 1);
  return help.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

TEST(OutOfMemoryTest, QuarryEndsWithOneLineAndTheDocumentedCode) {
  if (kSanitized) GTEST_SKIP() << "a sanitizer's shadow memory needs an unlimited address space";
  TempDir dir;
  const fs::path index = dir / "index";
  fs::create_directories(index);
  // A saved-searches file of a gigabyte, which `alert list` reads whole
  // before parsing it: more than quarry may map. Sparse, so that it takes
  // no room on the disk.
  const fs::path searches = index / "saved-searches.json";
  std::ofstream(searches).close();
  fs::resize_file(searches, std::uintmax_t{1} << 30);

  ChildOptions options;
  options.address_space_limit = kAddressSpace;
  ChildProcess quarry(QUARRY_BIN, {"alert", "list", "--db", index.string()}, dir.path(), options);
  const std::optional<int> exit_code = quarry.wait();

  ASSERT_TRUE(exit_code.has_value());
  EXPECT_EQ(*exit_code, 1);
  EXPECT_EQ(quarry.err(), "quarry: out of memory\n");
  EXPECT_EQ(quarry.out(), "");
  const std::string help = run_program(QUARRY_BIN, {"--help"}).out;
  EXPECT_NE(exit_code_text(help, 1).find("memory runs out"), std::string::npos) << help;
}

}  // namespace
}  // namespace quarry::testing
