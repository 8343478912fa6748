#include "app/common/json_printer.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/printer_samples.h"

namespace quarry::testing {
namespace {

// An answer alone, as `quarry --format json QUERY` and /api/search write it.
std::string json_of(const SearchResult& result) {
  std::ostringstream out;
  JsonPrinter(out).answer(result, {});
  return out.str();
}

// The code points [begin, end) of UTF-8 `text`.
std::string code_point_substr(const std::string& text, std::size_t begin, std::size_t end) {
  std::string out;
  std::size_t index = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i > 0 && (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++index;
    if (index >= end) break;
    if (index >= begin) out.push_back(text[i]);
  }
  return out;
}

TEST(JsonPrinterTest, JsonSaysWhetherTheTotalIsExact) {
  SearchResult result = two_hits();
  EXPECT_EQ(nlohmann::json::parse(json_of(result))["total_relation"], "eq");
  result.total = 10000;
  result.total_exact = false;
  const nlohmann::json json = nlohmann::json::parse(json_of(result));
  EXPECT_EQ(json["total"], 10000);
  EXPECT_EQ(json["total_relation"], "gte");
}

TEST(JsonPrinterTest, JsonParsesBackWithEveryField) {
  const std::string line = json_of(two_hits());
  ASSERT_TRUE(line.ends_with("\n"));
  EXPECT_EQ(line.find('\n'), line.size() - 1) << "one line";
  const nlohmann::json json = nlohmann::json::parse(line);
  EXPECT_EQ(json["query"], "mourinho");
  EXPECT_EQ(json["total"], 2);
  EXPECT_FALSE(json.contains("notes"));
  ASSERT_TRUE(json["hits"].is_array());
  ASSERT_EQ(json["hits"].size(), 2u);
  const nlohmann::json& first = json["hits"][0];
  EXPECT_EQ(first["rank"], 1);
  EXPECT_EQ(first["id"], "a.txt");
  EXPECT_EQ(first["title"], "Mourinho leaves");
  EXPECT_DOUBLE_EQ(first["score"].get<double>(), 1.23456);
  EXPECT_EQ(first["snippet"], "\u2026said Mourinho today\u2026");
  EXPECT_EQ(first["highlights"], nlohmann::json::parse("[[6, 14]]"));
  EXPECT_EQ(json["hits"][1]["highlights"], nlohmann::json::parse("[[3, 7], [13, 21]]"));
  // Fields an article lacks are left out.
  for (const char* field : {"date", "source", "category", "language"}) {
    EXPECT_FALSE(first.contains(field)) << field;
  }
}

TEST(JsonPrinterTest, JsonHitsCarryDateSourceCategoryAndLanguage) {
  SearchResult result = two_hits();
  describe(result.hits[0], "2017-12-10", "Press Association", "sport", "fr");
  const nlohmann::json hit = nlohmann::json::parse(json_of(result))["hits"][0];
  EXPECT_EQ(hit["date"], "2017-12-10");
  EXPECT_EQ(hit["source"], "Press Association");
  EXPECT_EQ(hit["category"], "sport");
  EXPECT_EQ(hit["language"], "fr");
}

TEST(JsonPrinterTest, JsonHighlightsPointAtTheWordsOfTheSnippet) {
  const nlohmann::json json = nlohmann::json::parse(json_of(two_hits()));
  const std::vector<std::vector<std::string>> expected = {{"Mourinho"}, {"café", "Mourinho"}};
  for (std::size_t h = 0; h < expected.size(); ++h) {
    const nlohmann::json& hit = json["hits"][h];
    const std::string snippet = hit["snippet"];
    std::vector<std::string> words;
    for (const nlohmann::json& range : hit["highlights"]) {
      ASSERT_TRUE(range.is_array());
      ASSERT_EQ(range.size(), 2u);
      words.push_back(code_point_substr(snippet, range[0], range[1]));
    }
    EXPECT_EQ(words, expected[h]);
  }
}

TEST(JsonPrinterTest, JsonNotesOnlyWhenThereAreAny) {
  SearchResult result;
  result.query = "\"derby";
  result.notes = {"unclosed quote at column 1: searched as a phrase to the end of the query"};
  const nlohmann::json json = nlohmann::json::parse(json_of(result));
  ASSERT_TRUE(json.contains("notes"));
  EXPECT_EQ(json["notes"], nlohmann::json(result.notes));
  EXPECT_EQ(json["hits"], nlohmann::json::array());
  EXPECT_EQ(json["total"], 0);
}

TEST(JsonPrinterTest, TitleHighlightsAreCodePointRangesToo) {
  SearchResult result = two_hits();
  result.hits[0].title_highlights = {{0, 8}};
  const nlohmann::json json = nlohmann::json::parse(json_of(result));
  EXPECT_EQ(json["hits"][0]["title_highlights"], nlohmann::json::parse("[[0, 8]]"));
  EXPECT_EQ(json["hits"][1]["title_highlights"], nlohmann::json::array());
}

TEST(JsonPrinterTest, FacetsHaveEveryValue) {
  SearchResult result;
  result.total = 14;
  Facet source{FacetField::kSource, {{"Reuters", 12}, {"AP", 2}}};
  Facet date{FacetField::kDate, {}};
  for (int month = 1; month <= 12; ++month) {
    date.values.push_back({"1987-" + std::string(month < 10 ? "0" : "") + std::to_string(month),
                           static_cast<std::size_t>(month == 3 ? 3 : 1)});
  }
  result.facets = {source, date, Facet{FacetField::kCategory, {}}};
  const nlohmann::json json = nlohmann::json::parse(json_of(result));
  EXPECT_EQ(json["facets"]["source"], nlohmann::json::parse(R"([["Reuters", 12], ["AP", 2]])"));
  EXPECT_EQ(json["facets"]["date"].size(), 12u);
  EXPECT_EQ(json["facets"]["category"], nlohmann::json::array());
  // Asked-for order.
  std::vector<std::string> keys;
  const auto ordered = nlohmann::ordered_json::parse(json_of(result));
  for (const auto& [key, value] : ordered["facets"].items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"source", "date", "category"}));
  EXPECT_FALSE(nlohmann::json::parse(json_of(two_hits())).contains("facets"));
}

