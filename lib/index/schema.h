// How Quarry lays an article out in a Xapian database. Shared by the writer
// and the searcher; changing any of it needs a new kSchemaVersion.
#ifndef QUARRY_LIB_INDEX_SCHEMA_H_
#define QUARRY_LIB_INDEX_SCHEMA_H_

#include <xapian.h>

#include <optional>
#include <string>
#include <string_view>

namespace quarry::detail {

inline constexpr int kSchemaVersion = 7;

// Term prefixes, following omega's conventions where it has one.
inline constexpr char kStemPrefix[] = "Z";          // stems of every word, with positions
inline constexpr char kTitlePrefix[] = "S";         // after Z: stems of title words, no positions
inline constexpr char kIdPrefix[] = "Q";            // the article's unique id (boolean)
inline constexpr char kOriginPrefix[] = "XO";       // the folder or corpus it came from
inline constexpr char kSourcePrefix[] = "XSOURCE";  // source, normalized (boolean)
inline constexpr char kCategoryPrefix[] = "XCAT";   // category, normalized (boolean)
inline constexpr char kLanguagePrefix[] = "XLANG";  // the stemmer's name ("french"; boolean)

// An index holding several languages stems each article in its own. The
// stems of the index's main language follow the prefixes above as they
// are; another language's carry a mark after them ("ZXFR", "ZSXFR"), so
// that stems of different languages never meet. Stems are folded to small
// letters, so no stem starts like a mark.
//
// The mark of `language`'s stems in an index whose main language is
// `main`: empty for the main one, else "X" and the language's ISO 639-1
// code in capitals (its stemmer's name, for a variant of the code's first
// stemmer: "XGERMAN2").
std::string stem_mark(const std::string& language, const std::string& main);

// Word positions: the title's words are numbered from kFirstTitlePosition,
// and the body's follow a gap, so that no phrase spans both.
inline constexpr Xapian::termpos kFirstTitlePosition = 1;
inline constexpr Xapian::termpos kBodyPositionGap = 100;

// The position of the body's first word, after a title of `title_words`
// words (as Analyzer::tokenize counts them).
constexpr Xapian::termpos first_body_position(Xapian::termpos title_words) {
  return kFirstTitlePosition + title_words + kBodyPositionGap;
}

// Value slots.
inline constexpr Xapian::valueno kDateSlot = 0;         // "YYYYMMDD", sortable
inline constexpr Xapian::valueno kFingerprintSlot = 1;  // hash of what was indexed
// What orders hits of equal score: hit_order_key(). Document numbers, by
// which Xapian would order them, differ between one database and shards.
inline constexpr Xapian::valueno kHitOrderSlot = 2;
// Source and category as written, for counting matches by them (facets).
inline constexpr Xapian::valueno kSourceSlot = 3;
inline constexpr Xapian::valueno kCategorySlot = 4;
// The stored article (see article_store.h), compressed by Quarry. It is a
// value rather than the document data, which Xapian deflates itself: that
// costs a zlib pass per article as it is added and another as the parts of
// a build are merged, and gains nothing on zstd's output.
inline constexpr Xapian::valueno kArticleSlot = 7;
// The keys of the article's story and duplicate group (the smallest id in
// each), empty when it is alone: searches collapse on them. Slot 10 held
// the story's size in earlier layouts.
inline constexpr Xapian::valueno kStorySlot = 5;
inline constexpr Xapian::valueno kDuplicateSlot = 6;
// The article's signature (story_signature.h): its MinHash sketch and its
// most frequent stems.
inline constexpr Xapian::valueno kMinHashSlot = 8;
inline constexpr Xapian::valueno kStoryStemsSlot = 9;
// The time of day of a dated article that gives one, sortable_time()'s
// form: hits sorted by date are sorted by it within a day. Indexes written
// before it was added lack it, and sort by the day alone.
inline constexpr Xapian::valueno kTimeSlot = 11;

// What the date slot holds for an article dated `iso`: "2017-12-10T15:01:01"
// → "20171210"; empty when the text does not start with a valid calendar
// date (YYYY-MM-DD), and the article then has no date.
std::string sortable_date(std::string_view iso);

// What the time slot holds for an article dated `iso`: the time of day,
// taken to UTC when a zone is written, counted from the start of the day
// written. "2017-12-10T15:01:01" and "…T15:01:01Z" → "150101",
// "2017-12-10 15:01" → "1501", "…T15:01:01.25Z" → "15010125",
// "…T15:01:01+02:00" → "130101", "…T01:00+05:00" → "-2000" (the evening
// before, which sorts first), "…T23:00-05:00" → "2800"; empty when `iso`
// gives no valid date, or no time after it (hh:mm, then :ss and a fraction
// if written).
std::string sortable_time(std::string_view iso);

// The key hits of equal score are sorted by, least first: the date, newest
// first (articles without one last), then the id. `date` is
// sortable_date()'s form.
std::string hit_order_key(std::string_view date, std::string_view id);
// The id a hit_order_key() holds.
std::string id_of_hit_order_key(std::string_view key);

// The article's language as language_label() names it ("fr"; "none"), for
// counting matches by it.
inline constexpr Xapian::valueno kLanguageSlot = 12;

// Metadata keys.
// The language the index was asked for: a stemmer's name, the language of
// every article that does not say its own, or kAutoLanguage.
inline constexpr char kLanguageKey[] = "quarry.language";
// Each article that does not say its language is identified from its
// text; those that cannot be are analyzed in the main language.
inline constexpr char kAutoLanguage[] = "auto";
inline constexpr char kSchemaKey[] = "quarry.schema";
// The zstd dictionary the stored articles are compressed with (see
// article_store.h); absent when they need none.
inline constexpr char kTextDictionaryKey[] = "quarry.text_dictionary";
// In each shard of a shard set: "K/N", shard K of N.
inline constexpr char kShardKey[] = "quarry.shard";
// In a shard set's lexicon, which holds no articles but the spelling data
// and synonyms of them all: the number of shards.
inline constexpr char kLexiconKey[] = "quarry.lexicon";
// The problems the last runs reported, kept to tell new ones from old (see
// reported_problems.h); in the first database of a shard set.
inline constexpr char kReportedProblemsKey[] = "quarry.reported_problems";
// The ids of articles committed but not yet linked into stories, a key per
// commit that wrote some (see unlinked_articles.h); in the first database
// of a shard set.
inline constexpr char kUnlinkedKeyPrefix[] = "quarry.unlinked.";
// Set in an index merged from the parts of a first build that was
// interrupted: the run that completes it links every article, as a build
// run through does, rather than the articles it adds as an update would;
// removed with that link's commit. In the first database.
inline constexpr char kLinkWholeKey[] = "quarry.link_whole";
// How many articles were ever replaced in place (an article's text changed
// under its id): a reader's table of document lengths stays true while this
// does not change, as articles added are new documents. In each database.
inline constexpr char kReplacedKey[] = "quarry.replaced";
// The notes callers keep in the index (IndexWriter::set_note), by their
// name after this prefix; in the first database.
inline constexpr char kNoteKeyPrefix[] = "quarry.note.";
// The ids of a story's and of a duplicate group's members, by the group's
// key (see story_keys.h); in every database of a shard set.
inline constexpr char kStoryMembersPrefix[] = "quarry.story.";
inline constexpr char kDuplicateMembersPrefix[] = "quarry.copies.";

// The unique term of an article id. Xapian terms are limited to 245 bytes, so
// long ids are replaced by a hash of themselves.
std::string id_term(const std::string& id);

// The document of `db` holding `term`, an article's id term (id_term): the
// article's, if it is in `db`. Throws Xapian::Error.
inline std::optional<Xapian::docid> document_of(const Xapian::Database& db,
                                                const std::string& term) {
  const Xapian::PostingIterator it = db.postlist_begin(term);
  if (it == db.postlist_end(term)) return std::nullopt;
  return *it;
}

// A boolean term of a prefix and a value that may be long.
std::string boolean_term(const char* prefix, const std::string& value);

// The language a new index is analyzed in when `requested` of it (empty:
// kAutoLanguage). Throws ConfigError for a language with no stemmer.
std::string new_index_language(const std::string& requested);

// Throws ConfigError unless `language` is kAutoLanguage or a stemmer's.
void check_index_language(const std::string& language);

// The main language of an index asked for `language` (kLanguageKey):
// the one language asked for, or kDefaultLanguage for kAutoLanguage.
std::string main_language(const std::string& language);

// The language the database at `path` was asked for (kLanguageKey),
// empty when it was asked for none: it is new. Throws IndexError when it
// holds articles all the same, as a Xapian database Quarry did not build
// does.
std::string stored_language(const Xapian::Database& db, const std::string& path);

// Throws IndexError when the index at `path` was laid out by another
// version of Quarry.
void check_schema(const Xapian::Database& db, const std::string& path);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_SCHEMA_H_
