/*
** grow.h
** The one way cairn grows an array (as Lua's luaM_growvector is Lua's):
** capacity doubled until it holds what is needed, the byte count checked
** for overflow, nothing changed when memory runs out.
*/
#ifndef CAIRN_GROW_H
#define CAIRN_GROW_H

#include <stddef.h>

/* Makes room for at least `need` items of `size` bytes in the array *items
** of capacity *cap (items may be NULL with *cap 0): when need > *cap, the
** capacity doubles (from 4 when it was 0, as Lua's MINSIZEARRAY) until it
** holds need, and *items
** is reallocated. 0 on success; -1 when memory runs out or the size would
** overflow, with *items and *cap unchanged (still owned by the caller). */
int grow_array(void **items, size_t *cap, size_t need, size_t size);

/* grow_array for a typed array `arr` and its size_t capacity `cap`:
** if (GROW(t->items, t->cap, t->n + 1) != 0) return -1; */
#define GROW(arr, cap, need) grow_array((void **)&(arr), &(cap), (need), sizeof *(arr))

#endif
