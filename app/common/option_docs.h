// Documents written from the option table at build time, as ripgrep's
// --generate writes its own: quarry's bash and zsh completion. The build
// runs `quarry --generate KIND` and installs what it writes, so that
// completion always knows every option and every value the program takes.
#ifndef QUARRY_APP_COMMON_OPTION_DOCS_H_
#define QUARRY_APP_COMMON_OPTION_DOCS_H_

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace quarry {

// The kinds write_document writes: "complete-bash", "complete-zsh".
std::vector<std::string> generated_documents();

// Writes the document of that kind to `out` and returns 0; for another
// kind, names the known ones on `err` and returns 2 (exit statuses).
int write_document(std::string_view kind, std::ostream& out, std::ostream& err,
                   std::string_view program);

// A description in zsh's completion: the help's first clause, lower-cased,
// escaped for an _arguments spec in single quotes.
std::string zsh_description(std::string_view help);

// The completion of quarry and its subcommands for bash (to be sourced, or
// found by bash-completion's loader) and for zsh (an autoloaded #compdef
// function): options, their values, the query's fields, and the
// subcommands of table_subcommands() with their options.
void write_bash_completion(std::ostream& out);
void write_zsh_completion(std::ostream& out);

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_OPTION_DOCS_H_
