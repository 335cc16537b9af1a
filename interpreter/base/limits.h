/*
** limits.h
** Every bound cairn enforces, named once. Each may be overridden at build
** time (-DCAIRN_YAML_MAX_DEPTH=128) and is documented in docs/limits.md.
*/
#ifndef CAIRN_LIMITS_H
#define CAIRN_LIMITS_H

/* Largest YAML file cairn reads. Rulesets and saves are far smaller. */
#if !defined(CAIRN_YAML_MAX_FILE_BYTES)
#define CAIRN_YAML_MAX_FILE_BYTES (8L * 1024 * 1024)
#endif

/* Largest text file cairn reads that is not YAML or Lua: a golden
** transcript, a generated file, a sim part (safe_open.h reads with it). */
#if !defined(CAIRN_TEXT_MAX_FILE_BYTES)
#define CAIRN_TEXT_MAX_FILE_BYTES (64L * 1024 * 1024)
#endif

/* Deepest nesting of lists and maps in one YAML document. */
#if !defined(CAIRN_YAML_MAX_DEPTH)
#define CAIRN_YAML_MAX_DEPTH 64
#endif

/* Longest scalar (string) in bytes. */
#if !defined(CAIRN_YAML_MAX_STRING)
#define CAIRN_YAML_MAX_STRING (64L * 1024)
#endif

/* Most nodes one document may expand to, aliases included: what stops a
** "billion laughs" file long before it costs memory (~100 bytes a node). */
#if !defined(CAIRN_YAML_MAX_NODES)
#define CAIRN_YAML_MAX_NODES 250000L
#endif

/* Most errors reported for one file; the rest are counted, not listed. */
#if !defined(CAIRN_MAX_ERRORS)
#define CAIRN_MAX_ERRORS 50
#endif

/* Depth of `extends` chains between rulesets. */
#if !defined(CAIRN_MAX_EXTENDS)
#define CAIRN_MAX_EXTENDS 16
#endif

/* Memory one game's Lua state may use. */
#if !defined(CAIRN_LUA_MEMORY_CAP)
#define CAIRN_LUA_MEMORY_CAP (64L * 1024 * 1024)
#endif

/* Bytes of small freed blocks one sandbox keeps for reuse (sandbox_blocks.c):
** a Lua state's garbage between two collections, reused instead of going
** through malloc and free; not charged to CAIRN_LUA_MEMORY_CAP. */
#if !defined(CAIRN_LUA_BLOCKS_KEPT)
#define CAIRN_LUA_BLOCKS_KEPT (2L * 1024 * 1024)
#endif

/* Nils in the constructor every empty `{}` of a script becomes
** (sandbox_presize.c): a list of up to this many entries fills without a
** rehash. 0 leaves `{}` as written. */
#if !defined(CAIRN_LUA_TABLE_ROOM)
#define CAIRN_LUA_TABLE_ROOM 8
#endif

/* Lua VM instructions one handler call may run (counted in steps of
** CAIRN_LUA_HOOK_STEP). No shipped rule comes within 1% of it. */
#if !defined(CAIRN_LUA_INSTRUCTION_BUDGET)
#define CAIRN_LUA_INSTRUCTION_BUDGET 200000000L
#endif

#if !defined(CAIRN_LUA_HOOK_STEP)
#define CAIRN_LUA_HOOK_STEP 1000
#endif

/* Largest script file `require` or sandbox_run_file reads. */
#if !defined(CAIRN_LUA_MAX_SOURCE_BYTES)
#define CAIRN_LUA_MAX_SOURCE_BYTES (4L * 1024 * 1024)
#endif

/* Largest chunk `load` compiles (a string, or what a reader function
** returns in all). */
#if !defined(CAIRN_LUA_MAX_LOAD_BYTES)
#define CAIRN_LUA_MAX_LOAD_BYTES (1L * 1024 * 1024)
#endif

/* Most terms in one chain of a chunk: fields and indices (`a.b.c`), `and`/
** `or` terms of one expression, `elseif` branches of one `if`. Lua 5.4.4's
** compiler is quadratic in the last two and its error messages recurse once
** per field of the first (sandbox_chunk.c). */
#if !defined(CAIRN_LUA_MAX_CHAIN)
#define CAIRN_LUA_MAX_CHAIN 1000
#endif

/* Longest pattern string.find, match, gmatch and gsub accept, in bytes.
** Their worst case is charged to the instruction budget before they run
** (docs/sandbox.md); this keeps that estimate quick to make. */
#if !defined(CAIRN_LUA_MAX_PATTERN)
#define CAIRN_LUA_MAX_PATTERN 256
#endif

