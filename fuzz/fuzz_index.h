// What the fuzz targets that search share: a folder of their own and a
// small index in it, made once per process.
#ifndef QUARRY_FUZZ_FUZZ_INDEX_H_
#define QUARRY_FUZZ_FUZZ_INDEX_H_

#include <cstdlib>
#include <filesystem>
#include <string>

#include "quarry/index/index_writer.h"
#include "quarry/input/article.h"

namespace quarry::fuzz {

// A fresh folder, removed at exit: the replay tests run on every `make test`.
struct TempFolder {
  TempFolder() {
    if (mkdtemp(path) == nullptr) std::abort();
  }
  ~TempFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  char path[24] = "/tmp/quarry-fuzz-XXXXXX";
};

// Indexes, in `folder`, articles for every route to find something in: two
// reports of one story, ids with '/', spaces, markup and non-ASCII letters,
// every field empty somewhere, and a synonym. Returns the index's path.
inline std::string small_index(const TempFolder& folder) {
  IndexConfig config;
  config.db_path = std::string(folder.path) + "/index";
  config.threads = 1;
  IndexWriter writer(config);
  const Article articles[] = {
      {"a1", "Derby day", "Mourinho had milk thrown at him after the Manchester derby on Sunday.",
       "2017-12-10", "sport", "Press Association"},
      {"a2", "Derby day row", "Mourinho had milk thrown at him after the Manchester derby.",
       "2017-12-11T09:30:00", "sport", "Reuters"},
      {"world/2019/brexit talks", "Brexit talks resume",
       "Negotiators met in Brussels; talks on the backstop resume next week.", "2019-03-04",
       "politics", "Reuters"},
      {"café-東京", "Café crème", "Ederson's penalty: a dressing-room row, 2-1, CAFÉ 東京 ಕನ್ನಡ.",
       "", "", ""},
      {"<b>&amp;\"'", "<script>alert(1)</script>", "Markup & \"quotes\" in a body.", "1999-01-01",
       "odd", "<i>source</i>"},
  };
  for (const Article& article : articles) writer.upsert(article, "fuzz");
  writer.replace_synonyms({{"milk", "cream"}});
  writer.commit();
  return config.db_path;
}

}  // namespace quarry::fuzz

#endif  // QUARRY_FUZZ_FUZZ_INDEX_H_
