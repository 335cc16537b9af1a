/*
** help_wrap.h
** A command's --help text (usage lines, option rows, prose) fitted to the
** terminal's width: a line too wide is broken at a space and its left-over
** words go on to the line that continues it, at its hanging indent (an option
** row's description column, the usage's arguments). Lines that fit stay.
*/
#ifndef CAIRN_HELP_WRAP_H
#define CAIRN_HELP_WRAP_H

/* text fitted to width columns (width <= 0: unchanged). Malloc'd; NULL on
** OOM. */
char *help_wrap(const char *text, int width);

#endif
