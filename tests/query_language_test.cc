// The query language (include/quarry/search/query_language.h) as a searcher sees it:
// each form of query against a small corpus whose answers are known by
// construction. tests/query_parser_test.cc checks the Xapian queries built.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "quarry/error.h"
#include "quarry/index/index_writer.h"
#include "quarry/search/searcher.h"
#include "tests/table_case.h"
#include "tests/test_util.h"

namespace quarry {
namespace {

using testing::sorted_ids;
using Ids = std::vector<std::string>;

// Word positions matter to the proximity cases: "kestrel … walrus" is 4 words
// apart in n03 and n05 (the latter reversed) and 5 apart in n07; "heron …
// otter" is 10 apart in n06 and 11 apart in n08. Guardiola's is written with
// a straight apostrophe in n03 and a curly one in n04. n11 has no date.
const std::vector<Article>& corpus() {
  static const std::vector<Article> kArticles = {
      {"n01", "Mourinho praises Lukaku",
       "Jose Mourinho said Romelu Lukaku worked hard for Manchester United. The penalty was late "
       "but fair.",
       "2017-11-15", "sport", "Press Association"},
      {"n02", "Budget vote delayed",
       "Parliament delayed the budget vote. The chancellor met reporters at a café in "
       "Westminster.",
       "2017-11-30", "politics", "The Guardian"},
      {"n03", "Derby day nerves",
       "Guardiola's side travel across the city. Ederson trained alone on Friday. A kestrel flew "
       "over the walrus colony at dawn.",
       "2017-12-01", "sport", "Express"},
      {"n04", "Manchester derby: Dressing-room row after City win",
       "Pep Guardiola’s men won 2-1 at Old Trafford. Ederson saved a late penalty and Mourinho "
       "complained about the dressing room.",
       "2017-12-10", "sport", "Press Association"},
      {"n05", "Mourinho defends his players",
       "Mourinho said the dressing room was united. The walrus slept while a kestrel hovered "
       "above Manchester.",
       "2017-12-10T15:01:01", "sport", "The Guardian"},
      {"n06", "New Year honours list",
       "The prime minister named a Cafe owner from Derby in the honours list. The heron stood by "
       "the river for an hour before one otter swam past.",
       "2017-12-31", "politics", "Press Association"},
      {"n07", "Lukaku scores twice",
       "Lukaku scored twice as Manchester United beat Everton. A kestrel flew high over the "
       "walrus enclosure.",
       "2018-01-01", "sport", "Express"},
      {"n08", "Brexit talks resume",
       "Ministers resumed Brexit talks in Brussels. The heron stood by the river for an hour "
       "before one young otter swam past.",
       "2018-01-20", "politics", "The Guardian"},
      {"n09", "Ederson signs new contract",
       "The Brazilian goalkeeper signed until 2025. Guardiola called him the best in the world.",
       "2018-02-05", "sport", "Press Association"},
      {"n10", "Portuguese coaches in England",
       "Mourinho and other Portuguese coaches spoke to a committee of MPs about football.",
       "2018-02-28", "politics", "Express"},
      {"n11", "Undated archive note", "An archive note about the budget, kept without a date.", "",
       "politics", "The Guardian"},
  };
  return kArticles;
}

// The text of `text` from code point `begin` to code point `end`.
std::string code_points(const std::string& text, std::size_t begin, std::size_t end) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
  }
  starts.push_back(text.size());
  if (begin > end || end >= starts.size()) return "<out of range>";
  return text.substr(starts[begin], starts[end] - starts[begin]);
}

class QueryLanguage : public testing::SharedIndexTest {
 protected:
  static void SetUpTestSuite() { ASSERT_EQ(index_suite_articles(corpus()).added, corpus().size()); }

  static SearchOptions every_hit() {
    SearchOptions options;
    options.limit = 100;
    return options;
  }

  static Ids ranked_ids(const SearchResult& result) {
    Ids out;
    for (const Hit& hit : result.hits) out.push_back(hit.id);
    return out;
  }

  struct Case {
    std::string query;
    Ids ids;  // sorted
  };

