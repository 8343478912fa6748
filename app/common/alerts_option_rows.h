// quarry alerts' rows of the option table (see search_option_table.h): the
// index whose alerts to print, from which cursor, and whether to follow.
#ifndef QUARRY_APP_COMMON_ALERTS_OPTION_ROWS_H_
#define QUARRY_APP_COMMON_ALERTS_OPTION_ROWS_H_

#include <vector>

#include "app/common/search_option_table.h"

namespace quarry {

std::vector<SearchOption> alerts_option_rows();

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_ALERTS_OPTION_ROWS_H_
