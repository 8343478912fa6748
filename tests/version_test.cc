// The versions Quarry reports: library_versions() and each program's --version.
#include "quarry/version.h"

#include <gtest/gtest.h>
#include <xapian.h>

#include <sstream>
#include <string>
#include <vector>

#include "tests/child_process.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

// "72.1", "1.4.22": numbers joined by dots, at least two.
bool is_release_number(const std::string& text) {
  std::istringstream parts(text);
  std::string part;
  int count = 0;
  while (std::getline(parts, part, '.')) {
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos) return false;
    ++count;
  }
  return count >= 2 && text.back() != '.';
}

TEST(LibraryVersionsTest, NamesThisReleaseAndTheLibrariesLoaded) {
  const LibraryVersions versions = library_versions();
  EXPECT_EQ(versions.quarry, QUARRY_PROJECT_VERSION);
  const std::string xapian_release =
      std::to_string(Xapian::major_version()) + "." + std::to_string(Xapian::minor_version()) + ".";
  EXPECT_EQ(versions.xapian.rfind(xapian_release, 0), 0u) << versions.xapian;
  EXPECT_TRUE(is_release_number(versions.icu)) << versions.icu;
}

// --version answers at once, wherever the index would be and whatever the
// other arguments: it reads no index.
TEST(ProgramVersionTest, EachProgramPrintsItsVersionAndTheLibraries) {
  TempDir dir;
  const std::vector<std::string> env{"HOME=" + (dir / "home").string(),
                                     "QUARRY_DB=" + (dir / "missing").string()};
  const LibraryVersions versions = library_versions();
  for (const std::string program : {"quarry", "quarry-index"}) {
    const std::string path = program == "quarry" ? QUARRY_BIN : QUARRY_INDEX_BIN;
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"--version"}, {"--version", "penalty"}}) {
      RunResult result = run_program(path, args, "", env);
      EXPECT_EQ(result.exit_code, 0) << program << ": " << result.err;
      EXPECT_EQ(result.out, program + " " + QUARRY_PROJECT_VERSION + "\nXapian " + versions.xapian +
                                "\nICU " + versions.icu + "\n");
      EXPECT_EQ(result.err, "") << program;
    }
  }
}

}  // namespace
}  // namespace quarry::testing
