// Reading a file that holds secrets, such as quarry serve's --token-file,
// only once it is known to be one: a file others may read has leaked its
// secrets already, and a device or a FIFO named by mistake would be read
// without end or wait for a writer forever.
#ifndef QUARRY_APP_SERVER_PRIVATE_FILE_H_
#define QUARRY_APP_SERVER_PRIVATE_FILE_H_

#include <cstddef>
#include <string>

namespace quarry {

// The whole of `path`, which must be a regular file (a symbolic link is
// followed to one, as ssh follows them, and the file it reaches is
// checked) of at most `max_bytes`, owned by the user this process runs as
// or by root, and open to no one but its owner; owned by root, its group may
// read it too (mode 0640), as PostgreSQL allows of its key files. Opening it
// never waits for a FIFO's writer. Throws ConfigError "`named`: why" when
// it cannot be read or is not such a file, with the command that makes it
// one where there is one ("chmod 600 PATH").
std::string read_private_file(const std::string& path, const std::string& named,
                              std::size_t max_bytes);

}  // namespace quarry

#endif  // QUARRY_APP_SERVER_PRIVATE_FILE_H_
