/*
** sandbox_blocks.h
** The sandbox's small memory blocks kept for reuse (sandbox_blocks.c): for
** sandbox.c's allocator only.
*/
#ifndef CAIRN_SANDBOX_BLOCKS_H
#define CAIRN_SANDBOX_BLOCKS_H

#include <stddef.h>
#include <stdlib.h>

#include "limits.h"

/* Blocks of up to this many bytes are kept, by size class of 16 bytes. */
#define SB_BLOCK_SMALL 256
#define SB_BLOCK_CLASSES (SB_BLOCK_SMALL / 16)

typedef struct sb_blocks {
    void *head[SB_BLOCK_CLASSES]; /* each block's first bytes hold the next */
    size_t kept_bytes;            /* at most CAIRN_LUA_BLOCKS_KEPT */
} sb_blocks;

/* The class of a block of n (1..SB_BLOCK_SMALL) bytes, and the bytes its
** blocks really have. */
static inline size_t sb_block_class(size_t n) { return (n + 15) / 16 - 1; }
static inline size_t sb_block_size(size_t n) { return (sb_block_class(n) + 1) * 16; }
/* Whether blocks of a and b bytes (both 1..SB_BLOCK_SMALL) share a class. */
static inline int sb_block_same_class(size_t a, size_t b) { return sb_block_class(a) == sb_block_class(b); }
/* A kept block for n bytes (1..SB_BLOCK_SMALL), or a new one of
** sb_block_size(n) from malloc; NULL when malloc fails. Inline: the
** allocator runs for every table and string a script makes. */
static inline void *sb_block_take(sb_blocks *b, size_t n) {
    size_t c = sb_block_class(n);
    void *p = b->head[c];
    if (!p) return malloc(sb_block_size(n));
    b->head[c] = *(void **)p;
    b->kept_bytes -= sb_block_size(n);
    return p;
}
/* Gives back p, a block Lua sized n (1..SB_BLOCK_SMALL) bytes: kept for
** reuse, or freed once CAIRN_LUA_BLOCKS_KEPT bytes are kept. */
static inline void sb_block_give(sb_blocks *b, void *p, size_t n) {
    size_t c = sb_block_class(n), size = sb_block_size(n);
    if (b->kept_bytes + size > (size_t)CAIRN_LUA_BLOCKS_KEPT) {
        free(p);
        return;
    }
    *(void **)p = b->head[c];
    b->head[c] = p;
    b->kept_bytes += size;
}
/* Frees every kept block. */
void sb_blocks_free(sb_blocks *b);

#endif
