// The one way a Xapian::Error leaves the engine: as an IndexError that says
// what was being done, and to which index, when it happened.
#ifndef QUARRY_LIB_INDEX_INDEX_ERROR_H_
#define QUARRY_LIB_INDEX_INDEX_ERROR_H_

#include <xapian.h>

#include <string>

#include "quarry/error.h"

namespace quarry::detail {

// "CONTEXT: Xapian's description", where `context` names the index and,
// when it helps, the step ("index /srv/news", "merging the new index
// /srv/news").
inline IndexError index_error(const std::string& context, const Xapian::Error& error) {
  return IndexError(context + ": " + error.get_description());
}

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_INDEX_ERROR_H_
