#include "lib/index/stub_file.h"

#include <charconv>
#include <filesystem>
#include <fstream>

#include "lib/index/index_folder.h"
#include "quarry/error.h"

namespace quarry::detail {
namespace {

namespace fs = std::filesystem;

// Stubs naming stubs: deeper than this is taken for a loop.
constexpr int kMaxStubDepth = 8;

IndexError bad_line(const std::string& file, int line_number, const std::string& why) {
  return IndexError(file + ":" + std::to_string(line_number) + ": " + why);
}

unsigned parse_port(const std::string& text, const std::string& file, int line_number) {
  unsigned port = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), port);
  if (error != std::errc() || end != text.data() + text.size() || port == 0 || port > 65535) {
    throw bad_line(file, line_number, "'" + text + "' is not a port number");
  }
  return port;
}

std::pair<std::string, std::string> split_first_word(const std::string& text) {
  const std::size_t space = text.find(' ');
  if (space == std::string::npos) return {text, ""};
  const std::size_t rest = text.find_first_not_of(' ', space);
  return {text.substr(0, space), rest == std::string::npos ? "" : text.substr(rest)};
}

using Replicas = std::vector<ShardLocation>;

void resolve(const std::string& path, int depth, std::vector<Replicas>* out);

// The databases one stub line names (one, or a stub's), appended to `out`.
void read_line(const std::string& line, const std::string& file, int line_number, int depth,
               std::vector<Replicas>* out) {
  const fs::path folder = fs::path(file).parent_path();
  const auto [type, rest] = split_first_word(line);
  if (type == "auto" || type == "glass" || type == "chert") {
    if (rest.empty()) throw bad_line(file, line_number, "'" + type + "' needs a path");
    const fs::path target = fs::path(rest).is_absolute() ? fs::path(rest) : folder / rest;
    // A shard that is missing is the opener's to report, as for any
    // shard that cannot be opened.
    resolve(target.lexically_normal().string(), depth + 1, out);
  } else if ((type == "remote" && rest.starts_with(':')) || type == "prog") {
    const auto [program, args] = split_first_word(type == "prog" ? rest : rest.substr(1));
    if (program.empty()) throw bad_line(file, line_number, "a remote program needs a name");
    ShardLocation shard;
    shard.kind = ShardLocation::Kind::kProgram;
    shard.path = program;
    shard.args = args;
    out->push_back({std::move(shard)});
  } else if (type == "remote" || type == "tcp") {
    ShardLocation shard;
    shard.kind = ShardLocation::Kind::kTcp;
    if (type == "tcp") {
      const auto [host, port] = split_first_word(rest);
      shard.host = host;
      shard.port = parse_port(port, file, line_number);
    } else {
      const std::size_t colon = rest.rfind(':');
      if (colon == std::string::npos || colon == 0) {
        throw bad_line(file, line_number, "expected 'remote HOST:PORT'");
      }
      shard.host = rest.substr(0, colon);
      shard.port = parse_port(rest.substr(colon + 1), file, line_number);
    }
    out->push_back({std::move(shard)});
  } else {
    throw bad_line(
        file, line_number,
        "expected 'auto PATH', 'remote HOST:PORT' or 'remote :PROGRAM ARGS', not '" + type + "'");
  }
}

void read_stub(const std::string& file, int depth, std::vector<Replicas>* out) {
  if (depth > kMaxStubDepth) throw IndexError(file + ": stub files name each other in a loop");
  std::ifstream in(file);
  if (!in) throw IndexError("cannot read stub file " + file);
  int line_number = 0;
  // Whether the last line named one database, which "#replica" lines may
  // then add copies of.
  bool one_database = false;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.starts_with(kReplicaMark)) {
      if (!one_database) {
        throw bad_line(file, line_number,
                       "a replica must follow the line of the one database it copies");
      }
      std::vector<Replicas> copy;
      read_line(line.substr(sizeof kReplicaMark - 1), file, line_number, depth, &copy);
      if (copy.size() != 1 || copy.front().size() != 1) {
        throw bad_line(file, line_number, "a replica must name one database");
      }
      out->back().push_back(std::move(copy.front().front()));
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    const std::size_t before = out->size();
    read_line(line, file, line_number, depth, out);
    one_database = out->size() == before + 1;
  }
}

void resolve(const std::string& path, int depth, std::vector<Replicas>* out) {
  if (const std::string stub = stub_file_of(path); !stub.empty()) {
    read_stub(stub, depth, out);
    return;
  }
  ShardLocation shard;
  shard.path = path;
  out->push_back({std::move(shard)});
}

}  // namespace

std::string ShardLocation::name() const {
  switch (kind) {
    case Kind::kLocal:
      return path;
    case Kind::kTcp:
      return "remote " + host + ":" + std::to_string(port);
    case Kind::kProgram:
      return "remote :" + path + (args.empty() ? "" : " " + args);
  }
  return path;
}

std::string stub_file_of(const std::string& path) {
  std::error_code error;
  if (fs::is_directory(path, error)) {
    const fs::path stub = fs::path(path) / kStubFileName;
    return fs::is_regular_file(stub, error) ? stub.string() : "";
  }
  return fs::is_regular_file(path, error) ? path : "";
}

std::vector<std::vector<ShardLocation>> resolve_replicas(const std::vector<std::string>& paths) {
  std::vector<Replicas> shards;
  for (const std::string& path : paths) {
    std::error_code error;
    if (!fs::exists(path, error)) {
      throw IndexNotFoundError(no_index_message(path));
    }
    resolve(path, 0, &shards);
  }
  return shards;
}

std::vector<ShardLocation> resolve_shards(const std::vector<std::string>& paths) {
  std::vector<ShardLocation> first;
  for (Replicas& replicas : resolve_replicas(paths)) first.push_back(std::move(replicas.front()));
  return first;
}

}  // namespace quarry::detail