  static void expect_sets(const std::vector<Case>& cases, const SearchOptions& options) {
    for (const Case& c : cases) {
      try {
        EXPECT_EQ(sorted_ids(searcher().search(c.query, options)), c.ids) << c.query;
      } catch (const Error& error) {
        ADD_FAILURE() << c.query << ": " << error.what();
      }
    }
  }
  static void expect_sets(const std::vector<Case>& cases) { expect_sets(cases, every_hit()); }
};

TEST_F(QueryLanguage, FreeWordsAnyMayMatch) {
  expect_sets({
      {"Mourinho", {"n01", "n04", "n05", "n10"}},
      {"Ederson Lukaku", {"n01", "n03", "n04", "n07", "n09"}},
      {"mourinho ederson", {"n01", "n03", "n04", "n05", "n09", "n10"}},
      {"zebra", {}},
      {"zebra Lukaku", {"n01", "n07"}},
      {"", {}},
      {"!!! ...", {}},
  });
}

TEST_F(QueryLanguage, MatchAllRequiresEveryWord) {
  SearchOptions options = every_hit();
  options.parser.match = MatchMode::kAll;
  expect_sets(
      {
          {"Mourinho Ederson", {"n04"}},
          {"Mourinho Lukaku", {"n01"}},
          {"Guardiola Ederson", {"n03", "n04", "n09"}},
          {"kestrel walrus heron", {}},
          {"zebra Lukaku", {}},
          // An explicit OR still means either.
          {"Mourinho OR Lukaku", {"n01", "n04", "n05", "n07", "n10"}},
      },
      options);
}

TEST_F(QueryLanguage, MustAndMustNot) {
  expect_sets({
      {"+Mourinho Ederson", {"n01", "n04", "n05", "n10"}},
      {"+Mourinho +Ederson", {"n04"}},
      {"Mourinho -Lukaku", {"n04", "n05", "n10"}},
      {"-Mourinho Ederson", {"n03", "n09"}},
      {"+Ederson -Guardiola", {}},
      {"Lukaku -\"late penalty\"", {"n01", "n07"}},
      {"Mourinho -\"penalty was late\"", {"n04", "n05", "n10"}},
  });
}

TEST_F(QueryLanguage, BooleanOperatorsAndGrouping) {
  expect_sets({
      {"Mourinho AND Ederson", {"n04"}},
      {"Mourinho OR Ederson", {"n01", "n03", "n04", "n05", "n09", "n10"}},
      {"Mourinho NOT Lukaku", {"n04", "n05", "n10"}},
      {"Mourinho AND NOT Lukaku", {"n04", "n05", "n10"}},
      {"NOT Mourinho", {"n02", "n03", "n06", "n07", "n08", "n09", "n11"}},
      {"Mourinho XOR Ederson", {"n01", "n03", "n05", "n09", "n10"}},
      {"Mourinho AND (Ederson OR Lukaku)", {"n01", "n04"}},
      {"Mourinho AND NOT (Lukaku OR Ederson)", {"n05", "n10"}},
      {"(Mourinho OR Guardiola) AND Manchester", {"n01", "n04", "n05"}},
      {"(Lukaku XOR Mourinho) AND (Manchester OR Portuguese)", {"n04", "n05", "n07", "n10"}},
      {"((Mourinho))", {"n01", "n04", "n05", "n10"}},
      // Lower-case operators are words.
      {"Lukaku and Mourinho", {"n01", "n04", "n05", "n07", "n10"}},
      {"Lukaku AND Mourinho", {"n01"}},
  });
}

TEST_F(QueryLanguage, PhraseNeedsTheWordsInOrder) {
  SearchOptions all_words = every_hit();
  all_words.parser.match = MatchMode::kAll;
  expect_sets(
      {
          {"\"late penalty\"", {"n04"}},
          {"late penalty", {"n01", "n04"}},
          {"\"penalty late\"", {}},
          {"\"penalty was late\"", {"n01"}},
          {"\"dressing room\"", {"n04", "n05"}},
          {"\"Manchester United\"", {"n01", "n07"}},
          {"Manchester United", {"n01", "n05", "n07"}},
          // No phrase spans the title and the body.
          {"\"twice Lukaku\"", {}},
          // Phrases match words by their stems, as free words do.
          {"\"coach spoke\"", {"n10"}},
          {"\"dressing rooms\"", {"n04", "n05"}},
      },
      all_words);
}

