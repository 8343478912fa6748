# Writes OUTPUT, a C++ source defining quarry::detail::NAME as a
# std::string_view of each FILE's bytes, for files compiled into a program.
# A FILE may be several joined by '+', whose bytes follow one another with a
# blank line between them: one script kept in files of one job each.
#   cmake -DOUTPUT=out.cc -DNAMES=kA,kB -DFILES=a.html,b.js+c.js -P embed_files.cmake
cmake_minimum_required(VERSION 3.25)

string(REPLACE "," ";" NAMES "${NAMES}")
string(REPLACE "," ";" FILES "${FILES}")

set(source "// Written by app/server/embed_files.cmake from the files it names; do not edit.\n")
string(APPEND source "#include <string_view>\n\nnamespace quarry::detail {\nnamespace {\n\n")
set(definitions "")
foreach(name file IN ZIP_LISTS NAMES FILES)
  string(REPLACE "+" ";" parts "${file}")
  set(hex "")
  foreach(part IN LISTS parts)
    file(READ "${part}" part_hex HEX)
    if(NOT hex STREQUAL "")
      string(APPEND hex "0a")
    endif()
    string(APPEND hex "${part_hex}")
  endforeach()
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REPLACE "+" " + " file_names "${file}")
  string(APPEND source "// ${file_names}\nconstexpr unsigned char ${name}Bytes[] = {${bytes}};\n\n")
  string(APPEND definitions "extern const std::string_view ${name};\n")
  string(APPEND definitions "const std::string_view ${name}(reinterpret_cast<const char*>(${name}Bytes), sizeof ${name}Bytes);\n")
endforeach()
string(APPEND source "}  // namespace\n\n${definitions}\n}  // namespace quarry::detail\n")
file(WRITE "${OUTPUT}.tmp" "${source}")
# Unchanged contents keep the old file's time, so that nothing recompiles.
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
