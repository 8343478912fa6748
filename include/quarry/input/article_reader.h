// Reading articles from disk: folders of .txt files and JSON Lines corpora
// (.jsonl, .jsonl.gz). Readers never stop on bad input: each article that
// cannot be read is reported to the sink and reading goes on.
#ifndef QUARRY_INPUT_ARTICLE_READER_H_
#define QUARRY_INPUT_ARTICLE_READER_H_

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/input/article.h"
#include "quarry/input/title.h"

namespace quarry {

// Something the reader could not take as it was.
struct ReadProblem {
  SourceLocation where;
  std::string reason;   // one line, e.g. "binary file", "invalid UTF-8 repaired (2 bytes)"
  bool skipped = true;  // false: the article was repaired and still delivered
  // Of a skipped input: true when it was read whole and holds no article (an
  // empty file), so that an article it held before is gone; false when it
  // could not be read, or not as an article, and may still hold one.
  bool read_whole = false;
};

// Receives what a reader finds, in input order, on the thread that called
// read_articles, one call at a time: a sink need not be thread-safe.
class ArticleSink {
 public:
  virtual ~ArticleSink() = default;
  virtual void on_article(Article&& article, const SourceLocation& where) = 0;
  virtual void on_problem(const ReadProblem& problem) = 0;
  // Polled between articles; returning true makes the reader stop early.
  virtual bool should_stop() const { return false; }
  // A file in a folder that is not of a kind read_articles reads (a .md,
  // an .html), left out.
  virtual void on_other_file(const std::filesystem::path& /*path*/) {}
  // Whether the caller follows the files' changes, told when each is
  // closed after writing, renamed or deleted (a live index). Then a file
  // that some process still has open for writing is passed over
  // (on_passed_over) rather than read as far as it is written, to be read
  // once closed; and a file gone before it could be opened is left out
  // without a word, as the caller is told where it went. False: each file
  // is read as it is, and one that cannot be opened is a problem.
  virtual bool follows_changes() const { return false; }
  // A file passed over, still being written (see follows_changes): neither
  // an article nor a problem, and the article it held before, if any, may
  // still be there.
  virtual void on_passed_over(const SourceLocation& /*where*/) {}
};

// Reads every article under `root`:
//  - a folder: every .txt, .jsonl and .jsonl.gz file below it (extensions in
//    any case), recursively, in a stable order (sorted by name, byte-wise);
//    hidden files and folders are left out. A symbolic link is read as what
//    it points to, under its own name, when that is inside `root` or one of
//    the folders `also_within`; a link to a folder being read (a loop) is
//    left out, and a link to anywhere else is reported (skipped, read_whole)
//    as "a link to outside the folders given", its target not read;
//  - a .txt file: one article whose id is its path relative to the folder
//    given, with '/' separators (for a single file, its file name), whose
//    title comes from derive_title(); a byte order mark is dropped and CRLF
//    line breaks become LF. It may start with a header of "Name: value"
//    lines ended by a blank line, giving its Title, Date (ISO 8601), Source
//    and Category; a date that is not ISO 8601 is reported (skipped=false)
//    and left out;
//  - a .jsonl or .jsonl.gz file: one JSON object per line with non-empty
//    string "id", string "body", and optional strings "title", "date",
//    "category", "source" (null counts as absent); a date that is not ISO
//    8601 is reported (skipped=false) and left out. An empty title is derived
//    from the body, which is kept as given. Each article's location carries
//    its line number.
// An id longer than kMaxIdBytes is reported and its article skipped; a
// title, category or source longer than kMaxTitleBytes or kMaxLabelBytes is
// cut and reported (skipped=false). A message that quotes a value of the
// input quotes its first few dozen characters at most.
// Invalid UTF-8 is repaired (each bad byte becomes U+FFFD) and reported with
// skipped=false before the article; so is a body longer than kMaxBodyBytes,
// which is cut at a word boundary before the limit (of a .txt file, no more
// than that is read), and a JSON \u escape of a lone UTF-16 surrogate, which
// becomes U+FFFD. Binary files, files mostly not UTF-8,
// blank articles, unreadable files and folders, malformed lines and cut-off
// gzip streams are reported and skipped. Paths in ids and locations are
// UTF-8: a byte of a file name that is not becomes "%XX" (capital hex), and
// a "%" followed by "25" or by "80" to "FF" in capitals becomes "%25", so
// that different files keep different ids. Throws InputError when `root`
// itself does not exist, cannot be opened, or is neither a folder nor a file
// of a known kind.
void read_articles(const std::filesystem::path& root, ArticleSink& sink,
                   const std::vector<std::filesystem::path>& also_within = {});

// Whether read_articles takes this file (by its name).
bool is_article_file(const std::filesystem::path& path);

// Why read_articles cannot read `root` at all: it does not exist, or it is
// neither a folder nor a file of a kind it reads ("no such file or
// folder"), or it is named as one but is a pipe or a device ("not a
// regular file"); empty when it can be read.
std::string unreadable_root(const std::filesystem::path& root);

// The most of an article's body that is indexed and stored: some thirty
// times the longest news article, and still quick to draw a snippet from.
inline constexpr std::size_t kMaxBodyBytes = std::size_t{4} << 20;

// The longest id an article may have, as Elasticsearch bounds _id: an id is
// a key, which cutting could make another article's, so an article with a
// longer one is reported and skipped. Percent-encoded whole (three bytes a
// byte), it still fits in a URL of every front end (/api/articles/ID).
inline constexpr std::size_t kMaxIdBytes = 512;

// The longest title kept: ten times the longest headline. A longer one is
// cut at a word boundary, or where a character ends, and reported.
inline constexpr std::size_t kMaxTitleBytes = 1024;

// The longest category or source kept. Both are labels, filtered on and
// counted by facets, as Elasticsearch keeps keywords of 256 characters at
// most; a longer one is cut where a character ends, and reported.
inline constexpr std::size_t kMaxLabelBytes = 256;

}  // namespace quarry

#endif  // QUARRY_INPUT_ARTICLE_READER_H_