// "a NEAR/n b": b at most n words after or before a; ADJ/n: only after.
TEST_F(QueryLanguage, ProximityWindows) {
  expect_sets({
      {"kestrel NEAR/4 walrus", {"n03", "n05"}},
      {"walrus NEAR/4 kestrel", {"n03", "n05"}},
      {"kestrel NEAR/3 walrus", {}},
      {"kestrel NEAR/5 walrus", {"n03", "n05", "n07"}},
      {"kestrel ADJ/4 walrus", {"n03"}},
      {"walrus ADJ/4 kestrel", {"n05"}},
      {"kestrel ADJ/5 walrus", {"n03", "n07"}},
      {"walrus ADJ/5 kestrel", {"n05"}},
      // The default window is 10.
      {"heron NEAR otter", {"n06"}},
      {"otter NEAR heron", {"n06"}},
      {"heron NEAR/10 otter", {"n06"}},
      {"heron NEAR/9 otter", {}},
      {"heron NEAR/11 otter", {"n06", "n08"}},
      {"heron ADJ otter", {"n06"}},
      {"otter ADJ heron", {}},
      {"KESTREL near walrus", {"n03", "n05", "n07"}},
  });
}

TEST_F(QueryLanguage, TrailingWildcards) {
  expect_sets({
      {"Manches*", {"n01", "n04", "n05", "n07"}},
      {"manches*", {"n01", "n04", "n05", "n07"}},
      {"CAFÉ*", {"n02", "n06"}},
      {"Derb*", {"n03", "n04", "n06"}},
      {"title:Derb*", {"n03", "n04"}},
      {"Lukak* -Manches*", {}},
      {"Ederson AND Guardiol*", {"n03", "n04", "n09"}},
      {"zebr*", {}},
      // A wildcard matching no word matches nothing, even beside others.
      {"zebr* AND Mourinho", {}},
      // Words are expanded as written, so a prefix longer than their stem
      // ("coach") still finds them.
      {"coache*", {"n10"}},
  });
}

TEST_F(QueryLanguage, WildcardMatchesAreHighlighted) {
  struct HighlightCase {
    std::string query;
    std::string id;
    std::vector<std::string> marked;
  };
  const std::vector<HighlightCase> cases = {
      {"Manches*", "n01", {"Manchester"}},
      {"Manches*", "n05", {"Manchester"}},
      {"CAFÉ*", "n02", {"café"}},
      {"CAFÉ*", "n06", {"Cafe"}},
      {"Lukak* OR Evert*", "n07", {"Lukaku", "Everton"}},
      {"coache*", "n10", {"coaches"}},
  };
  for (const HighlightCase& c : cases) {
    const SearchResult result = searcher().search(c.query, every_hit());
    auto hit = std::find_if(result.hits.begin(), result.hits.end(),
                            [&](const Hit& h) { return h.id == c.id; });
    ASSERT_NE(hit, result.hits.end()) << c.query << " " << c.id;
    std::vector<std::string> marked;
    for (const Highlight& h : hit->snippet.highlights) {
      marked.push_back(code_points(hit->snippet.text, h.begin, h.end));
    }
    EXPECT_EQ(marked, c.marked) << c.query << " in " << c.id << ": " << hit->snippet.text;
  }
}

TEST_F(QueryLanguage, Fields) {
  expect_sets({
      {"title:Derby", {"n03", "n04"}},
      {"title:Mourinho", {"n01", "n05"}},
      {"title:(Lukaku OR Ederson)", {"n01", "n07", "n09"}},
      {"title:\"derby day\"", {"n03"}},
      {"title:\"day derby\"", {}},
      // Words of the phrase that are in the body but not the title.
      {"title:\"dressing room\"", {"n04"}},
      {"title:\"late penalty\"", {}},
      {"title:(derby NEAR/3 row)", {"n04"}},
      {"title:(derby NEAR/2 row)", {}},
      {"source:\"Press Association\"", {"n01", "n04", "n06", "n09"}},
      {"source:\"press association\"", {"n01", "n04", "n06", "n09"}},
      {"source:\"The Guardian\"", {"n02", "n05", "n08", "n11"}},
      {"source:Express", {"n03", "n07", "n10"}},
      // A source is matched as a whole.
      {"source:Guardian", {}},
      {"source:Press", {}},
      {"category:sport", {"n01", "n03", "n04", "n05", "n07", "n09"}},
      {"category:SPORT", {"n01", "n03", "n04", "n05", "n07", "n09"}},
      {"category:politics", {"n02", "n06", "n08", "n10", "n11"}},
      {"category:weather", {}},
      {"id:n04", {"n04"}},
      {"id:n0", {}},
      {"id:N04", {}},
      {"category:sport NOT source:Express", {"n01", "n04", "n05", "n09"}},
      {"Mourinho AND category:politics", {"n10"}},
  });
}

