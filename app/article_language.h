// The language of a stored article as the front ends show it, beside the
// hits' languages.
#ifndef QUARRY_APP_ARTICLE_LANGUAGE_H_
#define QUARRY_APP_ARTICLE_LANGUAGE_H_

#include <string>

#include "quarry/input/article.h"

namespace quarry {

// The language `article` (as Searcher::fetch gives it) is analyzed in, as
// Hit::language names it: its ISO 639-1 code ("fr"), or the stemmer's name
// for one with none ("none"); empty when the article names none.
std::string article_language(const Article& article);

}  // namespace quarry

#endif  // QUARRY_APP_ARTICLE_LANGUAGE_H_
