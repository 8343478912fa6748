#include "app/common/option_docs.h"

#include <set>
#include <string_view>

#include "app/common/search_option_table.h"
#include "app/common/table_subcommands.h"

namespace quarry {
namespace {

// The query language's fields, which a query word may start with.
struct QueryField {
  std::string_view name;
  std::string_view description;
};
constexpr QueryField kQueryFields[] = {
    {"title:", "words of the title"},
    {"source:", "the source, whole"},
    {"category:", "the category, whole"},
    {"id:", "the article id"},
    {"language:", "articles in one language, as fr or french"},
    {"lang:", "the same as language:"},
    {"date:", "a date or a range, as 2017-12 or 2017-12-01..2017-12-31"},
    {"after:", "articles dated on or after"},
    {"before:", "articles dated on or before"},
};

std::string joined(const std::vector<std::string>& words, std::string_view between) {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : std::string(between)) + word;
  return text;
}

std::vector<std::string> values_of(const SearchOption& option) {
  return {option.values.begin(), option.values.end()};
}

// The flags of an option: "-n", "--limit".
std::vector<std::string> flags_of(const SearchOption& option) {
  std::vector<std::string> flags;
  if (option.short_name) flags.push_back(option.short_flag());
  flags.push_back(option.long_flag());
  return flags;
}

std::vector<std::string> all_flags(Command command) {
  std::vector<std::string> flags;
  for (const SearchOption& option : search_option_table()) {
    if (!option.belongs_to(command)) continue;
    for (const std::string& flag : flags_of(option)) flags.push_back(flag);
  }
  flags.insert(flags.end(), {"-h", "--help"});
  if (command == kSearchCommand) flags.push_back("--version");
  return flags;
}

// The options of either command, each once (-j is both quarry's and serve's).
std::vector<const SearchOption*> distinct_options() {
  std::vector<const SearchOption*> options;
  std::set<std::string> seen;
  for (const SearchOption& option : search_option_table()) {
    if (seen.insert(option.long_flag()).second) options.push_back(&option);
  }
  return options;
}

// What bash offers after the option: the case arm of its value.
std::string bash_value_arm(const SearchOption& option) {
  const std::string pattern = joined(flags_of(option), " | ");
  std::string action;
  if (option.kind == ValueKind::kPath || option.kind == ValueKind::kPaths) {
    action = "_filedir";
  } else if (option.kind == ValueKind::kList && !option.values.empty()) {
    // A comma-separated list: complete its last item.
    action =
        "local done_items=\n"
        "            [[ $cur == *,* ]] && done_items=${cur%,*},\n"
        "            COMPREPLY=($(compgen -P \"$done_items\" -W '" +
        joined(values_of(option), " ") + "' -- \"${cur##*,}\"))";
  } else if (!option.values.empty()) {
    action = "COMPREPLY=($(compgen -W '" + joined(values_of(option), " ") + "' -- \"$cur\"))";
  }
  return "        " + pattern + ")\n" + (action.empty() ? "" : "            " + action + "\n") +
         "            return\n            ;;\n";
}

// An _arguments spec: '(-n --limit)'{-n+,--limit=}'[hits per query]:N:'.
std::string zsh_spec(const SearchOption& option, Command command) {
  const bool value = option.takes_value();
  std::string action;
  if (option.kind == ValueKind::kPath || option.kind == ValueKind::kPaths) {
    action = "_files";
  } else if (option.kind == ValueKind::kList && !option.values.empty()) {
    action = "_sequence compadd - " + joined(values_of(option), " ");
  } else if (!option.values.empty()) {
    // compadd -a: values that start with '-' (-date) are values, not options.
    action = "{local -a values=(" + joined(values_of(option), " ") + "); compadd -a values}";
  }
  std::string name;
  // A colon ends the message of an _arguments spec unless escaped (HOST:PORT).
  for (char c : option.value_name.empty() ? option.name : option.value_name) {
    if (c == ':') name += '\\';
    name += c;
  }
  const std::string tail = "[" + zsh_description(option.help_in(command)) + "]" +
                           (value ? ":" + name + ":" + action : "") + "'";
  if (option.short_name) {
    const std::string s = option.short_flag() + (value ? "+" : "");
    const std::string l = option.long_flag() + (value ? "=" : "");
    return "'(" + option.short_flag() + " " + option.long_flag() + ")'{" + s + "," + l + "}'" +
           tail;
  }
  const std::string repeat = option.kind == ValueKind::kPaths ? "*" : "";
  return "'" + repeat + option.long_flag() + (value ? "=" : "") + tail;
}

std::string zsh_specs(Command command, std::string_view indent) {
  std::string specs;
  for (const SearchOption& option : search_option_table()) {
    if (option.belongs_to(command)) {
      specs += std::string(indent) + zsh_spec(option, command) + " \\\n";
    }
  }
  return specs;
}

}  // namespace

std::string zsh_description(std::string_view help) {
  std::string text(help.substr(0, help.find_first_of(";:(")));
  while (!text.empty() && (text.back() == ' ' || text.back() == ',')) text.pop_back();
  std::string escaped;
  for (char c : text) {
    if (c == '[' || c == ']') escaped += '\\';
    if (c == '\'') {
      escaped += "'\\''";
      continue;
    }
    escaped += c;
  }
  if (!escaped.empty() && escaped[0] >= 'A' && escaped[0] <= 'Z') escaped[0] += 'a' - 'A';
  return escaped;
}

std::vector<std::string> generated_documents() { return {"complete-bash", "complete-zsh"}; }

