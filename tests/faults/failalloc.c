/*
** failalloc.c
** The allocator of the fault build (make faults): every allocation cairn's
** code makes goes through these wrappers (the link maps malloc to
** __wrap_malloc and so on for the objects of libcairn.a and the driver),
** which count them and fail the one chosen by failalloc_arm. libyaml's and
** libc's internal allocations are not wrapped: they are not cairn's code.
*/
#include "failalloc.h"

#include <errno.h>
#include <execinfo.h>
#include <stdint.h>
#include <stdlib.h>
#include <malloc.h>
#include <stddef.h>
#include <string.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);

/* Global on purpose: the wrappers are called from everywhere, with no
** context to carry state; the fault driver is single-threaded. */
static long target; /* the allocation to fail, counted from the arm; 0: none */
static long seen;   /* allocations since the arm */
static int armed, fired;
static void **rec;  /* counting arm: the site of each allocation */
static long rec_cap;

/* Distinct sites: an open-addressing set of return addresses. */
#define SITE_SLOTS 65536
static void *seen_sites[SITE_SLOTS], *failed_sites[SITE_SLOTS];
static long n_seen_sites, n_failed_sites;

static void site_add(void **set, long *count, void *site) {
    size_t h = ((size_t)site >> 2) * 2654435761u % SITE_SLOTS;
    for (size_t i = 0; i < SITE_SLOTS; i++, h = (h + 1) % SITE_SLOTS) {
        if (set[h] == site) return;
        if (!set[h]) {
            set[h] = site;
            (*count)++;
            return;
        }
    }
}

void failalloc_arm(long n) {
    target = n;
    seen = 0;
    fired = 0;
    armed = 1;
}

void *const *failalloc_sites(long *n) {
    *n = seen < rec_cap ? seen : rec_cap;
    return (void *const *)rec;
}

long failalloc_sites_seen(void) { return n_seen_sites; }
long failalloc_sites_failed(void) { return n_failed_sites; }

long failalloc_disarm(void) {
    armed = 0;
    return seen;
}

int failalloc_fired(void) { return fired; }

/* ASan's, when the build has it: FAULTS_BT=1 prints where the failure is. */
void __sanitizer_print_stack_trace(void) __attribute__((weak));

/* A call site: the allocation's caller and its caller (value_str called
** from the save writer is not value_str called from the loader). */
__attribute__((noinline)) static void *site_of(void *in_wrapper) {
    void *frames[10] = {0};
    int n = backtrace(frames, 10);
    int i = 0; /* the wrapper's frame: the caller follows it */
    while (i < n && frames[i] != in_wrapper) i++;
    uintptr_t a = i + 1 < n ? (uintptr_t)frames[i + 1] : 0, b = i + 2 < n ? (uintptr_t)frames[i + 2] : 0;
    return (void *)(a ^ (b * 0x9E3779B97F4A7C15u));
}

/* 1 when this allocation is the one to fail. */
__attribute__((noinline)) static int fail_now(void) {
    if (!armed) return 0;
    void *site = target == 0 || seen + 1 == target ? site_of(__builtin_return_address(0)) : NULL;
    seen++;
    if (target == 0) {
        site_add(seen_sites, &n_seen_sites, site);
        if (seen > rec_cap) {
            long cap = rec_cap ? rec_cap * 2 : 65536;
            void **nr = __real_realloc(rec, (size_t)cap * sizeof *nr);
            if (!nr) return 0; /* the record is short; the run goes on */
            rec = nr;
            rec_cap = cap;
        }
        rec[seen - 1] = site;
        return 0;
    }
    if (seen == target) {
        site_add(failed_sites, &n_failed_sites, site);
        fired = 1;
        if (__sanitizer_print_stack_trace && getenv("FAULTS_BT")) __sanitizer_print_stack_trace();
        errno = ENOMEM;
        return 1;
    }
    return 0;
}

void *__wrap_malloc(size_t n) { return fail_now() ? NULL : __real_malloc(n); }

void *__wrap_calloc(size_t n, size_t size) { return fail_now() ? NULL : __real_calloc(n, size); }

void *__wrap_realloc(void *p, size_t n) {
    /* a free, or a shrink (which no real allocator fails): not a site */
    if (n == 0 || (p && n <= malloc_usable_size(p))) return __real_realloc(p, n);
    return fail_now() ? NULL : __real_realloc(p, n);
}

char *__wrap_strdup(const char *s) { return fail_now() ? NULL : __real_strdup(s); }

char *__wrap_strndup(const char *s, size_t n) { return fail_now() ? NULL : __real_strndup(s, n); }