/* The budget's CPU timer: a tick every this many microseconds of CPU time,
** and what no Lua VM beats: a handler call that used fewer ticks than its
** budget allows at this speed cannot have passed it (budget.c). */
#if !defined(CAIRN_BUDGET_TICK_US)
#define CAIRN_BUDGET_TICK_US 5000
#endif
#if !defined(CAIRN_LUA_MIN_NS_PER_INSTRUCTION)
#define CAIRN_LUA_MIN_NS_PER_INSTRUCTION 0.25
#endif

/* CPU time one handler call may take, counted or not, in milliseconds:
** what stops work the instruction budget cannot see (hash collisions, `==`
** of long strings, C loops). Not deterministic, so far above any real
** handler (milliseconds); the environment variable of the same name
** overrides it. */
#if !defined(CAIRN_LUA_CALL_CPU_MS)
#define CAIRN_LUA_CALL_CPU_MS 5000L
#endif

/* CPU time all handler calls of one game may take together, in ms (a long
** sim game takes well under a second); the environment overrides it too. */
#if !defined(CAIRN_LUA_GAME_CPU_MS)
#define CAIRN_LUA_GAME_CPU_MS 120000L
#endif

/* CPU time a rules call may run past CAIRN_LUA_CALL_CPU_MS (or the game's
** total) inside a C function Lua cannot interrupt before cairn ends the
** process with a message: the hard stop (budget.c). Environment override. */
#if !defined(CAIRN_LUA_HARD_STOP_GRACE_MS)
#define CAIRN_LUA_HARD_STOP_GRACE_MS 2000
#endif

/* Bytes of debug output (print, g.debug) one handler call may send to the
** debug channel; a longer line is cut, and past it the rest of the call's
** is dropped with one line saying so (engine_debug_channel.c). */
#if !defined(CAIRN_DEBUG_MAX_BYTES)
#define CAIRN_DEBUG_MAX_BYTES (64L * 1024)
#endif

/* Bytes of string values one plain-data copy out of Lua may hold (the
** state's tree, a view, a score): a string referenced from many places is
** counted at each, as the copy holds it at each (luaval.c). */
#if !defined(CAIRN_PLAIN_MAX_BYTES)
#define CAIRN_PLAIN_MAX_BYTES (64L * 1024 * 1024)
#endif

/* Values (every list, map, scalar and map key) the game state may hold when
** it is copied out of Lua after a decision: each is a node of C trees kept
** per checkpoint, so a state of many small values costs far more in C than
** in Lua (a 240,000-value state changed every decision reached 958 MB). A
** bound of the state's own, below CAIRN_YAML_MAX_NODES (views and other
** documents); the environment variable of the same name overrides it. */
#if !defined(CAIRN_STATE_MAX_NODES)
#define CAIRN_STATE_MAX_NODES 100000L
#endif

/* CPU time the smoke play of one `cairn check` may take, in ms: past it the
** remaining games are not played and check fails (environment overrides). */
#if !defined(CAIRN_CHECK_CPU_MS)
#define CAIRN_CHECK_CPU_MS 600000L
#endif

/* What one game keeps outside its Lua state: event texts (g.log, print)
** and checkpoints; one score's breakdown texts are held to it too. */
#if !defined(CAIRN_GAME_MEMORY_CAP)
#define CAIRN_GAME_MEMORY_CAP (256L * 1024 * 1024)
#endif

/* A checkpoint (the whole state kept as a tree) every this many decisions:
** undo, goto and taking back a failed decision replay at most this many. */
#if !defined(CAIRN_CHECKPOINT_EVERY)
#define CAIRN_CHECKPOINT_EVERY 16
#endif

/* Fast games (sim, forks) check that the state is plain data every this
** many decisions and when the game ends, instead of after each. */
#if !defined(CAIRN_FAST_CHECK_EVERY)
#define CAIRN_FAST_CHECK_EVERY 64
#endif

/* How deep schema application may nest on one instance node ($ref, allOf,
** anyOf, oneOf, not, if/then/else chains) plus instance depth. Load-time
** checks already refuse cycles; this only stops absurdly long chains. */
#if !defined(CAIRN_SCHEMA_MAX_DEPTH)
#define CAIRN_SCHEMA_MAX_DEPTH 512
#endif

/* Deepest nesting of groups `(...)` in a schema pattern; the parser and
** compiler recurse once per level. */
#if !defined(CAIRN_PATTERN_MAX_DEPTH)
#define CAIRN_PATTERN_MAX_DEPTH 32
#endif

