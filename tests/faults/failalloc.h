/*
** failalloc.h
** The fault build's allocator (failalloc.c): malloc, calloc, realloc, strdup
** and strndup of cairn's own code (linked with -Wl,--wrap=...) and so Lua's,
** which allocates through the sandbox's allocator, fail on purpose at the
** Nth call after failalloc_arm(N). Only the Nth fails: memory "comes back"
** right after. Shrinking reallocs and frees never count or fail.
*/
#ifndef CAIRN_FAILALLOC_H
#define CAIRN_FAILALLOC_H

/* Counts allocations from now on and fails the nth (n >= 1); n = 0 only counts. */
void failalloc_arm(long n);
/* Stops failing; returns how many allocations were made since the arm. */
long failalloc_disarm(void);
/* 1 once the armed allocation has failed. */
int failalloc_fired(void);

/* The call site (return address into cairn's code) of each allocation of
** the last counting arm (n = 0), in order: *n of them. Valid until the next arm. */
void *const *failalloc_sites(long *n);

/* Distinct call sites seen while counting, and those made to fail. */
long failalloc_sites_seen(void);
long failalloc_sites_failed(void);

#endif
