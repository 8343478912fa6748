#include "quarry/input/article.h"

namespace quarry {

std::string SourceLocation::to_string() const {
  if (line == 0) return path;
  return path + ":" + std::to_string(line);
}

}  // namespace quarry