/* Largest compiled schema pattern, in matcher steps (roughly one per
** character, class or assertion, with counted repetitions written out:
** `[0-9a-f]{64}` is 64). Matching costs the subject's length times this at
** worst, so it also bounds the time one `pattern` can take. */
#if !defined(CAIRN_PATTERN_MAX_PROGRAM)
#define CAIRN_PATTERN_MAX_PROGRAM 4000
#endif


/* Most seats one game may have: events keep their audience in 32 bits, and
** the manifest schema allows players.max up to 16. The engine, the search
** tree, the sim and `--players` all use this one. */
#if !defined(CAIRN_MAX_SEATS)
#define CAIRN_MAX_SEATS 16
#endif

/* The compiled-chunk store keeps at most this many chunks and bytes (texts
** and bytecode); past either the oldest are dropped. A REPL editing its rules
** for hours makes a new text per edit; a ruleset's own files fit many times
** over. */
#if !defined(CAIRN_CHUNK_STORE_MAX_CHUNKS)
#define CAIRN_CHUNK_STORE_MAX_CHUNKS 512
#endif
#if !defined(CAIRN_CHUNK_STORE_MAX_BYTES)
#define CAIRN_CHUNK_STORE_MAX_BYTES (32u << 20)
#endif

/* ------------------------------------------------ tests and smoke play */

/* Most decisions one smoke or golden game may take before it is called
** stuck (a ruleset whose game never ends). */
#if !defined(CAIRN_TEST_MAX_DECISIONS)
#define CAIRN_TEST_MAX_DECISIONS 10000
#endif

/* Most option combinations smoke-played; beyond it the first ones (in
** manifest order) are played and the rest counted as skipped. */
#if !defined(CAIRN_SMOKE_MAX_COMBINATIONS)
#define CAIRN_SMOKE_MAX_COMBINATIONS 64
#endif

/* Default number of smoke games per seat count and option combination. */
/* The forward-model self-test of smoke play: every this many decisions each
** enabled option is applied to a fork of the position (the game itself must
** not move) and undo/redo must give it back; at the end the log is replayed
** in a new process (strict) and played again fast (the same hashes). */
#if !defined(CAIRN_SMOKE_FORK_EVERY)
#define CAIRN_SMOKE_FORK_EVERY 7
#endif
/* ... at this many positions of the first game (seed 1, the first option
** combination) of each seat count: the forks cost what every option's apply costs. */
#if !defined(CAIRN_SMOKE_FORK_POSITIONS)
#define CAIRN_SMOKE_FORK_POSITIONS 4
#endif

#if !defined(CAIRN_SMOKE_GAMES)
#define CAIRN_SMOKE_GAMES 3
#endif

/* ---------------------------------------------------------------- bots */

/* Defaults of the search bots, and the bounds of their parameters. */
#if !defined(CAIRN_BOT_ITERATIONS)
#define CAIRN_BOT_ITERATIONS 1000 /* mcts and ismcts without a budget */
#endif
#if !defined(CAIRN_BOT_MAX_ITERATIONS)
#define CAIRN_BOT_MAX_ITERATIONS 10000000L
#endif
#if !defined(CAIRN_BOT_MAX_TIME)
#define CAIRN_BOT_MAX_TIME 3600.0 /* seconds per decision */
#endif
#if !defined(CAIRN_BOT_DEPTH)
#define CAIRN_BOT_DEPTH 10 /* rollout decisions before the heuristic scores (0: to the end) */
#endif
#if !defined(CAIRN_BOT_UCT_C)
#define CAIRN_BOT_UCT_C 1.4 /* UCT's exploration constant, rewards in [0, 1] */
#endif
#if !defined(CAIRN_BOT_HSCALE)
#define CAIRN_BOT_HSCALE 10.0 /* heuristic points that make a clear lead at a cut-off */
#endif
#if !defined(CAIRN_BOT_SEARCHES)
#define CAIRN_BOT_SEARCHES 4 /* searches an mcts iteration budget is split into (root parallel), merged in order */
#endif
#if !defined(CAIRN_BOT_MAX_SEARCHES)
#define CAIRN_BOT_MAX_SEARCHES 64 /* the most `searches=` may ask for */
#endif
#if !defined(CAIRN_BOT_MAX_CORES)
#define CAIRN_BOT_MAX_CORES 256 /* the most processes one search bot's decision runs on */
#endif
#if !defined(CAIRN_BOT_PARALLEL_MIN_MS)
#define CAIRN_BOT_PARALLEL_MIN_MS 100 /* an iteration budget expected to cost less CPU runs in one process */
#endif
#if !defined(CAIRN_BOT_CHECKED_SAMPLES)
#define CAIRN_BOT_CHECKED_SAMPLES 32 /* samples of one bot decision checked against the view, shared by its searches (all with checks on) */
#endif
#if !defined(CAIRN_BOT_MAX_POOL)
#define CAIRN_BOT_MAX_POOL 256 /* the most sampled states `pool=` keeps per search (each a copy of the state) */
#endif
#if !defined(CAIRN_BOT_SAMPLES)
#define CAIRN_BOT_SAMPLES 4 /* greedy's sampled states per option in a game with secrets */
#endif


