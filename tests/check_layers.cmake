# Checks that each layer includes only the layers before it, as
# docs/architecture.md says: text → input → index → search → app → programs (the headers
# at the top of include/quarry/, such as error.h, serve every layer), that
# the front ends' rooms in app/ keep apart (the terminal, the server and the
# indexer's front end include app/common/ and their own room, never each
# other's; app/common/ includes none of them), and that no public header
# includes Xapian's. Run as
#   cmake -DSOURCE_DIR=<repository root> -P tests/check_layers.cmake
# It fails naming every file and include that breaks the order, so a
# back-reference is caught when it is written, not when it hurts.
cmake_minimum_required(VERSION 3.25)

set(layers text input index search)

# What a layer may include, as regular expressions over the quoted path.
set(allowed_text "^(quarry/[a-z_]+\\.h|quarry/text/|lib/text/)")
set(allowed_input "^(quarry/[a-z_]+\\.h|quarry/(text|input)/|lib/(text|input)/)")
set(allowed_index "^(quarry/[a-z_]+\\.h|quarry/(text|input|index)/|lib/(text|input|index)/)")
set(allowed_search
    "^(quarry/[a-z_]+\\.h|quarry/(text|input|index|search)/|lib/(text|input|index|search)/)")
set(rooms terminal server indexing)
set(allowed_common "^(quarry/|app/common/)")
foreach(room IN LISTS rooms)
  set(allowed_${room} "^(quarry/|app/common/|app/${room}/)")
endforeach()
# A program also includes its own folder's files: quarry-index its front
# end, quarry the terminal and the server it runs.
set(allowed_indexer "^(quarry/|app/(common|indexing)/|indexer/)")
set(allowed_query "^(quarry/|app/(common|terminal|server)/|query/)")

set(problems "")

function(check_file file allowed)
  set(found "")
  file(STRINGS "${file}" lines REGEX "^#include ")
  foreach(line IN LISTS lines)
    if(line MATCHES "^#include \"([^\"]+)\"")
      set(included "${CMAKE_MATCH_1}")
      if(NOT included MATCHES "${allowed}")
        file(RELATIVE_PATH name "${SOURCE_DIR}" "${file}")
        string(APPEND found "\n  ${name} includes \"${included}\"")
      endif()
    elseif(line MATCHES "^#include <xapian" AND file MATCHES "/include/quarry/")
      # The public API hides its engine: callers need no Xapian headers.
      file(RELATIVE_PATH name "${SOURCE_DIR}" "${file}")
      string(APPEND found "\n  ${name} includes <xapian…>")
    elseif(line MATCHES "^#include <(unicode/|cld2/|readline/|CLI/)")
      # ICU stays inside lib/, the language detector inside the text layer,
      # readline inside the terminal prompt, CLI11 inside the programs.
      set(library "${CMAKE_MATCH_1}")
      file(RELATIVE_PATH name "${SOURCE_DIR}" "${file}")
      set(ok FALSE)
      if(library STREQUAL "unicode/" AND name MATCHES "^lib/")
        set(ok TRUE)
      elseif(library STREQUAL "cld2/" AND name MATCHES "^lib/text/")
        set(ok TRUE)
      elseif(library STREQUAL "readline/" AND name STREQUAL "app/terminal/terminal_prompt.cc")
        set(ok TRUE)
      elseif(library STREQUAL "CLI/" AND name MATCHES "^(indexer|query)/")
        set(ok TRUE)
      endif()
      if(NOT ok)
        string(APPEND found "\n  ${name} includes <${library}…>")
      endif()
    endif()
  endforeach()
  set(problems "${problems}${found}" PARENT_SCOPE)
endfunction()

foreach(layer IN LISTS layers)
  file(GLOB_RECURSE files "${SOURCE_DIR}/lib/${layer}/*" "${SOURCE_DIR}/include/quarry/${layer}/*")
  foreach(file IN LISTS files)
    check_file("${file}" "${allowed_${layer}}")
  endforeach()
endforeach()
file(GLOB files "${SOURCE_DIR}/lib/*.cc" "${SOURCE_DIR}/include/quarry/*.h")
foreach(file IN LISTS files)
  check_file("${file}" "${allowed_text}")
endforeach()
foreach(room IN ITEMS common ${rooms})
  file(GLOB files "${SOURCE_DIR}/app/${room}/*.cc" "${SOURCE_DIR}/app/${room}/*.h")
  foreach(file IN LISTS files)
    check_file("${file}" "${allowed_${room}}")
  endforeach()
endforeach()
# A file straight in app/ belongs to no room.
file(GLOB files "${SOURCE_DIR}/app/*.cc" "${SOURCE_DIR}/app/*.h")
foreach(file IN LISTS files)
  file(RELATIVE_PATH name "${SOURCE_DIR}" "${file}")
  string(APPEND problems "\n  ${name} is in no room of app/")
endforeach()
foreach(program indexer query)
  file(GLOB files "${SOURCE_DIR}/${program}/*")
  foreach(file IN LISTS files)
    if(file MATCHES "\\.(cc|h)$")
      check_file("${file}" "${allowed_${program}}")
    endif()
  endforeach()
endforeach()

if(problems)
  message(FATAL_ERROR "includes against the layer order (docs/architecture.md):${problems}")
endif()