TEST(JsonPrinterTest, InvalidUtf8NeverThrows) {
  for (const auto& [name, result] : invalid_utf8_samples()) {
    std::string line;
    ASSERT_NO_THROW(line = json_of(result)) << name;
    nlohmann::json json;
    ASSERT_NO_THROW(json = nlohmann::json::parse(line)) << name;
    EXPECT_EQ(json["hits"][0]["id"], "a.txt") << name;
  }
}

TEST(JsonPrinterTest, QidAndTookMsAreMembersWhenGivenAndTimed) {
  struct Case {
    bool timings;
    AnswerFields fields;
    std::vector<std::string> keys;
  };
  const std::vector<std::string> plain = {
      "query", "total", "total_relation", "stories", "stories_relation", "timed_out", "hits"};
  auto with = [&](std::vector<std::string> front, std::vector<std::string> back) {
    front.insert(front.end(), plain.begin(), plain.end());
    front.insert(front.end(), back.begin(), back.end());
    return front;
  };
  const std::vector<Case> cases = {
      {false, {}, plain},
      {false, {"q1", 2.5}, with({"qid"}, {})},
      {true, {"q1", 2.5}, with({"qid"}, {"took_ms"})},
      {true, {std::nullopt, std::nullopt}, plain},
  };
  for (const Case& c : cases) {
    std::ostringstream out;
    JsonPrinter(out, c.timings).answer(two_hits(), c.fields);
    std::vector<std::string> keys;
    const auto json = nlohmann::ordered_json::parse(out.str());
    for (const auto& [key, value] : json.items()) keys.push_back(key);
    EXPECT_EQ(keys, c.keys) << out.str();
    if (c.fields.qid) {
      EXPECT_EQ(json["qid"], *c.fields.qid);
    }
    if (json.contains("took_ms")) {
      EXPECT_DOUBLE_EQ(json["took_ms"].get<double>(), 2.5);
    }
  }
}

TEST(JsonPrinterTest, AQueryErrorIsAnObjectOfItsOwn) {
  std::ostringstream out;
  JsonPrinter printer(out, true);
  printer.query_error("penalty AND", "AND needs \"words\"", {"3", 1.0});
  EXPECT_EQ(out.str(),
            "{\"qid\":\"3\",\"query\":\"penalty AND\",\"error\":\"AND needs "
            "\\\"words\\\"\"}\n");
}

TEST(JsonPrinterTest, FacetsAreAnAnswerWithoutItsQid) {
  std::ostringstream out;
  JsonPrinter printer(out, true);
  printer.facets(two_hits());
  EXPECT_EQ(out.str(), json_of(two_hits()));
}

TEST(JsonPrinterTest, AnswersCarryTheirNotesAndWarnings) {
  SearchResult result = two_hits();
  result.warnings = {"shard 2 left out"};
  const nlohmann::json json = nlohmann::json::parse(json_of(result));
  EXPECT_EQ(json["warnings"], nlohmann::json(result.warnings));
  std::ostringstream out;
  EXPECT_FALSE(JsonPrinter(out).diagnosed().notes);
  EXPECT_FALSE(JsonPrinter(out).diagnosed().warnings);
}
}  // namespace
}  // namespace quarry::testing
