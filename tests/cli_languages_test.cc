// An index that tells each article's language from its text, as a user
// builds one with quarry-index's default --language auto: what it cannot
// tell takes the main language.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/cli_fixture.h"

namespace quarry::testing {
namespace {

std::string article_line(const std::string& id, const std::string& title, const std::string& body) {
  return nlohmann::json{{"id", id}, {"title", title}, {"body", body}}.dump() + "\n";
}

nlohmann::json search(const std::filesystem::path& db, const std::vector<std::string>& args) {
  const RunResult run = run_quarry(db, args);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return nlohmann::json::parse(run.out);
}

// Reuters' headlines set in capitals name a city: CLD2 reads "RIO DE
// JANEIRO" as Portuguese, however English the rest.
TEST(CliLanguages, HeadlinesInCapitalsAreNotTakenForTheirNamesLanguage) {
  TempDir dir;
  write_file(
      dir / "wire.jsonl",
      article_line("rio-brief", "RIO DE JANEIRO - IBC closes export registrations - exporters.",
                   "") +
          article_line("rio-caps",
                       "RIO DE JANEIRO - IBC ESTIMATES 1987-88 COFFEE CROP AT 35.2 MLN BAGS", "") +
          article_line("berlin", "Steuern",
                       "Die Bundesregierung will die Steuern für Familien mit kleinen "
                       "Kindern im kommenden Jahr senken, sagte der Finanzminister."));
  const auto db = dir / "db";
  const RunResult indexed = run_index(db, {(dir / "wire.jsonl").string()});
  ASSERT_EQ(indexed.exit_code, 0) << indexed.err;
  const nlohmann::json english =
      search(db, {"--format", "json", "--correct", "never", "language:en"});
  EXPECT_EQ(id_set(english), (Ids{"rio-brief", "rio-caps"}));
  EXPECT_EQ(id_set(search(db, {"--format", "json", "--correct", "never", "language:de"})),
            Ids{"berlin"})
      << "a text in lower case is still identified";
}

}  // namespace
}  // namespace quarry::testing
