// Xapian stub database files: a text file naming databases, one a line, that
// Xapian opens as one. Quarry reads them itself so that it can open the
// databases one by one, apply its own timeouts and name the one at fault.
#ifndef QUARRY_LIB_INDEX_STUB_FILE_H_
#define QUARRY_LIB_INDEX_STUB_FILE_H_

#include <string>
#include <vector>

namespace quarry::detail {

// The file name that makes a folder a stub database.
inline constexpr char kStubFileName[] = "XAPIANDB";

// What starts a stub line naming a replica of the database above it.
inline constexpr char kReplicaMark[] = "#replica ";

// One database of a shard set: a local folder, or a remote database served
// by xapian-tcpsrv (host and port) or reached through a program.
struct ShardLocation {
  enum class Kind { kLocal, kTcp, kProgram };
  Kind kind = Kind::kLocal;
  std::string path;  // kLocal: the folder; kProgram: the program
  std::string host;  // kTcp
  unsigned port = 0;
  std::string args;  // kProgram

  bool remote() const { return kind != Kind::kLocal; }
  // As a person would write it: the path, "remote HOST:PORT" or
  // "remote :PROGRAM ARGS".
  std::string name() const;
};

// The stub file `path` stands for: path/XAPIANDB for a folder holding one,
// `path` itself for a file; empty for anything else.
std::string stub_file_of(const std::string& path);

// The databases `paths` name, in order: a stub (see stub_file_of) is read
// line by line, following stubs it names; any other path is one local
// database. Stub lines are Xapian's: "auto|glass|chert PATH" (relative to
// the stub's folder), "remote HOST:PORT", "remote :PROGRAM ARGS", and the
// older "tcp HOST PORT" and "prog PROGRAM ARGS"; blank lines and lines
// starting with '#' are skipped. A database a stub names is listed whether
// or not it exists: opening it tells. Throws IndexNotFoundError for one of
// `paths` that does not exist, IndexError naming file and line for a stub
// line it cannot read.
std::vector<ShardLocation> resolve_shards(const std::vector<std::string>& paths);

// As resolve_shards, each database with its replicas: copies of it kept
// current elsewhere, which a stub names on "#replica LINE" lines after the
// database's own line (LINE as any stub line naming one database). Xapian
// takes them for comments, and opens the stub as the first copy of each
// database. Each entry holds the database first, then its replicas in the
// stub's order. Throws as resolve_shards, and IndexError for a "#replica"
// line that follows no line naming one database.
std::vector<std::vector<ShardLocation>> resolve_replicas(const std::vector<std::string>& paths);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_STUB_FILE_H_