int write_document(std::string_view kind, std::ostream& out, std::ostream& err,
                   std::string_view program) {
  if (kind == "complete-bash") {
    write_bash_completion(out);
  } else if (kind == "complete-zsh") {
    write_zsh_completion(out);
  } else {
    err << program << ": --generate takes " << joined(generated_documents(), " or ") << '\n';
    return 2;
  }
  return 0;
}

void write_bash_completion(std::ostream& out) {
  std::vector<std::string> with_value;
  std::string arms;
  for (const SearchOption* option : distinct_options()) {
    if (!option->takes_value()) continue;
    for (const std::string& flag : flags_of(*option)) with_value.push_back(flag);
    arms += bash_value_arm(*option);
  }
  std::vector<std::string> fields;
  for (const QueryField& field : kQueryFields) fields.emplace_back(field.name);
  std::vector<std::string> names;
  for (const TableSubcommand& subcommand : table_subcommands()) {
    names.emplace_back(subcommand.name);
  }
  out << "# bash completion for quarry: its options and their values, the fields of\n"
         "# the query language, and the serve subcommand. Written by quarry --generate\n"
         "# complete-bash from quarry's option table.            -*- shell-script -*-\n\n"
         "_quarry()\n{\n"
         "    local cur prev words cword split\n"
         "    # A query field's ':' must not end the word, so that title:<TAB> works.\n"
         "    _init_completion -s -n : || return\n\n"
      << "    local main_options='" << joined(all_flags(kSearchCommand), " ") << "'\n";
  for (const TableSubcommand& subcommand : table_subcommands()) {
    out << "    local " << subcommand.name << "_options='"
        << joined(all_flags(subcommand.command), " ") << "'\n";
  }
  out << "    local with_value='" << joined(with_value, "|") << "'\n\n"
      << R"(    # The first word that is neither an option nor an option's value decides:
    # serve, or the start of a query. After '--' every word is the query's.
    local i command= after_dashes=
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --) after_dashes=1 command=query; break ;;
            -*=*) ;;
            -*) [[ ${words[i]} == @($with_value) ]] && ((i++)) ;;
            *) command=${words[i]}; break ;;
        esac
    done
    [[ $command && $command != @()"
      << joined(names, "|") << R"() ]] && command=query

    case $prev in
)" << arms
      << R"(    esac
    $split && return

)";
  for (const std::string& name : names) {
    out << "    if [[ $command == " << name << " ]]; then\n"
        << "        [[ $cur == -* ]] && COMPREPLY=($(compgen -W \"$" << name
        << "_options\" -- \"$cur\"))\n"
           "        return\n"
           "    fi\n";
  }
  out << R"(    if [[ $cur == -* && ! $after_dashes ]]; then
        COMPREPLY=($(compgen -W "$main_options" -- "$cur"))
        [[ ${COMPREPLY-} == *= ]] && compopt -o nospace
        return
    fi
    # A word of the query: a field to narrow it, or the serve subcommand.
)"
      << "    local fields='" << joined(fields, " ") << "'\n"
      << R"(    [[ $command ]] || fields+=' )" << joined(names, " ") << R"('
    if [[ $cur != *:* ]]; then
        COMPREPLY=($(compgen -W "$fields" -- "$cur"))
        [[ ${COMPREPLY-} == *: ]] && compopt -o nospace
    fi
    __ltrim_colon_completions "$cur"
} &&
    complete -F _quarry quarry

# ex: filetype=sh
)";
}

void write_zsh_completion(std::ostream& out) {
  out << "#compdef quarry\n\n"
         "# zsh completion for quarry: its options and their values, the fields of\n"
         "# the query language, and the serve subcommand. Written by quarry --generate\n"
         "# complete-zsh from quarry's option table.\n\n"
         "local curcontext=\"$curcontext\" state state_descr line ret=1\n"
         "typeset -A opt_args\n\n"
         "_arguments -C -s -S : \\\n"
         "  '(- *)'{-h,--help}'[print help and exit]' \\\n"
         "  '(- *)--version[print the versions of quarry, Xapian and ICU, and exit]' \\\n"
      << zsh_specs(kSearchCommand, "  ")
      << "  '1: :->first' \\\n"
         "  '*:: :->rest' && ret=0\n\n"
         "local -a fields=(\n";
  for (const QueryField& field : kQueryFields) {
    std::string name(field.name);
    name.insert(name.size() - 1, "\\");
    out << "  '" << name << ":" << field.description << "'\n";
  }
  out << ")\n\n"
         "case $state in\n"
         "  first)\n"
         "    local -a commands=(";
  for (const TableSubcommand& subcommand : table_subcommands()) {
    out << (subcommand.command == table_subcommands().front().command ? "" : " ") << "'"
        << subcommand.name << ":" << zsh_description(subcommand.summary) << "'";
  }
  out << ")\n"
         "    _describe -t commands 'command' commands && ret=0\n"
         "    _describe -t fields 'query field' fields -S '' && ret=0\n"
         "    ;;\n"
         "  rest)\n";
  for (const TableSubcommand& subcommand : table_subcommands()) {
    const bool first = subcommand.command == table_subcommands().front().command;
    out << (first ? "    if" : "    elif") << " [[ $words[1] == " << subcommand.name
        << " ]]; then\n"
        << "      curcontext=${curcontext%:*:*}:quarry-" << subcommand.name << ":\n"
        << "      _arguments -s -S : \\\n"
           "        '(- *)'{-h,--help}'[print help and exit]' \\\n"
        << zsh_specs(subcommand.command, "        ") << "        && ret=0\n";
  }
  out << "    else\n"
         "      _describe -t fields 'query field' fields -S '' && ret=0\n"
         "    fi\n"
         "    ;;\n"
         "esac\n\n"
         "return ret\n";
}

}  // namespace quarry
