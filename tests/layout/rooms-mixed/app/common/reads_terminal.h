// A common header that reaches into the terminal's room: check_layers.cmake
// must name it.
#include "app/terminal/prompt.h"
