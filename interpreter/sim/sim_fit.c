/*
** sim_fit.c
** `cairn sim`'s text report fitted to the terminal: the width it is printed
** at (the terminal's, else $COLUMNS on a terminal that does not say; none when
** the output is no terminal, so that a report written to a file or a pipe,
** which scripts and the docs read, keeps its lines as they are), and the report's lines that are still too wide (the notes, the
** histogram, the CPU line) wrapped with their continuation indented. The
** seat tables split themselves into blocks of seats (sim_report.c).
*/
#include "sim_internal.h"

#include "markup.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int sim_text_width(void) { return isatty(STDOUT_FILENO) ? markup_term_width(STDOUT_FILENO) : 0; }

void sim_print_fitted(FILE *out, const char *text, int width) {
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char *line = strndup(p, len);
        size_t lead = 0;
        while (line && line[lead] == ' ') lead++;
        char *w = line && width > 0 && markup_width(line, len) > (size_t)width
                      ? markup_wrap(line, width, (int)lead + 2)
                      : NULL;
        if (w) fputs(w, out);
        else if (line) fputs(line, out);
        else fwrite(p, 1, len, out); /* out of memory: as it was */
        if (nl) fputc('\n', out);
        free(w);
        free(line);
        if (!nl) break;
        p = nl + 1;
    }
}
