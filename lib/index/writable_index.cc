#include "lib/index/writable_index.h"

#include "lib/index/database_writer.h"
#include "lib/index/index_folder.h"
#include "lib/index/shard_set.h"

namespace quarry::detail {

std::unique_ptr<WritableIndex> open_writable_index(const IndexConfig& config) {
  if (is_shard_set_config(config)) return std::make_unique<ShardSetWriter>(config);
  return std::make_unique<DatabaseWriter>(config);
}

}  // namespace quarry::detail
