/*
** sandbox_blocks.h
** The sandbox's small memory blocks kept for reuse (sandbox_blocks.c): for
** sandbox.c's allocator only.
*/
#ifndef CAIRN_SANDBOX_BLOCKS_H
#define CAIRN_SANDBOX_BLOCKS_H

#include <stddef.h>

#include "limits.h"

/* Blocks of up to this many bytes are kept, by size class of 16 bytes. */
#define SB_BLOCK_SMALL 256
#define SB_BLOCK_CLASSES (SB_BLOCK_SMALL / 16)

typedef struct sb_blocks {
    void *head[SB_BLOCK_CLASSES]; /* each block's first bytes hold the next */
    size_t kept_bytes;            /* at most CAIRN_LUA_BLOCKS_KEPT */
} sb_blocks;

/* The bytes a block of n (1..SB_BLOCK_SMALL) bytes really has: its class's. */
size_t sb_block_size(size_t n);
/* Whether blocks of a and b bytes (both 1..SB_BLOCK_SMALL) share a class. */
int sb_block_same_class(size_t a, size_t b);
/* A kept block for n bytes (1..SB_BLOCK_SMALL), or a new one of
** sb_block_size(n) from malloc; NULL when malloc fails. */
void *sb_block_take(sb_blocks *b, size_t n);
/* Gives back p, a block Lua sized n (1..SB_BLOCK_SMALL) bytes: kept for
** reuse, or freed once CAIRN_LUA_BLOCKS_KEPT bytes are kept. */
void sb_block_give(sb_blocks *b, void *p, size_t n);
/* Frees every kept block. */
void sb_blocks_free(sb_blocks *b);

#endif
