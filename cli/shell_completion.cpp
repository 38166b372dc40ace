#include "shell_completion.hpp"

#include <vector>

#include "options.hpp"

namespace gpufilter::cli {
namespace {

// The commands that stand where an op does.
const std::vector<std::string> kCommands = {"help", "list", "server", "completion", "man"};

// Option values that name files or folders, by how the option writes them.
bool takes_path(const OptionDoc& doc) {
  return doc.value == "FILE" || doc.value == "LIST" || doc.value == "PATH" || doc.value == "DIR";
}

std::string flags_of(const std::vector<OptionDoc>& docs) {
  std::vector<std::string> flags;
  for (const OptionDoc& doc : docs) {
    flags.push_back("--" + doc.name);
    if (!doc.short_name.empty()) flags.push_back("-" + doc.short_name);
  }
  return join(flags, " ");
}

// `text` inside single quotes in either shell.
std::string single_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A description inside zsh's _arguments brackets: no brackets of its own, no newlines.
std::string zsh_description(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '[') {
      out += '(';
    } else if (c == ']') {
      out += ')';
    } else if (c == '\\' || c == '\n') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string bash_case_for(const Operation& op) {
  const std::vector<OptionDoc> docs = option_docs(&op);
  std::string text = "    " + op.name + ")\n      flags=" + single_quoted(flags_of(docs)) + "\n      case $prev in\n";
  for (const OptionDoc& doc : docs) {
    if (doc.value.empty()) continue;
    std::string names = "--" + doc.name + (doc.short_name.empty() ? "" : "|-" + doc.short_name);
    if (!doc.choices.empty()) {
      text += "        " + names + ") COMPREPLY=($(compgen -W " + single_quoted(join(doc.choices, " ")) +
              " -- \"$cur\")); return ;;\n";
    } else if (doc.value == "DIR") {
      text += "        " + names + ") COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n";
    } else if (takes_path(doc)) {
      text += "        " + names + ") COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n";
    } else {
      text += "        " + names + ") return ;;\n";  // a number or text: nothing to offer
    }
  }
  return text + "      esac ;;\n";
}

std::string zsh_case_for(const Operation& op) {
  std::string text = "    " + op.name + ")\n      _arguments -s \\\n";
  for (const OptionDoc& doc : option_docs(&op)) {
    std::string value;
    if (!doc.value.empty()) {
      std::string action = " ";
      if (!doc.choices.empty()) {
        action = "(" + join(doc.choices, " ") + ")";
      } else if (doc.value == "DIR") {
        action = "_files -/";
      } else if (takes_path(doc)) {
        action = "_files";
      }
      value = ":" + zsh_description(doc.value) + ":" + action;
    }
    const std::string description = "[" + zsh_description(doc.help) + "]";
    if (!doc.short_name.empty())
      text += "        " + single_quoted("(-" + doc.short_name + " --" + doc.name + ")-" + doc.short_name + description + value) + " \\\n";
    text += "        " + single_quoted("--" + doc.name + description + value) + " \\\n";
  }
  return text + "        '*:file:_files' ;;\n";
}

}  // namespace

std::string bash_completion() {
  std::string text =
      "# bash completion for gpufilter, generated from its registry ('gpufilter completion bash').\n"
      "_gpufilter() {\n"
      "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
      "  local ops=" + single_quoted(join(operation_names(), " ")) + "\n"
      "  local commands=" + single_quoted(join(kCommands, " ")) + "\n"
      "  if [[ $COMP_CWORD -eq 1 ]]; then\n"
      "    COMPREPLY=($(compgen -W \"$ops $commands --help --version\" -- \"$cur\")); return\n"
      "  fi\n"
      "  # The op whose options apply: the first word, or the one after the last ':' of a chain.\n"
      "  local op=${COMP_WORDS[1]} i\n"
      "  for ((i = 2; i < COMP_CWORD; i++)); do\n"
      "    [[ ${COMP_WORDS[i]} == : && $((i + 1)) -lt $COMP_CWORD ]] && op=${COMP_WORDS[i+1]}\n"
      "  done\n"
      "  if [[ $prev == : || ($op == help && $COMP_CWORD -eq 2) ]]; then\n"
      "    COMPREPLY=($(compgen -W \"$ops\" -- \"$cur\")); return\n"
      "  fi\n"
      "  if [[ $op == completion && $COMP_CWORD -eq 2 ]]; then\n"
      "    COMPREPLY=($(compgen -W 'bash zsh' -- \"$cur\")); return\n"
      "  fi\n"
      "  local flags=''\n"
      "  case $op in\n";
  for (const Operation& op : operations()) text += bash_case_for(op);
  text +=
      "    *) return ;;\n"
      "  esac\n"
      "  if [[ $cur == -* ]]; then\n"
      "    COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\")); return\n"
      "  fi\n"
      "  COMPREPLY=($(compgen -f -- \"$cur\"))\n"
      "}\n"
      "complete -o filenames -o bashdefault -F _gpufilter gpufilter\n";
  return text;
}

std::string zsh_completion() {
  std::string text =
      "#compdef gpufilter\n"
      "# zsh completion for gpufilter, generated from its registry ('gpufilter completion zsh').\n"
      "_gpufilter() {\n"
      "  local -a ops\n"
      "  ops=(\n";
  for (const Operation& op : operations()) text += "    " + single_quoted(op.name + ":" + op.summary) + "\n";
  text +=
      "  )\n"
      "  if (( CURRENT == 2 )); then\n"
      "    _describe -t ops 'op' ops\n"
      "    compadd " + join(kCommands, " ") + "\n"
      "    return\n"
      "  fi\n"
      "  # The op whose options apply: the first word, or the one after the last ':' of a chain.\n"
      "  local op=${words[2]} i\n"
      "  for (( i = 3; i < CURRENT - 1; i++ )); do\n"
      "    [[ ${words[i]} == : ]] && op=${words[i+1]}\n"
      "  done\n"
      "  if [[ ${words[CURRENT-1]} == : || ( $op == help && CURRENT -eq 3 ) ]]; then\n"
      "    _describe -t ops 'op' ops; return\n"
      "  fi\n"
      "  if [[ $op == completion && CURRENT -eq 3 ]]; then\n"
      "    compadd bash zsh; return\n"
      "  fi\n"
      "  case $op in\n";
  for (const Operation& op : operations()) text += zsh_case_for(op);
  text +=
      "  esac\n"
      "}\n"
      "_gpufilter \"$@\"\n";
  return text;
}

}  // namespace gpufilter::cli