TEST_F(QueryLanguage, TitleWordsAreFreeWordsToo) {
  expect_sets({
      {"nerves", {"n03"}},
      {"contract", {"n09"}},
      {"Derby", {"n03", "n04", "n06"}},
      {"\"derby day\"", {"n03"}},
  });
}

// A field next to free words narrows them, as a filter in Xapian's own
// QueryParser does: "Mourinho date:2017-12" is Mourinho in December.
TEST_F(QueryLanguage, FieldsNarrowFreeWords) {
  expect_sets({
      {"Mourinho category:politics", {"n10"}},
      {"Mourinho date:2017-12", {"n04", "n05"}},
      {"Ederson source:\"Press Association\"", {"n04", "n09"}},
      {"Lukaku after:2017-12-01", {"n07"}},
  });
}

TEST_F(QueryLanguage, Dates) {
  expect_sets({
      {"date:2017-12-10", {"n04", "n05"}},
      {"date:2017-12-31", {"n06"}},
      {"date:2017-12-01..2017-12-31", {"n03", "n04", "n05", "n06"}},
      {"date:2017-12", {"n03", "n04", "n05", "n06"}},
      {"date:2018-02", {"n09", "n10"}},
      {"date:2018", {"n07", "n08", "n09", "n10"}},
      {"date:2017-11..2017-12", {"n01", "n02", "n03", "n04", "n05", "n06"}},
      {"after:2017-12-01", {"n03", "n04", "n05", "n06", "n07", "n08", "n09", "n10"}},
      {"after:2017-12", {"n03", "n04", "n05", "n06", "n07", "n08", "n09", "n10"}},
      {"after:2018", {"n07", "n08", "n09", "n10"}},
      {"before:2017", {"n01", "n02", "n03", "n04", "n05", "n06"}},
      {"before:2017-11", {"n01", "n02"}},
      {"before:2017-12-10", {"n01", "n02", "n03", "n04", "n05"}},
      {"after:2017-12-10 before:2017-12-10", {"n04", "n05"}},
      {"after:2017-12-31 AND before:2018-01-01", {"n06", "n07"}},
      {"date:2018-01-01..", {"n07", "n08", "n09", "n10"}},
      {"date:..2017-11-30", {"n01", "n02"}},
      {"date:2016", {}},
      {"after:2017-12-01 AND before:2017-12-31", {"n03", "n04", "n05", "n06"}},
      {"Mourinho AND date:2017-12", {"n04", "n05"}},
  });
}

TEST_F(QueryLanguage, SortByDate) {
  const std::string query = "Lukaku OR Ederson OR Brexit";
  SearchOptions options = every_hit();
  options.sort = SortOrder::kOldestFirst;
  EXPECT_EQ(ranked_ids(searcher().search(query, options)),
            (Ids{"n01", "n03", "n04", "n07", "n08", "n09"}));
  options.sort = SortOrder::kNewestFirst;
  EXPECT_EQ(ranked_ids(searcher().search(query, options)),
            (Ids{"n09", "n08", "n07", "n04", "n03", "n01"}));
  EXPECT_TRUE(searcher().search(query, options).notes.empty());

  options.sort = SortOrder::kOldestFirst;
  const SearchResult sport = searcher().search("category:sport", options);
  ASSERT_EQ(sport.hits.size(), 6u);
  for (std::size_t i = 1; i < sport.hits.size(); ++i) {
    EXPECT_LE(sport.hits[i - 1].date.substr(0, 10), sport.hits[i].date.substr(0, 10));
  }
}

