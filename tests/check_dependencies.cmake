# Checks that quarry-index links no terminal library: the engine and the
# front ends' library are kept apart so that only the prompt needs readline.
# Run as cmake -DPROGRAM=<path to quarry-index> -P tests/check_dependencies.cmake
cmake_minimum_required(VERSION 3.25)

file(GET_RUNTIME_DEPENDENCIES EXECUTABLES "${PROGRAM}" RESOLVED_DEPENDENCIES_VAR libraries
     UNRESOLVED_DEPENDENCIES_VAR missing)
foreach(library IN LISTS libraries missing)
  if(library MATCHES "(readline|libedit|ncurses|tinfo)")
    message(FATAL_ERROR "${PROGRAM} links ${library}, which only the prompt may need")
  endif()
endforeach()
