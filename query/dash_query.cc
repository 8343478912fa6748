#include "query/dash_query.h"

#include <string>

namespace quarry {

void explain_dash_query(int argc, char** argv, std::string_view program, std::ostream& err) {
  std::string command(program);
  bool found = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") return;
    const bool number = arg.size() > 2 && (arg[1] == 'n' || arg[1] == 'j') &&
                        arg.find_first_not_of("0123456789", 2) == std::string_view::npos;
    if (!found && arg.size() > 2 && arg[0] == '-' && arg[1] != '-' && !number) {
      command += " --";
      found = true;
    }
    const bool quote =
        arg.empty() || arg.find_first_of(" \t\"'$*?&|;<>()") != std::string_view::npos;
    command += quote ? " '" + std::string(arg) + "'" : " " + std::string(arg);
  }
  if (found)
    err << program << ": a query that starts with '-' goes after '--': " << command << '\n';
}

}  // namespace quarry