/* -------------------------------------------------------------- the sim */

/* Most games one run may play. */
#if !defined(CAIRN_SIM_MAX_GAMES)
#define CAIRN_SIM_MAX_GAMES 1000000L
#endif

/* Games played when --games is not given. */
#if !defined(CAIRN_SIM_GAMES)
#define CAIRN_SIM_GAMES 100
#endif

/* Failed games listed by name (the rest are counted). */
#if !defined(CAIRN_SIM_KEEP_FAILS)
#define CAIRN_SIM_KEEP_FAILS 10
#endif

/* Seeds of games where --find held kept for the JSON (the text shows 20). */
#if !defined(CAIRN_SIM_KEEP_FOUND)
#define CAIRN_SIM_KEEP_FOUND 1000
#endif

/* Most --set overrides one run or one --compare variant takes. */
#if !defined(CAIRN_SIM_MAX_SETS)
#define CAIRN_SIM_MAX_SETS 32
#endif

/* Most variants one run plays: --compare's two, --sweep's values. */
#if !defined(CAIRN_SIM_MAX_VARIANTS)
#define CAIRN_SIM_MAX_VARIANTS 8
#endif

/* Most bots one --tournament rates (--skill: its levels and the field). */
#if !defined(CAIRN_SIM_MAX_BOTS)
#define CAIRN_SIM_MAX_BOTS 16
#endif

/* Most points one game's --trajectory records (rounds, or every N
** decisions); the rest of a longer game is not followed. */
#if !defined(CAIRN_SIM_MAX_POINTS)
#define CAIRN_SIM_MAX_POINTS 500
#endif

/* Most seatings (bots over seats, in every order) one --tournament plays:
** 7 bots over 4 seats make 840, 8 over 4 make 1680. */
#if !defined(CAIRN_SIM_MAX_SEATINGS)
#define CAIRN_SIM_MAX_SEATINGS 5040
#endif

/* ------------------------------------------------------------ the console */

/* Most decisions one `run` (or one automatic bot turn) makes before it
** stops to let the user look: a game whose bots never finish cannot hang
** the console. */
#if !defined(CAIRN_REPL_MAX_BOT_RUN)
#define CAIRN_REPL_MAX_BOT_RUN 100000
#endif

/* Most columns a long option list is laid in on a short screen (as many as
** the terminal's width holds, up to this). */
#if !defined(CAIRN_REPL_MAX_OPTION_COLUMNS)
#define CAIRN_REPL_MAX_OPTION_COLUMNS 8
#endif

/* Most files of a ruleset snapshotted for reload reports, and the largest. */
#if !defined(CAIRN_REPL_MAX_FILES)
#define CAIRN_REPL_MAX_FILES 2000
#endif
#if !defined(CAIRN_REPL_MAX_FILE_BYTES)
#define CAIRN_REPL_MAX_FILE_BYTES (8L * 1024 * 1024)
#endif

/* States sampled through the ruleset's determinize to find which numbers
** of a mid-game `score` the viewing seat may not know: a number that is
** not the same in every sample (and the real game) is shown as "?". */
#if !defined(CAIRN_REPL_SCORE_SAMPLES)
#define CAIRN_REPL_SCORE_SAMPLES 8
#endif

/* Hard stops one console session survives (repl_hard_stop.c): each leaves
** the stopped game aside, never freed (its Lua state, at most
** CAIRN_LUA_MEMORY_CAP, may be in the middle of a C function), and makes
** the game again from its log; past this many the next one ends cairn as
** without a console (the message, status 1), so the memory kept aside stays
** bounded. The environment variable of the same name may lower it. */
#if !defined(CAIRN_REPL_HARD_STOPS_KEPT)
#define CAIRN_REPL_HARD_STOPS_KEPT 4
#endif

