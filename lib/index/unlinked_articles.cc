#include "lib/index/unlinked_articles.h"

#include <cstdio>
#include <cstdlib>

#include "lib/index/schema.h"

namespace quarry::detail {
namespace {

std::string key_for(unsigned long number) {
  char digits[24];
  // Padded, so that the keys sort in the order they were written.
  std::snprintf(digits, sizeof digits, "%010lu", number);
  return kUnlinkedKeyPrefix + std::string(digits);
}

}  // namespace

UnlinkedArticles::UnlinkedArticles(const Xapian::Database& db) {
  const std::string prefix = kUnlinkedKeyPrefix;
  for (auto key = db.metadata_keys_begin(prefix); key != db.metadata_keys_end(prefix); ++key) {
    keys_.push_back(*key);
    next_key_ = std::strtoul((*key).c_str() + prefix.size(), nullptr, 10) + 1;
    // Each id follows its length and a colon: an id may hold any byte.
    const std::string value = db.get_metadata(*key);
    std::size_t at = 0;
    while (at < value.size()) {
      const std::size_t colon = value.find(':', at);
      if (colon == std::string::npos) break;
      const std::size_t length = std::strtoul(value.c_str() + at, nullptr, 10);
      ids_.push_back(value.substr(colon + 1, length));
      at = colon + 1 + length;
    }
  }
  recorded_ = ids_.size();
}

void UnlinkedArticles::record(Xapian::WritableDatabase& db) {
  if (recorded_ == ids_.size()) return;
  std::string value;
  for (std::size_t i = recorded_; i < ids_.size(); ++i) {
    value += std::to_string(ids_[i].size()) + ':' + ids_[i];
  }
  keys_.push_back(key_for(next_key_++));
  db.set_metadata(keys_.back(), value);
  recorded_ = ids_.size();
}

void UnlinkedArticles::clear(Xapian::WritableDatabase& db) {
  // Xapian deletes a metadata key set to the empty string.
  for (const std::string& key : keys_) db.set_metadata(key, "");
  keys_.clear();
  ids_.clear();
  recorded_ = 0;
}

}  // namespace quarry::detail
