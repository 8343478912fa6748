// A terminal file that reaches into the server's room: check_layers.cmake
// must name it.
#include "app/server/server.h"
