// A new index moved into a folder that holds its lock: the database opens
// there whole, and the lock file is still the file the run locked.
#include "lib/index/index_placement.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xapian.h>

#include <filesystem>
#include <functional>
#include <set>
#include <string>

#include "tests/test_util.h"

namespace quarry::detail {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

// A database of one document, as a build leaves it in its private folder.
fs::path built_database(const TempDir& dir) {
  const fs::path built = dir / "index.building-1" / "merged";
  fs::create_directories(built.parent_path());
  Xapian::WritableDatabase db(built.string(), Xapian::DB_CREATE);
  Xapian::Document doc;
  doc.add_term("lighthouse");
  db.add_document(doc);
  db.commit();
  return built;
}

ino_t inode_of(const fs::path& path) {
  struct stat status {};
  EXPECT_EQ(stat(path.c_str(), &status), 0) << path;
  return status.st_ino;
}

using Placing = std::function<std::error_code(const fs::path&, const fs::path&)>;

// Each way of placing, into a folder holding a lock this test holds.
void expect_placed_around_the_lock(const Placing& place) {
  const TempDir dir;
  const fs::path built = built_database(dir);
  const fs::path target = dir / "index";
  fs::create_directory(target);
  const fs::path lock = target / ".index.lock";
  const int held = open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_EQ(flock(held, LOCK_EX), 0);
  const ino_t locked = inode_of(lock);

  EXPECT_FALSE(place(built, target));
  EXPECT_EQ(Xapian::Database(target.string()).get_termfreq("lighthouse"), 1u);
  EXPECT_EQ(inode_of(lock), locked) << "the lock file was replaced";
  EXPECT_FALSE(fs::exists(built));
  EXPECT_EQ(testing::names_in(target).count(".index.lock"), 1u);
  const int other = open(lock.c_str(), O_RDWR | O_CLOEXEC);
  EXPECT_NE(flock(other, LOCK_EX | LOCK_NB), 0) << "the lock is still held";
  close(other);
  close(held);
}

TEST(IndexPlacement, SwapsTheDatabaseInAroundTheLock) {
  expect_placed_around_the_lock(place_database);
}

TEST(IndexPlacement, MovesItsFilesInWhereFoldersCannotBeSwapped) {
  expect_placed_around_the_lock(move_database_files);
}

TEST(IndexPlacement, TakesThePlaceOfNothingOrAnEmptyFolder) {
  for (const bool empty_folder : {false, true}) {
    const TempDir dir;
    const fs::path built = built_database(dir);
    const fs::path target = dir / "index";
    if (empty_folder) fs::create_directory(target);
    EXPECT_FALSE(place_database(built, target));
    EXPECT_EQ(Xapian::Database(target.string()).get_termfreq("lighthouse"), 1u);
    EXPECT_FALSE(fs::exists(built));
  }
}

}  // namespace
}  // namespace quarry::detail
