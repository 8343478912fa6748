// Replays the documents of a finished index into a fresh Xapian database and
// times only Xapian's share of the work: add_document() and commit(). Reading
// the source and rebuilding each document in memory happens before the clock
// runs, a batch at a time. What it prints is therefore the least a build of
// those very documents can cost on Xapian, whatever the analyzer does: the
// floor under quarry-index's figures, to set beside another engine's.
//
// Usage: quarry-xapian-replay SOURCE DESTINATION [PART PARTS]
// With PART and PARTS, replays every PARTS-th batch of 1,000 documents
// starting at the PART-th (0-based), as one of PARTS writers of a parallel
// build would. Prints one line of JSON: documents, cpu_s, wall_s.
#include <xapian.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <string>
#include <vector>

namespace {

// As many documents as quarry-index's writers add between commits.
constexpr Xapian::doccount kBatch = 1000;

double cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

// A document built afresh in memory, as a writer builds it: terms with their
// wdf and positions, values and data, and nothing read lazily from `db`.
Xapian::Document rebuilt(const Xapian::Database& db, Xapian::docid did) {
  const Xapian::Document source = db.get_document(did);
  Xapian::Document doc;
  for (auto term = source.termlist_begin(); term != source.termlist_end(); ++term) {
    for (auto pos = term.positionlist_begin(); pos != term.positionlist_end(); ++pos) {
      doc.add_posting(*term, *pos, 0);
    }
    doc.add_term(*term, term.get_wdf());
  }
  for (auto value = source.values_begin(); value != source.values_end(); ++value) {
    doc.add_value(value.get_valueno(), *value);
  }
  doc.set_data(source.get_data());
  return doc;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && argc != 5) {
    std::cerr << "usage: quarry-xapian-replay SOURCE DESTINATION [PART PARTS]\n";
    return 2;
  }
  const unsigned long part = argc == 5 ? std::strtoul(argv[3], nullptr, 10) : 0;
  const unsigned long parts = argc == 5 ? std::strtoul(argv[4], nullptr, 10) : 1;
  if (parts == 0 || part >= parts) {
    std::cerr << "quarry-xapian-replay: PART must be below PARTS\n";
    return 2;
  }
  try {
    const Xapian::Database source(argv[1]);
    // As quarry-index's writers open their parts: a part is private until
    // merged, so it is not synced.
    Xapian::WritableDatabase destination(argv[2], Xapian::DB_CREATE | Xapian::DB_NO_SYNC);
    std::vector<Xapian::docid> ids;
    for (auto it = source.postlist_begin(""); it != source.postlist_end(""); ++it) {
      ids.push_back(*it);
    }
    double cpu = 0, wall = 0;
    Xapian::doccount replayed = 0;
    std::vector<Xapian::Document> batch;
    for (std::size_t first = part * kBatch; first < ids.size(); first += parts * kBatch) {
      batch.clear();
      for (std::size_t i = first; i < ids.size() && i < first + kBatch; ++i) {
        batch.push_back(rebuilt(source, ids[i]));
      }
      const double cpu_start = cpu_seconds();
      const auto wall_start = std::chrono::steady_clock::now();
      for (const Xapian::Document& doc : batch) destination.add_document(doc);
      destination.commit();
      cpu += cpu_seconds() - cpu_start;
      wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
      replayed += static_cast<Xapian::doccount>(batch.size());
    }
    std::cout << "{\"documents\": " << replayed << ", \"cpu_s\": " << cpu
              << ", \"wall_s\": " << wall << "}\n";
  } catch (const Xapian::Error& error) {
    std::cerr << "quarry-xapian-replay: " << error.get_description() << '\n';
    return 1;
  }
  return 0;
}