// Sorted by date, nothing ranks the articles holding every word first: each
// free word must match, unless the query or the options say otherwise.
TEST_F(QueryLanguage, SortedByDateEveryWordMustMatch) {
  const std::string query = "Mourinho Lukaku";
  SearchOptions options = every_hit();
  EXPECT_EQ(sorted_ids(searcher().search(query, options)),
            (Ids{"n01", "n04", "n05", "n07", "n10"}));
  for (SortOrder sort : {SortOrder::kNewestFirst, SortOrder::kOldestFirst}) {
    options.sort = sort;
    EXPECT_EQ(ranked_ids(searcher().search(query, options)), Ids{"n01"});
    EXPECT_EQ(searcher().count(query, options).total, 1u);
    EXPECT_EQ(sorted_ids(searcher().search("Mourinho OR Lukaku", options)),
              (Ids{"n01", "n04", "n05", "n07", "n10"}));
    options.parser.match = MatchMode::kAny;
    EXPECT_EQ(sorted_ids(searcher().search(query, options)),
              (Ids{"n01", "n04", "n05", "n07", "n10"}));
    options.parser.match = MatchMode::kAuto;
  }
}

// A query that can find nothing says why, in one line that says what to do.
TEST_F(QueryLanguage, QueriesThatSearchNothingSayWhatToDo) {
  const testing::Case<std::string, std::vector<std::string>> cases[] = {
      {"", {"the query is empty: give words to search for"}},
      {"  ", {"the query is empty: give words to search for"}},
      {"!!! ...", {"the query holds no word to search for (no letter or digit): give words"}},
      {"?", {"the query holds no word to search for (no letter or digit): give words"}},
      {"*", {"'*' needs the start of a word before it, as in Manches*"}},
      {"* **", {"'*' needs the start of a word before it, as in Manches*"}},
      {"Manch?ster",
       {"Manch?ster: a wildcard is a '*' that ends a word; search Manch* for the words that "
        "start with Manch"}},
      {"Manch*ster",
       {"Manch*ster: a wildcard is a '*' that ends a word; search Manch* for the words that "
        "start with Manch"}},
      {"Zqx* Mourinho", {"no word of the index starts with Zqx: try fewer letters"}},
      // Nothing to say.
      {"Manches*", {}},
      {"What?", {}},
      {"Mourinho", {}},
  };
  for (const auto& [query, notes] : cases) {
    EXPECT_EQ(searcher().search(query).notes, notes) << query;
    EXPECT_EQ(searcher().count(query).notes, notes) << query;
  }
}

TEST_F(QueryLanguage, WildcardsSayWhenTheyAreCutShort) {
  SearchOptions options;
  options.parser.max_wildcard_terms = 2;
  const SearchResult cut = searcher().search("m*", options);
  ASSERT_EQ(cut.notes.size(), 1u);
  EXPECT_TRUE(cut.notes[0].starts_with("m* stands for the 2 most frequent of the "))
      << cut.notes[0];
  EXPECT_TRUE(cut.notes[0].ends_with(" words that start so; type more letters to narrow it"))
      << cut.notes[0];
  EXPECT_TRUE(searcher().search("Manchest*", options).notes.empty());
}

// All the wildcards of a query share one budget of words: each keeps its
// most frequent, one that wants fewer than an equal share leaves the rest
// to the others, and one note says so instead of one a wildcard.
TEST_F(QueryLanguage, WildcardsShareOneBudgetOfWords) {
  SearchOptions whole = every_hit();
  SearchOptions budget = every_hit();
  budget.parser.max_query_terms = 3;
  const SearchResult cut = searcher().search("m* p* d*", budget);
  EXPECT_EQ(cut.notes, std::vector<std::string>{"the query's 3 wildcards stand for 3 words in all, "
                                                "each for its most frequent (at most 1); type "
                                                "more letters, or fewer wildcards"});
  const SearchResult all = searcher().search("m* p* d*", whole);
  EXPECT_LT(cut.total, all.total);
  const Ids kept = sorted_ids(cut);
  const Ids every = sorted_ids(all);
  EXPECT_TRUE(std::includes(every.begin(), every.end(), kept.begin(), kept.end()));
  // Ederson* stands for one word: m* takes the other two.
  const SearchResult shared = searcher().search("Ederson* m*", budget);
  ASSERT_EQ(shared.notes.size(), 1u);
  EXPECT_NE(shared.notes[0].find("(at most 2)"), std::string::npos) << shared.notes[0];
  // Within the budget, nothing is cut and nothing said.
  EXPECT_TRUE(searcher().search("Ederson* Manchest*", budget).notes.empty());
}

