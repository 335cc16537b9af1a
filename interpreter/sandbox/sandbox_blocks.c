/*
** sandbox_blocks.c
** The sandbox's small memory blocks kept for reuse. A game's Lua makes and
** drops small tables and strings all the time (a decision's options, a
** label, a list of stones); each went through malloc and free, about a
** tenth of a search bot's time in Yak. The allocator (sandbox.c) keeps
** blocks of up to SB_BLOCK_SMALL bytes by size class of 16 bytes, each
** class a list threaded through its blocks, and hands them out again, so a
** ruleset needs no tables of its own kept and refilled for speed (docs/
** sandbox.md, "Memory"); taking and giving are inline, in the header. Every
** block comes from malloc with its class's size, so any block may be freed,
** and a kept block serves any size of its class. What is kept is not charged to the state's memory cap; at most
** CAIRN_LUA_BLOCKS_KEPT bytes a sandbox are kept, the rest freed.
** Nothing here changes what a script sees: allocation order and addresses
** never reach the rules (pairs and # answer from contents, sandbox_tables.c,
** sandbox_len.c).
*/
#include "sandbox_blocks.h"

#include <stdlib.h>

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
