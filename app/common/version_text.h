// What --version prints, the same for every program.
#ifndef QUARRY_APP_COMMON_VERSION_TEXT_H_
#define QUARRY_APP_COMMON_VERSION_TEXT_H_

#include <string>
#include <string_view>

namespace quarry {

// "quarry 0.1.0" on the first line, as help2man and scripts read it, then a
// line each for the Xapian and ICU libraries in use; no final newline.
std::string version_text(std::string_view program);

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_VERSION_TEXT_H_
