/*
** cli_complete.h
** Shell completion made from the commands' flag tables (cliflags.h): a bash
** script, a zsh script, and the tables as plain lines for tests and tools.
*/
#ifndef CAIRN_CLI_COMPLETE_H
#define CAIRN_CLI_COMPLETE_H

#include <stdio.h>

#include "cliflags.h"

/* `cairn completion bash`: a script defining _cairn for `complete -F`. */
void cli_complete_bash(FILE *out, const cli_command *cmds, size_t n);
/* `cairn completion zsh`: a #compdef script (_arguments specs). */
void cli_complete_zsh(FILE *out, const cli_command *cmds, size_t n);
/* `cairn completion flags`: one line per flag, "COMMAND --flag -f META"
** ("-" for no short form, nothing after it for a switch); a subcommand's
** flags under "sim merge". */
void cli_complete_flags(FILE *out, const cli_command *cmds, size_t n);

#endif
