// Reading a synonym list (IndexConfig::synonyms_file).
#include <fstream>
#include <string>
#include <vector>

#include "quarry/error.h"
#include "quarry/index/index_writer.h"

namespace quarry {

std::vector<std::vector<std::string>> read_synonyms(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot read synonym list " + path);
  std::vector<std::vector<std::string>> groups;
  std::string line;
  while (std::getline(in, line)) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::vector<std::string> group;
    std::size_t start = 0;
    while (start <= line.size()) {
      std::size_t comma = line.find(',', start);
      if (comma == std::string::npos) comma = line.size();
      group.push_back(line.substr(start, comma - start));
      start = comma + 1;
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

}  // namespace quarry
