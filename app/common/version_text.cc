#include "app/common/version_text.h"

#include "quarry/version.h"

namespace quarry {

std::string version_text(std::string_view program) {
  const LibraryVersions versions = library_versions();
  return std::string(program) + " " + versions.quarry + "\nXapian " + versions.xapian + "\nICU " +
         versions.icu;
}

}  // namespace quarry
