/*
** view.h
** Visibility is data: the manifest's `visibility` list (path + policy)
** turns the full game state into what one seat, or a spectator, may see.
** The REPL, the log shown to a seat and every bot go through view_of.
*/
#ifndef CAIRN_VIEW_H
#define CAIRN_VIEW_H

#include <stdint.h>
#include "error.h"
#include "value.h"

typedef enum {
    VIEW_PUBLIC, /* everyone sees it (the default for every path) */
    VIEW_OWNER,  /* the owning seat sees it; everyone else sees "?" */
    VIEW_HIDDEN, /* nobody sees it: replaced by "?" */
    VIEW_COUNT,  /* a list or map becomes its number of items (a map of
                    integers: their sum); an integer stays; else "?" */
    VIEW_ORDER   /* a list keeps its length, each item "?"; else as hidden */
} view_policy;

typedef struct view_rules view_rules;

/* Parses a manifest's `visibility` list (NULL or absent: everything is
** public). Returns NULL after adding errors (bad path or policy, with the
** rule's file:line) to errs, or on OOM (errs->oom set). Free with
** view_rules_free. */
view_rules *view_rules_new(const value *visibility, cerr_list *errs);
void view_rules_free(view_rules *r); /* NULL-safe */

/* Number of rules parsed. */
size_t view_rules_count(const view_rules *r);

/* 1 when some rule hides something from some seat (a policy other than
** public): a game with secrets, which search bots may not read. */
int view_rules_secret(const view_rules *r);

/* The policy name as written in manifests ("owner"), or NULL. */
const char *view_policy_name(view_policy p);

/* What `seat` (1-based) may see of state; seat 0 is a spectator, who sees
** only what every seat sees (owner-protected parts are hidden). Rules apply
** in manifest order and only ever hide: a rule below an already hidden part
** matches nothing. Returns a new tree the caller frees, or NULL on OOM.
**
** Owner: the first wildcard of the path names the owner: `hands[*]` makes
** hands[i] belong to seat i; `bids.*` makes bids["2"] belong to seat 2 (a
** key that is not a seat number belongs to nobody). A path without a
** wildcard has no owner, so `owner` there hides from everyone. */
value *view_of(const view_rules *r, const value *state, int seat);

/* view_of applying the rules one after another, each on what the ones
** before it left (the definition view_of's one walk must agree with; for
** tests). */
value *view_of_by_rules(const view_rules *r, const value *state, int seat);

/* The seat's view streamed to a sink instead of built as a tree (render's
** argument is pushed into Lua this way, view_lua.c). Each node of the view
** arrives as `whole` (a node and everything below it, as it is in state,
** or a "?" or a count standing in for a hidden part: borrowed for the
** call) or as `open` (a list or map of n children, named by the state's
** node), then for each child k `child`, that child's node(s), `done_child`,
** and at last `close`. A callback returns 0, else the walk stops and
** view_emit returns that. */
typedef struct view_sink {
    void *ud;
    int (*whole)(void *ud, const value *v);
    int (*open)(void *ud, const value *container, size_t n);
    int (*child)(void *ud, const value *container, size_t k);
    int (*done_child)(void *ud, const value *container, size_t k);
    int (*close)(void *ud, const value *container);
} view_sink;

/* 1 when the rules can be applied in one walk (no two rules' paths meet:
** one cannot match a prefix of the other), which view_emit needs. */
int view_one_pass(const view_rules *r);

/* Streams view_of(r, state, seat) to o. -1 when !view_one_pass(r) (then
** nothing was sent), else the first non-zero callback result, or 0. */
int view_emit(const view_rules *r, const value *state, int seat, const view_sink *o);

/* Sets matched[i] to 1 for every rule i whose path reaches at least one
** node of state (matched has view_rules_count(r) entries). A rule that
** never matches hides nothing: `cairn check` reports it. */
void view_rules_mark_matches(const view_rules *r, const value *state, unsigned char *matched);

/* What changed from `before` to `after` in the parts the rules hide, for
** telling which decisions are secret and which revealed something
** (disclosure.c). Every non-public rule is matched in both states at once;
** a matched part present in one and not the other, or different, counts. */
typedef struct view_delta {
    uint32_t owner_changed; /* bit s-1: an `owner` part belonging to seat s changed */
    int unowned_changed;    /* an `owner` part of nobody, or a `hidden` part, changed */
    int pool_changed;       /* a `count` or `order` part (a bag, a deck) changed */
} view_delta;
/* Fills out; 0, or -1 on OOM. */
int view_delta_of(const view_rules *r, const value *before, const value *after, view_delta *out);

/* Bit s-1 set for each seat s that owns a non-empty `owner` part of state
** (not false, 0, "" or an empty list or map): a seat holding a secret. */
uint32_t view_secret_holders(const view_rules *r, const value *state);

/* For tests of non-interference: a copy of state in which everything
** `seat` may not see is changed (strings get a prefix, integers move,
** lists hidden as a whole grow), keeping what the policy reveals (lengths
** under `order` and `count`). view_of(perturbed, seat) must equal
** view_of(state, seat). NULL on OOM. */
value *view_perturb_secrets(const view_rules *r, const value *state, int seat);

#endif
