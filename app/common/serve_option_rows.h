// quarry serve's own rows of the option table (see search_option_table.h):
// where it listens, whom it answers, and the bounds it sets on every
// request.
#ifndef QUARRY_APP_COMMON_SERVE_OPTION_ROWS_H_
#define QUARRY_APP_COMMON_SERVE_OPTION_ROWS_H_

#include <vector>

#include "app/common/search_option_table.h"

namespace quarry {

std::vector<SearchOption> serve_option_rows();

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_SERVE_OPTION_ROWS_H_
