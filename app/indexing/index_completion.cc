#include "app/indexing/index_completion.h"

#include <string>
#include <vector>

#include "app/common/exit_status.h"
#include "app/common/option_docs.h"
#include "app/indexing/index_option_table.h"
#include "quarry/text/analyzer.h"

namespace quarry {
namespace {

// One option of the command line, as completion needs it.
struct Flag {
  std::vector<std::string> names;  // "-j", "--threads"
  std::string description;         // for zsh (zsh_description)
  bool takes_value = false;
  bool value_optional = false;  // --wait, --wait=SECONDS
  bool stops = false;           // --help, --version: nothing follows
  IndexValueNames kind = IndexValueNames::kNothing;
};

std::vector<Flag> flags_of_table() {
  std::vector<Flag> flags;
  for (const IndexOption& option : index_option_table()) {
    if (option.role == IndexRowRole::kArguments) continue;
    Flag flag;
    if (option.short_name) flag.names.push_back(option.short_flag());
    flag.names.push_back(option.long_flag());
    flag.description = zsh_description(option.help);
    flag.value_optional = option.value_optional();
    flag.takes_value = option.takes_value();
    flag.stops = option.role != IndexRowRole::kOption;
    flag.kind = option.names;
    flags.push_back(std::move(flag));
  }
  return flags;
}

std::string joined(const std::vector<std::string>& words, std::string_view between) {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : std::string(between)) + word;
  return text;
}

std::string languages() { return "auto none " + Analyzer::available_languages(); }

void write_bash(const std::vector<Flag>& flags, std::ostream& out, std::string_view program) {
  out << "# bash completion for " << program << ", written by `" << program
      << " --generate complete-bash`\n"
         "# from its options: the options, their values, and the folders and corpora\n"
         "# it reads.                                              -*- shell-script -*-\n\n"
         "_quarry_index()\n{\n"
         "    local cur prev words cword split\n"
         "    _init_completion -s || return\n\n"
         "    case $prev in\n";
  std::vector<std::string> numbers;
  std::vector<std::string> all;
  for (const Flag& flag : flags) {
    for (const std::string& name : flag.names) all.push_back(name);
    if (flag.value_optional) all.push_back(flag.names.back() + "=");
    if (!flag.takes_value || flag.value_optional) continue;
    const std::string arm = joined(flag.names, " | ");
    switch (flag.kind) {
      case IndexValueNames::kFolder:
        out << "        " << arm
            << ")\n            _filedir -d\n            return\n            ;;\n";
        break;
      case IndexValueNames::kExistingFile:
        out << "        " << arm << ")\n            _filedir\n            return\n            ;;\n";
        break;
      case IndexValueNames::kLanguage:
        out << "        " << arm << ")\n            COMPREPLY=($(compgen -W '" << languages()
            << "' -- \"$cur\"))\n            return\n            ;;\n";
        break;
      case IndexValueNames::kNothing:
      case IndexValueNames::kArticles:
        for (const std::string& name : flag.names) numbers.push_back(name);
        break;
    }
  }
  if (!numbers.empty()) {
    out << "        " << joined(numbers, " | ") << ")\n            return\n            ;;\n";
  }
  out << "    esac\n"
         "    $split && return\n\n"
         "    if [[ $cur == -* ]]; then\n"
         "        COMPREPLY=($(compgen -W '"
      << joined(all, " ")
      << "' -- \"$cur\"))\n"
         "        [[ ${COMPREPLY-} == *= ]] && compopt -o nospace\n"
         "        return\n"
         "    fi\n"
         "    # Folders, .txt articles and JSON Lines corpora.\n"
         "    _filedir '@(txt|jsonl|jsonl.gz)'\n"
         "} &&\n"
         "    complete -F _quarry_index "
      << program << "\n\n# ex: filetype=sh\n";
}

std::string zsh_value(const Flag& flag) {
  switch (flag.kind) {
    case IndexValueNames::kFolder:
      return ":folder:_directories";
    case IndexValueNames::kExistingFile:
      return ":file:_files";
    case IndexValueNames::kLanguage:
      return ":language:(" + languages() + ")";
    case IndexValueNames::kNothing:
    case IndexValueNames::kArticles:
      break;
  }
  return flag.value_optional ? "::value" : ":value";
}

void write_zsh(const std::vector<Flag>& flags, std::ostream& out, std::string_view program) {
  out << "#compdef " << program << "\n\n# zsh completion for " << program << ", written by `"
      << program
      << " --generate complete-zsh` from\n"
         "# its options: the options, their values, and the folders and corpora it reads.\n\n"
         "_arguments -s -S : \\\n";
  for (const Flag& flag : flags) {
    const std::string exclusive = flag.stops              ? "(- *)"
                                  : flag.names.size() > 1 ? "(" + joined(flag.names, " ") + ")"
                                                          : "";
    std::vector<std::string> specs;
    for (const std::string& name : flag.names) {
      const bool is_long = name.size() > 2;
      const std::string suffix = !flag.takes_value     ? ""
                                 : flag.value_optional ? "=-"
                                 : is_long             ? "="
                                                       : "+";
      specs.push_back(name + suffix);
    }
    const std::string value = flag.takes_value ? zsh_value(flag) : "";
    const std::string body = "[" + flag.description + "]" + value;
    if (specs.size() == 1) {
      out << "  '" << exclusive << specs[0] << body << "' \\\n";
    } else {
      out << "  '" << exclusive << "'{" << joined(specs, ",") << "}'" << body << "' \\\n";
    }
  }
  out << "  '*:folder or corpus:_files -g \"*.(txt|jsonl|jsonl.gz)(-.)\"'\n";
}

}  // namespace

int write_index_completion(std::string_view kind, std::ostream& out, std::ostream& err,
                           std::string_view program) {
  const std::vector<Flag> flags = flags_of_table();
  if (kind == "complete-bash") {
    write_bash(flags, out, program);
  } else if (kind == "complete-zsh") {
    write_zsh(flags, out, program);
  } else {
    err << program << ": --generate takes complete-bash or complete-zsh\n";
    return kExitUsage;
  }
  return kExitSuccess;
}

}  // namespace quarry
