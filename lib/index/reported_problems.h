// What earlier runs reported of the inputs, kept in the index, so that a run
// that meets the same problem in the same unchanged file says "as before"
// instead of repeating it, and fails only on what is new.
#ifndef QUARRY_LIB_INDEX_REPORTED_PROBLEMS_H_
#define QUARRY_LIB_INDEX_REPORTED_PROBLEMS_H_

#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

#include "quarry/input/article_reader.h"

namespace quarry::detail {

// A hash of the contents of the file at `path` (XXH3), which changes when
// the file does; of a symbolic link, of where it points; 0 for what is no
// regular file or cannot be read. `path` is as the readers report it, its
// bytes that are not UTF-8 escaped (see path_text).
std::uint64_t file_fingerprint(const std::string& path);

// Not thread-safe: one run's thread.
class ReportedProblems {
 public:
  // `stored`: what to_stored() wrote at the end of an earlier run, or ""
  // (a new index). What cannot be read counts as nothing reported.
  explicit ReportedProblems(const std::string& stored);

  // Notes a problem of this run met in the input `origin` (the folder or
  // corpus given) and returns whether an earlier run reported it: the same
  // place, the same reason, and a file whose contents are the same.
  bool note(const std::string& origin, const ReadProblem& problem);

  // Says that this run read `origin` through: what earlier runs reported
  // of it is forgotten, so a problem that was fixed is not kept.
  void origin_read(const std::string& origin);

  // What to store for the next run: this run's problems, and the earlier
  // runs' of inputs this run did not read through.
  std::string to_stored() const;

 private:
  // origin, place ("path:line"), reason, fingerprint of the file.
  using Entry = std::tuple<std::string, std::string, std::string, std::uint64_t>;

  std::set<Entry> before_;
  std::set<Entry> now_;
  std::set<std::string> read_;
  std::unordered_map<std::string, std::uint64_t> fingerprints_;  // by path
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_REPORTED_PROBLEMS_H_
