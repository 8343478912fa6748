// index_paths in two steps, for a live index that holds the index's lock
// from before its initial run until it ends (see live_index.h).
#ifndef QUARRY_LIB_INDEX_INDEXING_RUN_H_
#define QUARRY_LIB_INDEX_INDEXING_RUN_H_

#include <string>
#include <vector>

#include "quarry/index/index_writer.h"

namespace quarry::detail {

// What index_paths checks and reads before it touches the index, throwing
// as it does; with `refuse_empty`, a new index of folders holding no
// article is refused too. `config.db_path` is plain (with_plain_db_path).
// Returns the synonym groups to store.
std::vector<std::vector<std::string>> prepare_run(const IndexConfig& config,
                                                  const std::vector<std::string>& paths,
                                                  bool refuse_empty);

// index_paths' run after prepare_run, for a caller that holds the index's
// lock (IndexLock).
IndexReport run_locked(const IndexConfig& config, const std::vector<std::string>& paths,
                       const std::vector<std::vector<std::string>>& synonyms,
                       IndexObserver* observer);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_INDEXING_RUN_H_
