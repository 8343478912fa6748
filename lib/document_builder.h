// Turning an article into the Xapian document Quarry stores, and the
// bookkeeping every writer shares: fingerprints and spelling data.
#ifndef QUARRY_LIB_DOCUMENT_BUILDER_H_
#define QUARRY_LIB_DOCUMENT_BUILDER_H_

#include <string>

#include <xapian.h>

#include "quarry/analyzer.h"
#include "quarry/article.h"

namespace quarry::detail {

// A hash of everything indexed from the article (and the language it is
// analyzed in): equal fingerprints mean re-indexing would change nothing.
std::string fingerprint(const Article& article, const std::string& language);

// Words with positions (title first, then the body after a gap), stems,
// title terms, the id, origin, source and category terms, the date value,
// the fingerprint, and the stored text.
Xapian::Document make_document(const Analyzer& analyzer, const Article& article,
                               const std::string& origin);

// Spelling data counts, for each word, the articles that hold it.
void add_spelling(Xapian::WritableDatabase& db, const Xapian::Document& doc);
void remove_spelling(Xapian::WritableDatabase& db, const Xapian::Document& doc);

// Whether spelling suggestions may offer this indexed word: not numbers,
// not single CJK characters.
bool is_spelling_word(const std::string& term);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_DOCUMENT_BUILDER_H_
