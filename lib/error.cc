#include "quarry/error.h"

namespace quarry {

QueryError::QueryError(const std::string& query, std::size_t column, const std::string& reason)
    : Error("query \"" + query + "\": " + reason + " (column " + std::to_string(column) + ")"),
      query_(query),
      column_(column),
      reason_(reason) {}

}  // namespace quarry