/* A bot's last choices whose reasons the console keeps for `why` (each
** told once its choice is public: the newest of them that is). */
#if !defined(CAIRN_REPL_WHY_KEPT)
#define CAIRN_REPL_WHY_KEPT 16
#endif

/* The seat protocol (docs/protocol.md) and outside agents (`--bot
** SEAT=exec:COMMAND`, docs/bots.md): the longest line a seat may send
** (an answer; a longer one is refused unread), the wall time an agent
** has per decision (the environment variable CAIRN_EXEC_DECISION_MS or the
** spec's `timeout=` override it), and how long an agent that is told the
** game is over may take to leave before it is killed. */
#if !defined(CAIRN_SEAT_PROTOCOL_MAX_LINE)
#define CAIRN_SEAT_PROTOCOL_MAX_LINE 65536
#endif
#if !defined(CAIRN_EXEC_DECISION_MS)
#define CAIRN_EXEC_DECISION_MS 10000L
#endif
#if !defined(CAIRN_EXEC_EXIT_GRACE_MS)
#define CAIRN_EXEC_EXIT_GRACE_MS 500L
#endif

/* ------------------------------------------------------------ cairn serve */

/* Most connections the seat server holds at once (each has its own thread
** while open); one more is closed at once. A thousand opened and dropped
** leave the game as it was (tests/serve). */
#if !defined(CAIRN_SERVE_MAX_CONNECTIONS)
#define CAIRN_SERVE_MAX_CONNECTIONS 64
#endif

/* Largest request body (an answer: {"answer":"ID"} or {"text":"..."}); a
** longer one is answered 413 without being read further. */
#if !defined(CAIRN_SERVE_MAX_BODY)
#define CAIRN_SERVE_MAX_BODY 4096
#endif

/* Requests per second each seat token may make (a burst of
** CAIRN_SERVE_RATE_BURST is allowed at once); past it, 429. Requests with
** no valid token share one such budget, so guessing tokens is slow too. */
#if !defined(CAIRN_SERVE_RATE_PER_SECOND)
#define CAIRN_SERVE_RATE_PER_SECOND 20
#endif
#if !defined(CAIRN_SERVE_RATE_BURST)
#define CAIRN_SERVE_RATE_BURST 40
#endif

/* Requests one connection may make (keep-alive) before it is closed. */
#if !defined(CAIRN_SERVE_MAX_REQUESTS_PER_CONNECTION)
#define CAIRN_SERVE_MAX_REQUESTS_PER_CONNECTION 200
#endif

/* Seconds a connection may stay silent before it is closed (a slow client
** cannot hold a slot); an event stream is kept alive by a comment line every
** CAIRN_SERVE_KEEPALIVE_SECONDS. */
#if !defined(CAIRN_SERVE_IDLE_SECONDS)
#define CAIRN_SERVE_IDLE_SECONDS 30
#endif
#if !defined(CAIRN_SERVE_KEEPALIVE_SECONDS)
#define CAIRN_SERVE_KEEPALIVE_SECONDS 15
#endif

/* Milliseconds a request waits for the console's thread to answer it (a bot
** thinking, a command running); past it, 503 and the page retries. */
#if !defined(CAIRN_SERVE_REPLY_WAIT_MS)
#define CAIRN_SERVE_REPLY_WAIT_MS 10000
#endif

/* Most requests waiting for the console's thread at once; past it, 503. */
#if !defined(CAIRN_SERVE_MAX_QUEUED)
#define CAIRN_SERVE_MAX_QUEUED 64
#endif

/* Largest state message one seat is sent (board, view, news, question);
** a larger one is replaced by an error message. */
#if !defined(CAIRN_SERVE_MAX_STATE_BYTES)
#define CAIRN_SERVE_MAX_STATE_BYTES (4L * 1024 * 1024)
#endif

/* The widths a page may ask its board drawn at (`/state?cols=N`, the
** columns of its board's box: g.width for the rules' render); a narrower
** ask is drawn at the least, a wider one at the most. */
#if !defined(CAIRN_SERVE_MIN_COLS)
#define CAIRN_SERVE_MIN_COLS 30
#endif
#if !defined(CAIRN_SERVE_MAX_COLS)
#define CAIRN_SERVE_MAX_COLS 240
#endif

/* News items a page is sent with each state: the newest ones. */
#if !defined(CAIRN_SERVE_NEWS_KEPT)
#define CAIRN_SERVE_NEWS_KEPT 40
#endif

#endif
