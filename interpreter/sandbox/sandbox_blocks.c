/*
** sandbox_blocks.c
** The sandbox's small memory blocks kept for reuse. A game's Lua makes and
** drops small tables and strings all the time (a decision's options, a
** label, a list of stones); each went through malloc and free, about a
** tenth of a search bot's time in Yak. The allocator (sandbox.c) keeps
** blocks of up to SB_BLOCK_SMALL bytes by size class of 16 bytes, each
** class a list threaded through its blocks, and hands them out again, so a
** ruleset needs no tables of its own kept and refilled for speed (docs/
** sandbox.md, "Memory"). Every block comes from malloc with its class's
** size, so any block may be freed, and a kept block serves any size of its
** class. What is kept is not charged to the state's memory cap; at most
** CAIRN_LUA_BLOCKS_KEPT bytes a sandbox are kept, the rest freed.
** Nothing here changes what a script sees: allocation order and addresses
** never reach the rules (pairs and # answer from contents, sandbox_tables.c,
** sandbox_len.c).
*/
#include "sandbox_blocks.h"

#include <stdlib.h>

static size_t class_of(size_t n) { return (n + 15) / 16 - 1; }

size_t sb_block_size(size_t n) { return (class_of(n) + 1) * 16; }

int sb_block_same_class(size_t a, size_t b) { return class_of(a) == class_of(b); }

void *sb_block_take(sb_blocks *b, size_t n) {
    size_t c = class_of(n);
    void *p = b->head[c];
    if (!p) return malloc(sb_block_size(n));
    b->head[c] = *(void **)p;
    b->kept_bytes -= sb_block_size(n);
    return p;
}

void sb_block_give(sb_blocks *b, void *p, size_t n) {
    size_t size = sb_block_size(n);
    if (b->kept_bytes + size > (size_t)CAIRN_LUA_BLOCKS_KEPT) {
        free(p);
        return;
    }
    size_t c = class_of(n);
    *(void **)p = b->head[c];
    b->head[c] = p;
    b->kept_bytes += size;
}

void sb_blocks_free(sb_blocks *b) {
    for (size_t c = 0; c < SB_BLOCK_CLASSES; c++) {
        while (b->head[c]) {
            void *next = *(void **)b->head[c];
            free(b->head[c]);
            b->head[c] = next;
        }
    }
    b->kept_bytes = 0;
}
