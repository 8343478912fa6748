#include "lib/index/reported_problems.h"

#include <xxhash.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "lib/input/path_text.h"
#include "quarry/json_text.h"

namespace quarry::detail {
namespace {

using json = nlohmann::json;

struct StateDeleter {
  void operator()(XXH3_state_t* state) const { XXH3_freeState(state); }
};

}  // namespace

std::uint64_t file_fingerprint(const std::string& path) {
  if (path.empty()) return 0;
  const std::filesystem::path file = path_bytes(path);
  std::error_code error;
  // A link is known by where it points, which may be outside the folders
  // given: what is there is not read.
  if (std::filesystem::is_symlink(std::filesystem::symlink_status(file, error))) {
    const std::string target = std::filesystem::read_symlink(file, error).native();
    return error ? 0 : XXH3_64bits(target.data(), target.size());
  }
  if (!std::filesystem::is_regular_file(file, error)) return 0;
  std::ifstream in(file, std::ios::binary);
  const std::unique_ptr<XXH3_state_t, StateDeleter> state(XXH3_createState());
  if (!in || !state || XXH3_64bits_reset(state.get()) == XXH_ERROR) return 0;
  std::vector<char> buffer(1 << 16);
  while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0) {
    XXH3_64bits_update(state.get(), buffer.data(), static_cast<std::size_t>(in.gcount()));
  }
  return in.bad() ? 0 : XXH3_64bits_digest(state.get());
}

ReportedProblems::ReportedProblems(const std::string& stored) {
  if (stored.empty()) return;
  const json entries = json::parse(stored, nullptr, false);
  if (!entries.is_array()) return;
  for (const json& entry : entries) {
    if (!entry.is_array() || entry.size() != 4 || !entry[0].is_string() || !entry[1].is_string() ||
        !entry[2].is_string() || !entry[3].is_number_unsigned()) {
      continue;
    }
    before_.emplace(entry[0].get<std::string>(), entry[1].get<std::string>(),
                    entry[2].get<std::string>(), entry[3].get<std::uint64_t>());
  }
}

bool ReportedProblems::note(const std::string& origin, const ReadProblem& problem) {
  auto [at, inserted] = fingerprints_.try_emplace(problem.where.path, 0);
  if (inserted) at->second = file_fingerprint(problem.where.path);
  Entry entry{origin, problem.where.to_string(), problem.reason, at->second};
  const bool known = before_.contains(entry);
  now_.insert(std::move(entry));
  return known;
}

void ReportedProblems::origin_read(const std::string& origin) { read_.insert(origin); }

std::string ReportedProblems::to_stored() const {
  json entries = json::array();
  auto add = [&](const Entry& entry) {
    const auto& [origin, where, reason, fingerprint] = entry;
    entries.push_back(json::array({origin, where, reason, fingerprint}));
  };
  for (const Entry& entry : before_) {
    if (!read_.contains(std::get<0>(entry)) && !now_.contains(entry)) add(entry);
  }
  for (const Entry& entry : now_) add(entry);
  // Invalid UTF-8 in a path is replaced, not refused.
  return entries.empty() ? "" : json_text(entries);
}

}  // namespace quarry::detail