// Inside syntax, words are read by the same analyzer as the articles.
TEST_F(QueryLanguage, AnalyzerAgreesInsideSyntax) {
  expect_sets({
      {"title:\"Dressing-Room\"", {"n04"}},
      {"title:Dressing-Room", {"n04"}},
      {"\"dressing-room\"", {"n04", "n05"}},
      {"\"Guardiola’s side\"", {"n03"}},
      {"\"Guardiola's men\"", {"n04"}},
      {"Guardiola’s NEAR Ederson", {"n03", "n04"}},
      {"Guardiola's NEAR/7 Ederson", {"n03"}},
      {"Guardiola’s ADJ men", {"n04"}},
      {"CAFÉ*", {"n02", "n06"}},
      {"title:CAFÉ", {}},
      {"\"won 2-1\"", {"n04"}},
      {"“late penalty”", {"n04"}},
  });
}

struct MalformedCase {
  std::string query;
  std::size_t column;
};

// With SearchOptions::strict, a query that cannot be parsed is an error.
TEST_F(QueryLanguage, MalformedQueriesPointAtTheFault) {
  const std::vector<MalformedCase> cases = {
      {"title:(", 7},
      {"title:", 1},
      {"AND", 1},
      {"Mourinho AND", 10},
      {"(Mourinho", 1},
      {"Mourinho)", 9},
      {"date:2017-13-01", 6},
      {"date:2017-02-30", 6},
      {"date:2018..2017", 6},
      {"date:..", 6},
      {"after:yesterday", 7},
      {"Mourinho NEAR", 10},
      {"NEAR Mourinho", 1},
      {"a NEAR \"two words\"", 8},
      {"kestrel NEAR walrus ADJ otter", 21},
      {"title:source:Express", 1},
  };
  SearchOptions strict;
  strict.parse = ParseMode::kStrict;
  for (const MalformedCase& c : cases) {
    try {
      searcher().search(c.query, strict);
      ADD_FAILURE() << "searched: " << c.query;
    } catch (const QueryError& error) {
      EXPECT_EQ(error.column(), c.column) << c.query << ": " << error.what();
      EXPECT_EQ(error.query(), c.query);
    }
  }
}

// By default a query that cannot be parsed is searched as plain words,
// with one warning naming the fault.
TEST_F(QueryLanguage, MalformedQueriesAreSearchedAsPlainWords) {
  const std::vector<Case> cases = {
      {"(Mourinho", {"n01", "n04", "n05", "n10"}},
      {"Mourinho)", {"n01", "n04", "n05", "n10"}},
      {"kestrel NEAR walrus ADJ otter", {"n03", "n05", "n06", "n07", "n08"}},
  };
  for (const Case& c : cases) {
    const SearchResult result = searcher().search(c.query, every_hit());
    EXPECT_EQ(sorted_ids(result), c.ids) << c.query;
    ASSERT_EQ(result.warnings.size(), 1u) << c.query;
    EXPECT_TRUE(result.warnings[0].ends_with("; searched as plain words")) << result.warnings[0];
  }
  const SearchResult result = searcher().search("(Mourinho");
  EXPECT_EQ(result.warnings[0], "'(' is never closed (column 1); searched as plain words");
  EXPECT_TRUE(searcher().search("Mourinho").warnings.empty());
}

// An operator with no words on a side is left out, the rest searched as
// written; a date no calendar has is refused, searched neither way.
TEST_F(QueryLanguage, DanglingOperatorsAreLeftOutAndImpossibleDatesRefused) {
  for (const auto& [query, meant] :
       {std::pair<std::string, std::string>{"Ederson XOR", "Ederson"}, {"NEAR Lukaku", "Lukaku"}}) {
    const SearchResult result = searcher().search(query, every_hit());
    EXPECT_EQ(sorted_ids(result), sorted_ids(searcher().search(meant, every_hit()))) << query;
    ASSERT_EQ(result.warnings.size(), 1u) << query;
    EXPECT_TRUE(result.warnings[0].ends_with("; searched without it")) << result.warnings[0];
  }
  EXPECT_THROW(searcher().search("date:2017-13-01 budget", every_hit()), QueryError);
}

