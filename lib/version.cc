#include "quarry/version.h"

#include <unicode/uversion.h>
#include <xapian.h>

namespace quarry {

LibraryVersions library_versions() {
  UVersionInfo icu;
  u_getVersion(icu);
  char icu_text[U_MAX_VERSION_STRING_LENGTH];
  u_versionToString(icu, icu_text);
  // QUARRY_VERSION comes from CMake's project(VERSION), for this file alone.
  return {QUARRY_VERSION, Xapian::version_string(), icu_text};
}

}  // namespace quarry
