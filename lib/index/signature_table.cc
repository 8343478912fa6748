#include "lib/index/signature_table.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "lib/index/schema.h"
#include "lib/index/story_linker.h"

namespace quarry::detail {
namespace {

int day_of(const std::string& date) {
  if (date.size() != 8) return Signature::kNoDate;
  const std::chrono::year_month_day ymd{std::chrono::year{std::stoi(date.substr(0, 4))},
                                        std::chrono::month(std::stoul(date.substr(4, 2))),
                                        std::chrono::day(std::stoul(date.substr(6, 2)))};
  return static_cast<int>(std::chrono::sys_days(ymd).time_since_epoch().count());
}

}  // namespace

SignatureTable::SignatureTable(Xapian::Database all) : all_(std::move(all)) {
  articles_ = all_.get_doccount();
  for (std::uint32_t count = 0; count < tf_weight_.size(); ++count) {
    tf_weight_[count] = count == 0 ? 0.0 : 1 + std::log(static_cast<double>(count));
  }
}

Signature* SignatureTable::find(Xapian::docid did) {
  if (did >= slot_of_.size() || slot_of_[did] == kNoSlot) return nullptr;
  return &at(slot_of_[did]);
}

Signature& SignatureTable::add(Xapian::docid did) {
  if (did >= slot_of_.size()) {
    slot_of_.resize(std::max<std::size_t>(did + 1, all_.get_lastdocid() + 1), kNoSlot);
  }
  if (slots_ == chunks_.size() * kChunk) chunks_.push_back(std::make_unique<Signature[]>(kChunk));
  slot_of_[did] = static_cast<std::uint32_t>(slots_);
  return at(slots_++);
}

const SignatureTable::Keys& SignatureTable::keys(Xapian::docid did) {
  auto [it, added] = keys_.try_emplace(did);
  if (added) {
    const Xapian::Document doc = all_.get_document(did, Xapian::DOC_ASSUME_VALID);
    it->second.id = id_of_hit_order_key(doc.get_value(kHitOrderSlot));
    it->second.stored = {doc.get_value(kStorySlot), doc.get_value(kDuplicateSlot)};
  }
  return it->second;
}

const std::string& SignatureTable::id(Xapian::docid did) {
  if (const Signature* found = find(did)) return found->id;
  return keys(did).id;
}

const StoryKeys& SignatureTable::stored_keys(Xapian::docid did) {
  if (const Signature* found = find(did)) return found->stored_keys();
  return keys(did).stored;
}

int SignatureTable::day(Xapian::docid did) {
  if (const Signature* found = find(did)) return found->day;
  return day_of(all_.get_document(did, Xapian::DOC_ASSUME_VALID).get_value(kDateSlot));
}

const Signature& SignatureTable::signature(Xapian::docid did) {
  if (Signature* found = find(did)) return *found;
  Signature& s = add(did);
  const Xapian::Document doc = all_.get_document(did, Xapian::DOC_ASSUME_VALID);
  s.id = id_of_hit_order_key(doc.get_value(kHitOrderSlot));
  s.day = day_of(doc.get_value(kDateSlot));
  s.has_sketch = decode_min_hash(doc.get_value(kMinHashSlot), &s.sketch);
  weigh(decode_stem_counts(doc.get_value(kStoryStemsSlot)), &s);
  s.store(0, doc.get_value(kStorySlot));
  s.store(1, doc.get_value(kDuplicateSlot));
  return s;
}

void SignatureTable::read_all() {
  // Untouched, the reserved room takes address space, not memory.
  stem_numbers_of_.reserve(stem_numbers_of_.size() + std::size_t{articles_} * kStoryStems);
  stem_counts_of_.reserve(stem_counts_of_.size() + std::size_t{articles_} * kStoryStems);
  for (auto it = all_.postlist_begin(""); it != all_.postlist_end(""); ++it) {
    if (!find(*it)) add(*it);
  }
  const auto each_value = [&](Xapian::valueno slot, auto use) {
    for (auto it = all_.valuestream_begin(slot); it != all_.valuestream_end(slot); ++it) {
      if (Signature* found = find(it.get_docid())) use(*found, *it);
    }
  };
  each_value(kHitOrderSlot,
             [](Signature& s, const std::string& value) { s.id = id_of_hit_order_key(value); });
  each_value(kDateSlot, [](Signature& s, const std::string& value) { s.day = day_of(value); });
  each_value(kMinHashSlot, [](Signature& s, const std::string& value) {
    s.has_sketch = decode_min_hash(value, &s.sketch);
  });
  each_value(kStoryStemsSlot, [this](Signature& s, const std::string& value) {
    weigh(decode_stem_counts(value), &s);
  });
  each_value(kStorySlot, [](Signature& s, const std::string& value) { s.store(0, value); });
  each_value(kDuplicateSlot, [](Signature& s, const std::string& value) { s.store(1, value); });
}

std::vector<std::pair<Xapian::docid, const MinHash*>> SignatureTable::sketches() const {
  std::vector<std::pair<Xapian::docid, const MinHash*>> found;
  for (Xapian::docid did = 0; did < slot_of_.size(); ++did) {
    if (slot_of_[did] == kNoSlot) continue;
    const Signature& s = chunks_[slot_of_[did] / kChunk][slot_of_[did] % kChunk];
    if (s.has_sketch) found.emplace_back(did, &s.sketch);
  }
  return found;
}

std::uint32_t SignatureTable::stem_number(const std::string& stem) {
  auto [it, added] = stem_numbers_.try_emplace(stem, static_cast<std::uint32_t>(stems_.size()));
  if (added) {
    stems_.push_back(stem);
    const Xapian::doccount df = all_.get_termfreq(stem);
    const double articles = std::max<double>(articles_, kIdfArticles);
    idf_.push_back(df == 0 ? 0.0 : std::log(1 + articles / df));
    df_.push_back(df);
  }
  return it->second;
}

void SignatureTable::weigh(const std::vector<StemCount>& stems, Signature* s) {
  std::vector<LinkedStem> kept;
  s->norm = 0;
  for (const auto& [stem, count] : stems) {
    const LinkedStem linked{stem_number(stem), std::min<std::uint32_t>(count, 255)};
    const double weight = this->weight(linked);
    if (weight <= 0) continue;
    kept.push_back(linked);
    s->norm += weight * weight;
    // A run's size is a byte; stored values hold kStoryStems at most.
    if (kept.size() == 255) break;
  }
  s->norm = std::sqrt(s->norm);
  std::sort(kept.begin(), kept.end(),
            [](const LinkedStem& a, const LinkedStem& b) { return a.stem < b.stem; });
  s->stems = {stem_numbers_of_.size(), static_cast<std::uint8_t>(kept.size())};
  for (const LinkedStem& stem : kept) {
    stem_numbers_of_.push_back(stem.stem);
    stem_counts_of_.push_back(static_cast<std::uint8_t>(stem.count));
  }
}

}  // namespace quarry::detail
