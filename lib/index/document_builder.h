// Turning an article into the Xapian document Quarry stores, and the
// bookkeeping every writer shares: fingerprints and spelling data.
#ifndef QUARRY_LIB_INDEX_DOCUMENT_BUILDER_H_
#define QUARRY_LIB_INDEX_DOCUMENT_BUILDER_H_

#include <xapian.h>

#include <string>
#include <vector>

#include "lib/index/article_store.h"
#include "lib/index/language_analyzers.h"
#include "lib/index/word_table.h"
#include "quarry/input/article.h"
#include "quarry/text/analyzer.h"

namespace quarry::detail {

// A hash of everything indexed from the article as it was read, and of the
// language asked of the index (kLanguageKey): equal fingerprints mean
// re-indexing would change nothing. An article's language, when it says
// none, follows from its text and that.
std::string fingerprint(const Article& article, const std::string& index_language);

// Stems with positions (title first, then the body after a gap), title
// stems, the id, origin, source, category and language terms, the date and
// language values, the story signature (story_signature.h), and the stored
// text, encoded by `store` (without a dictionary when null). The article
// is analyzed, and stored as written, in the language of `analyzer`. When
// `words` is given, it receives the article's distinct words, as the
// analyzer reads them. The caller adds the fingerprint.
Xapian::Document make_document(const Analyzer& analyzer, const Article& article,
                               const std::string& origin, std::vector<std::string>* words = nullptr,
                               ArticleStore* store = nullptr);
// The same document, analyzed and stemmed through `words`, which counts
// the article once for each word it holds, in the language of `analyzer`,
// one of those `words` holds.
Xapian::Document make_document(const Analyzer& analyzer, const Article& article,
                               const std::string& origin, WordTable& words, ArticleStore& store);

// The distinct words of an article's title and body, as the vocabulary
// counts them for an article in the language of `analyzer`: each word,
// then, in a language but the main one, each word after the language's
// mark.
std::vector<std::string> article_words(const Analyzer& analyzer, const Article& article);

// The same words of the article stored as document `did`, read back from
// its stored text, which `store` decodes, in the language it is stored
// in. Throws Xapian::Error, and IndexError when the text cannot be read.
std::vector<std::string> stored_article_words(LanguageAnalyzers& analyzers, ArticleStore& store,
                                              const Xapian::Database& db, Xapian::docid did);

// The index keeps its vocabulary in Xapian's spelling data: each word with
// the number of articles holding it. It serves spelling suggestions,
// wildcards and completion, since the postings themselves hold stems only.
// In an index of several languages, each word is also counted after the
// mark of each language but the main one that holds it ("XFRdebat", see
// stem_mark): which languages write a word as a query types it tells in
// which of them it is a word. Marks are capitals, which no word starts
// with, so neither suggestions, wildcards nor completions meet them.
void add_words(Xapian::WritableDatabase& db, const std::vector<std::string>& words);
void remove_words(Xapian::WritableDatabase& db, const std::vector<std::string>& words);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_DOCUMENT_BUILDER_H_