// Forms Xapian's QueryParser accepts from a search box.
TEST_F(QueryLanguage, FormsPeopleTypeFromOtherSearchBoxes) {
  expect_sets({
      // A run of signs is no sign.
      {"+-Mourinho", {"n01", "n04", "n05", "n10"}},
      {"--Mourinho Lukaku", {"n01", "n04", "n05", "n07", "n10"}},
      {"Lukaku -+Mourinho", {"n01", "n04", "n05", "n07", "n10"}},
      // A group beside NEAR or ADJ: any of its words.
      {"kestrel NEAR/4 (walrus OR otter)", {"n03", "n05"}},
      {"(heron OR kestrel) NEAR/4 walrus", {"n03", "n05"}},
      {"heron NEAR (otter OR zebra)", {"n06"}},
      {"heron NEAR (zebra)", {}},
      {"(walrus OR heron) ADJ/4 (kestrel OR otter)", {"n05"}},
      {"title:(derby NEAR/3 (row OR nerves))", {"n03", "n04"}},
  });
}

TEST_F(QueryLanguage, UnknownFieldsAreWordsWithAWarning) {
  const SearchResult result = searcher().search("author:Mourinho coach", every_hit());
  ASSERT_EQ(result.warnings, std::vector<std::string>{"no field 'author'; searched as words"});
  EXPECT_EQ(sorted_ids(result), Ids{"n10"});
}

TEST_F(QueryLanguage, UnclosedQuoteIsSearchedAsAPhraseWithANote) {
  const SearchResult result = searcher().search("\"late penalty", every_hit());
  EXPECT_EQ(sorted_ids(result), Ids{"n04"});
  ASSERT_EQ(result.notes.size(), 1u);
  EXPECT_NE(result.notes[0].find("unclosed quote"), std::string::npos) << result.notes[0];
  EXPECT_TRUE(searcher().search("\"late penalty\"").notes.empty());
}

TEST_F(QueryLanguage, DeepNestingIsAnErrorNotACrash) {
  const std::string deep = std::string(10000, '(') + "Mourinho" + std::string(10000, ')');
  SearchOptions strict;
  strict.parse = ParseMode::kStrict;
  EXPECT_THROW(searcher().search(deep, strict), QueryError);
  EXPECT_EQ(sorted_ids(searcher().search(deep, every_hit())), (Ids{"n01", "n04", "n05", "n10"}));
  const std::string shallow = std::string(50, '(') + "Mourinho" + std::string(50, ')');
  EXPECT_EQ(sorted_ids(searcher().search(shallow, every_hit())), (Ids{"n01", "n04", "n05", "n10"}));
}

TEST_F(QueryLanguage, PlainModeSearchesWordsWithoutSyntax) {
  const std::string question = "WHAT DID MOURINHO SAY AND (WHY?";
  SearchOptions strict;
  strict.parse = ParseMode::kStrict;
  EXPECT_THROW(searcher().search(question, strict), QueryError);
  SearchOptions plain = every_hit();
  plain.parse = ParseMode::kPlain;
  SearchResult result;
  ASSERT_NO_THROW(result = searcher().search(question, plain));
  const Ids found = sorted_ids(result);
  for (const char* id : {"n01", "n04", "n05", "n10"}) {
    EXPECT_NE(std::find(found.begin(), found.end(), id), found.end()) << id;
  }
  EXPECT_TRUE(result.notes.empty());
  for (const char* text :
       {"title:(", "AND", "Mourinho NEAR", "date:2017-13-01", "\"", "-Mourinho", "Manches*"}) {
    EXPECT_NO_THROW(searcher().search(text, plain)) << text;
  }
  // Syntax characters are not operators: "-Mourinho" still finds Mourinho.
  EXPECT_EQ(sorted_ids(searcher().search("-Mourinho", plain)), (Ids{"n01", "n04", "n05", "n10"}));
}

}  // namespace
}  // namespace quarry
