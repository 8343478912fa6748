#include "quarry/error.h"

#include "lib/text/utf8_repair.h"

namespace quarry {

namespace {

// The query as a message shows it: on one line (control characters become
// spaces, one for one, so that the column still points at the fault) and in
// valid UTF-8.
std::string printable(const std::string& query) {
  std::string shown = detail::repair_utf8(query);
  for (char& c : shown) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
  }
  return shown;
}

}  // namespace

QueryError::QueryError(const std::string& query, std::size_t column, const std::string& reason)
    : Error("query \"" + printable(query) + "\": " + reason + " (column " + std::to_string(column) +
            ")"),
      query_(query),
      column_(column),
      reason_(reason) {}

QueryError::QueryError(const std::string& message, const std::string& query,
                       const std::string& reason)
    : Error(message), query_(query), column_(0), reason_(reason) {}

UnknownArticleError::UnknownArticleError(const std::string& id)
    : QueryError("no article has the id \"" + printable(id) + "\"", id, "no article has this id") {}

}  // namespace quarry
