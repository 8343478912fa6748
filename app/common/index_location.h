// Where the index lives when no --db is given, shared by every program.
#ifndef QUARRY_APP_COMMON_INDEX_LOCATION_H_
#define QUARRY_APP_COMMON_INDEX_LOCATION_H_

#include <string>

namespace quarry {

// $QUARRY_DB when set and not empty; else $XDG_DATA_HOME/quarry/index; else
// $HOME/.local/share/quarry/index; else ".quarry/index".
std::string default_index_path();

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_INDEX_LOCATION_H_
