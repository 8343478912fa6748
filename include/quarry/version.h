// The versions a build of Quarry is made of, for --version and bug reports.
#ifndef QUARRY_VERSION_H_
#define QUARRY_VERSION_H_

#include <string>

namespace quarry {

struct LibraryVersions {
  std::string quarry;  // this release, as the build names it ("0.1.0")
  std::string xapian;  // the Xapian library linked at run time ("1.4.22")
  std::string icu;     // the ICU library linked at run time ("72.1")
};

// Xapian's and ICU's versions are those of the shared libraries loaded, which
// may be newer than the headers Quarry was built with. Thread-safe.
LibraryVersions library_versions();

}  // namespace quarry

#endif  // QUARRY_VERSION_H_
