// Building a new index on every core: each writer fills a part of its own
// (a database, part-K) in a private folder beside the index; Xapian's
// compaction then merges the parts into one lean database, which is renamed
// into place. Until then the
// index does not exist, so readers never see half of it.
#ifndef QUARRY_LIB_INDEX_PARALLEL_BUILD_H_
#define QUARRY_LIB_INDEX_PARALLEL_BUILD_H_

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "lib/index/story_linker.h"
#include "quarry/index/index_writer.h"
#include "quarry/input/article.h"

namespace quarry::detail {

// Told as each step of publishing begins.
using StepObserver = std::function<void(IndexStep)>;

class ParallelBuild {
 public:
  // Starts `writers` threads. Throws IndexError when the private folder
  // cannot be made.
  ParallelBuild(const std::string& db_path, const std::string& language, std::size_t writers,
                std::size_t commit_every);
  // Without publish(), the committed parts stay behind for
  // adopt_interrupted_build to merge on the next run.
  ~ParallelBuild();

  // The articles of the build, by language, once publish() has finished
  // the parts.
  LanguageCounts language_counts() const;
  ParallelBuild(const ParallelBuild&) = delete;
  ParallelBuild& operator=(const ParallelBuild&) = delete;

  // Queues the article, whose id must not have been added before, for the
  // writer of its part (chosen by its id). Blocks while the writers are
  // behind, which bounds memory. Rethrows a writer's failure.
  void add(Article article, const std::string& origin);

  // Waits for the writers, links the stories, merges the parts and moves
  // the index into place, telling `on_step` as each of those begins.
  // Returns false when linking was cancelled (see LinkControl): the parts
  // then stay, committed, for the next run to adopt. Throws IndexError.
  bool publish(const StepObserver& on_step, const LinkControl& control = {});

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Whether `db_path` holds no index yet: absent, or a folder holding
// nothing but the lock files (index_lock.h).
bool index_absent(const std::string& db_path);

// When `db_path` holds no index but a killed build left committed parts
// beside it, merges them into place so that the next run only adds what is
// missing; removes private folders of builds that are no longer running.
// Returns false when *cancel turned true while their stories were linked:
// the parts stay, and there is still no index.
bool adopt_interrupted_build(const std::string& db_path, const std::atomic<bool>* cancel = nullptr);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_PARALLEL_BUILD_H_
