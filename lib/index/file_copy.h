// A copy of one file that says why it failed. std::filesystem::copy_file in
// libstdc++ 12 reports a copy cut short by a full disk as "Input/output
// error" (EIO), where the system said "No space left on device": the
// snapshot copies with this instead, so that its error names the cause.
#ifndef QUARRY_LIB_INDEX_FILE_COPY_H_
#define QUARRY_LIB_INDEX_FILE_COPY_H_

#include <filesystem>
#include <system_error>

namespace quarry::detail {

// Copies the regular file `from` to `to`, which must not exist. Returns
// the error the system reported (ENOSPC, EDQUOT, EIO ...), or no error.
// A failed copy leaves what it wrote of `to`.
std::error_code copy_regular_file(const std::filesystem::path& from,
                                  const std::filesystem::path& to);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_FILE_COPY_H_
