/*
** bot_exec.c
** The `exec:COMMAND` bot: an outside program plays a seat through the seat
** protocol (seat_protocol.h, docs/protocol.md) on its stdin and stdout.
** The program is started once per game and seat (fork and execvp, no
** shell: the command is split into words here, so that nothing in it is
** ever read by a shell), is sent the seat's state each time the seat must
** decide, and has CAIRN_EXEC_DECISION_MS (or the spec's timeout=) of wall
** time to answer one line. A refused answer, a crash or a timeout is told
** (bot_hooks.notice, else stderr) with the seat and the decision, and the
** fallback bot decides: for that decision after a refused answer, for the
** rest of the game after a crash or a timeout (the program is ended). At a
** game's end the program is sent the final state, its stdin is closed, and
** it is killed if it has not left within CAIRN_EXEC_EXIT_GRACE_MS; it is
** always waited for, so no zombie is left. Writes to it never raise
** SIGPIPE in cairn (the signal is blocked around them). docs/bots.md.
*/
#include "bot_internal.h"

#include "limits_env.h"
#include "seat_protocol.h"

#include <errno.h>
#include <json.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* One running program: the agent of one seat in one game. */
typedef struct agent {
    pid_t pid;          /* 0: none running */
    int to, from;       /* its stdin (we write) and stdout (we read) */
    char *buf;          /* read ahead of the current line */
    size_t n, cap;
    const engine *game; /* the game it was started for */
    uint64_t seed;
    size_t news_since;  /* the news it was sent up to */
    int failed;         /* it failed in this game: the fallback plays the rest */
    char **queue;       /* the rest of a text answer that named several decisions */
    size_t nq, next_q;
    size_t queue_at;    /* the position the next queued id answers at */
} agent;

struct bot_exec {
    char *command;   /* as given, for messages */
    char **argv;     /* the command's words, NULL-terminated */
    long timeout_ms; /* per decision */
    char *fallback;  /* the fallback's spec; NULL: greedy where it may play, else random */
    int no_fallback; /* fallback=none: a failure is the bot's error */
    bot *fb;         /* the fallback, made on first use */
    bot *fb_random;  /* the default's second choice */
    agent agents[CAIRN_MAX_SEATS + 1];
};

/* ------------------------------------------------------------ parsing */

/* The command split into words: blanks separate them; '...' keeps
** everything, "..." everything but \" and \\, a backslash outside quotes
** keeps the next byte. NULL after appending an error. */
static char **split_words(const char *spec, const char *cmd, size_t len, cerr_list *errs) {
    char **argv = calloc(len / 2 + 2, sizeof *argv);
    char *word = malloc(len + 1);
    size_t n = 0;
    if (!argv || !word) goto oom;
    size_t i = 0;
    while (i < len) {
        while (i < len && (cmd[i] == ' ' || cmd[i] == '\t')) i++;
        if (i == len) break;
        size_t w = 0;
        char quote = 0;
        for (; i < len; i++) {
            char c = cmd[i];
            if (quote) {
                if (c == quote) quote = 0;
                else if (quote == '"' && c == '\\' && i + 1 < len && (cmd[i + 1] == '"' || cmd[i + 1] == '\\'))
                    word[w++] = cmd[++i];
                else word[w++] = c;
            } else if (c == ' ' || c == '\t') break;
            else if (c == '\'' || c == '"') quote = c;
            else if (c == '\\' && i + 1 < len) word[w++] = cmd[++i];
            else word[w++] = c;
        }
        if (quote) {
            char q[2] = {quote, '\0'};
            cerr_addk(errs, NULL, 0, 0, NULL, "bot.exec_unclosed", "bot %s: the command has an unclosed %s", spec, q);
            goto fail;
        }
        if (!(argv[n] = strndup(word, w))) goto oom;
        n++;
    }
    free(word);
    if (n == 0) {
        cerr_addk(errs, NULL, 0, 0, NULL, "bot.exec_no_command", "bot %s: exec: takes a command (exec:./my_agent.py)", spec);
        free(argv);
        return NULL;
    }
    return argv;
oom:
    errs->oom = 1;
fail:
    for (size_t k = 0; argv && k < n; k++) free(argv[k]);
    free(argv);
    free(word);
    return NULL;
}

/* Where the command ends: at the first ",timeout=" or ",fallback=". */
static size_t command_length(const char *rest) {
    for (const char *p = rest; (p = strchr(p, ',')) != NULL; p++)
        if (!strncmp(p + 1, "timeout=", 8) || !strncmp(p + 1, "fallback=", 9)) return (size_t)(p - rest);
    return strlen(rest);
}

static int set_exec_param(bot_exec *x, const char *spec, const char *item, cerr_list *errs) {
    const char *eq = strchr(item, '=');
    if (!strncmp(item, "timeout=", 8)) {
        char *end;
        errno = 0;
        double s = strtod(eq + 1, &end);
        if (!eq[1] || *end || errno || !(s > 0) || s > CAIRN_BOT_MAX_TIME) {
            char most[32];
            snprintf(most, sizeof most, "%g", CAIRN_BOT_MAX_TIME);
            cerr_addk(errs, NULL, 0, 0, NULL, "bot.exec_timeout",
                      "bot %s: timeout takes seconds above 0 and up to %s, got \"%s\"", spec, most, eq + 1);
            return -1;
        }
        x->timeout_ms = (long)(s * 1000.0 + 0.5);
        if (x->timeout_ms < 1) x->timeout_ms = 1;
        return 0;
    }
    const char *fb = eq + 1;
    if (!strcmp(fb, "none")) {
        x->no_fallback = 1;
        return 0;
    }
    if (!strncmp(fb, "exec:", 5)) {
        cerr_addk(errs, NULL, 0, 0, NULL, "bot.exec_fallback",
                  "bot %s: the fallback is one of cairn's bots, not another program", spec);
        return -1;
    }
    if (bot_spec_valid(fb, errs) != 0) return -1;
    free(x->fallback);
    if (!(x->fallback = cairn_strdup(fb))) {
        errs->oom = 1;
        return -1;
    }
    return 0;
}

bot_exec *bot_exec_parse(const char *spec, const char *rest, cerr_list *errs) {
    bot_exec *x = calloc(1, sizeof *x);
    if (!x) {
        errs->oom = 1;
        return NULL;
    }
    x->timeout_ms = limits_env_ms("CAIRN_EXEC_DECISION_MS", CAIRN_EXEC_DECISION_MS);
    for (int s = 0; s <= CAIRN_MAX_SEATS; s++) x->agents[s].to = x->agents[s].from = -1;
    size_t len = command_length(rest);
    if (!(x->command = strndup(rest, len))) {
        errs->oom = 1;
        bot_exec_free(x);
        return NULL;
    }
    if (!(x->argv = split_words(spec, rest, len, errs))) {
        bot_exec_free(x);
        return NULL;
    }
    for (const char *p = rest[len] ? rest + len + 1 : NULL; p && *p;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        char *item = strndup(p, n);
        if (!item) {
            errs->oom = 1;
            bot_exec_free(x);
            return NULL;
        }
        int bad = 0;
        if (!strchr(item, '=') || (strncmp(item, "timeout=", 8) && strncmp(item, "fallback=", 9))) {
            cerr_addk(errs, NULL, 0, 0, NULL, "bot.exec_param",
                      "bot %s: exec takes timeout=SECONDS and fallback=KIND after the command, not \"%s\"", spec, item);
            bad = 1;
        } else {
            bad = set_exec_param(x, spec, item, errs) != 0;
        }
        free(item);
        if (bad) {
            bot_exec_free(x);
            return NULL;
        }
        p = comma ? comma + 1 : NULL;
    }
    return x;
}

/* ------------------------------------------------------------ processes */

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static void describe_status(int status, char *out, size_t n) {
    if (WIFEXITED(status)) snprintf(out, n, "it exited with status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status)) snprintf(out, n, "it was killed by signal %d", WTERMSIG(status));
    else snprintf(out, n, "it stopped");
}

/* Ends a's program: its stdin closed, up to grace_ms to leave, then killed
** (its whole process group); always waited for. When status is not NULL it
** says how the program ended. */
static void agent_stop(agent *a, long grace_ms, char *status, size_t n) {
    if (status && n) snprintf(status, n, "it was ended");
    if (a->to >= 0) close(a->to);
    a->to = -1;
    if (a->pid > 0) {
        int st = 0;
        pid_t r = 0;
        int64_t end = now_ms() + grace_ms;
        while ((r = waitpid(a->pid, &st, WNOHANG)) == 0 && now_ms() < end) sleep_ms(2);
        if (r == 0) {
            kill(-a->pid, SIGKILL); /* its group: what it started too */
            kill(a->pid, SIGKILL);
            while ((r = waitpid(a->pid, &st, 0)) < 0 && errno == EINTR) {
            }
            if (status && n && r == a->pid) snprintf(status, n, "it did not leave and was killed");
        } else if (r == a->pid) {
            kill(-a->pid, SIGKILL); /* anything it left running in its group */
            if (status && n) describe_status(st, status, n);
        }
    }
    if (a->from >= 0) close(a->from);
    a->from = -1;
    a->pid = 0;
    free(a->buf);
    a->buf = NULL;
    a->n = a->cap = 0;
}

static void queue_clear(agent *a) {
    for (size_t i = a->next_q; i < a->nq; i++) free(a->queue[i]);
    free(a->queue);
    a->queue = NULL;
    a->nq = a->next_q = 0;
}

/* Forgets the game a was playing (the program must be stopped first). */
static void agent_reset(agent *a) {
    queue_clear(a);
    a->game = NULL;
    a->seed = 0;
    a->news_since = 0;
    a->failed = 0;
}

static int cloexec_pipe(int fd[2]) {
    if (pipe(fd) != 0) return -1;
    fcntl(fd[0], F_SETFD, FD_CLOEXEC);
    fcntl(fd[1], F_SETFD, FD_CLOEXEC);
    return 0;
}

/* Starts x's program for seat. 0, or -1 with why. */
static int agent_start(bot_exec *x, agent *a, int seat, char *why, size_t n) {
    int in[2], out[2];
    if (cloexec_pipe(in) != 0) return snprintf(why, n, "no pipe: %s", strerror(errno)), -1;
    if (cloexec_pipe(out) != 0) {
        close(in[0]), close(in[1]);
        return snprintf(why, n, "no pipe: %s", strerror(errno)), -1;
    }
    fflush(NULL); /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0) {
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        return snprintf(why, n, "could not start it: %s", strerror(errno)), -1;
    }
    if (pid == 0) {
        /* the child: its own process group (ended with it), stdin and
        ** stdout the pipes, stderr cairn's, nothing else open */
        setpgid(0, 0);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGPIPE, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0) _exit(127);
        long maxfd = sysconf(_SC_OPEN_MAX);
        if (maxfd < 0 || maxfd > 4096) maxfd = 4096;
        for (int fd = 3; fd < maxfd; fd++) close(fd);
        char seatv[16];
        snprintf(seatv, sizeof seatv, "%d", seat);
        setenv("CAIRN_SEAT", seatv, 1);
        execvp(x->argv[0], x->argv);
        dprintf(2, "cairn: cannot run %s: %s\n", x->argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid); /* as the child does: whichever runs first */
    close(in[0]);
    close(out[1]);
    fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
    a->pid = pid;
    a->to = in[1];
    a->from = out[0];
    return 0;
}

/* Writes text and a newline to a's stdin before deadline (a time in
** now_ms). 0, or -1 with why (it left, it does not read). */
static int agent_write(agent *a, const char *text, size_t len, int64_t deadline, char *why, size_t n) {
    sigset_t pipe_set, old;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    sigprocmask(SIG_BLOCK, &pipe_set, &old); /* a closed pipe is EPIPE, never the signal */
    size_t done = 0;
    int rc = 0;
    while (done < len + 1) {
        const char *p = done < len ? text + done : "\n";
        size_t k = done < len ? len - done : 1;
        ssize_t w = write(a->to, p, k);
        if (w > 0) {
            done += (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && errno == EAGAIN) {
            int64_t left = deadline - now_ms();
            struct pollfd pf = {a->to, POLLOUT, 0};
            if (left <= 0 || poll(&pf, 1, (int)left) == 0) {
                snprintf(why, n, "it did not read its state within the time limit");
                rc = -1;
                break;
            }
            continue;
        }
        snprintf(why, n, "it no longer reads its stdin (%s)", w < 0 ? strerror(errno) : "closed");
        rc = -1;
        break;
    }
    if (rc != 0 || !sigismember(&old, SIGPIPE)) {
        /* a SIGPIPE raised while blocked is taken off before unblocking */
        sigset_t pending;
        sigpending(&pending);
        if (sigismember(&pending, SIGPIPE)) {
            struct timespec zero = {0, 0};
            sigtimedwait(&pipe_set, NULL, &zero);
        }
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    return rc;
}

/* How often a wait for an agent asks hooks->interrupted (the console's
** Ctrl-C), in milliseconds. */
#define EXEC_POLL_SLICE_MS 100

/* Reads one non-blank line from a before deadline into *line (malloc'd,
** no newline). 0; 1 at its end of output (it left); 2 at the deadline; 3
** for a line longer than the protocol allows; 4 when hooks->interrupted
** said to stop waiting; -1 on OOM. */
static int agent_read_line(agent *a, int64_t deadline, const bot_hooks *hooks, char **line) {
    for (;;) {
        char *nl = a->n ? memchr(a->buf, '\n', a->n) : NULL;
        while (nl) {
            size_t len = (size_t)(nl - a->buf);
            size_t blank = strspn(a->buf, " \t\r");
            if (blank >= len) { /* a blank line: passed by */
                memmove(a->buf, nl + 1, a->n - len - 1);
                a->n -= len + 1;
                nl = a->n ? memchr(a->buf, '\n', a->n) : NULL;
                continue;
            }
            if (!(*line = strndup(a->buf, len))) return -1;
            memmove(a->buf, nl + 1, a->n - len - 1);
            a->n -= len + 1;
            return 0;
        }
        if (a->n > CAIRN_SEAT_PROTOCOL_MAX_LINE) return 3;
        int64_t left = deadline - now_ms();
        if (left <= 0) return 2;
        if (hooks && hooks->interrupted && hooks->interrupted(hooks->ud)) return 4;
        struct pollfd pf = {a->from, POLLIN, 0};
        int pr = poll(&pf, 1, (int)(left < EXEC_POLL_SLICE_MS ? left : EXEC_POLL_SLICE_MS));
        if (pr < 0 && errno == EINTR) continue;
        if (pr == 0) continue; /* the deadline is checked above */
        if (a->cap - a->n < 4096) {
            size_t cap = a->cap ? a->cap * 2 : 8192;
            char *nb = realloc(a->buf, cap + 1);
            if (!nb) return -1;
            a->buf = nb, a->cap = cap;
        }
        ssize_t r = read(a->from, a->buf + a->n, a->cap - a->n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return 1;
        a->n += (size_t)r;
        a->buf[a->n] = '\0';
    }
}

/* Drops what a sent without being asked (a second answer, or lines after
** a refusal): the line read after a state must answer that state. The
** count of bytes dropped. */
static size_t agent_drain(agent *a) {
    size_t dropped = a->n;
    a->n = 0;
    char scrap[4096];
    struct pollfd pf = {a->from, POLLIN, 0};
    while (poll(&pf, 1, 0) > 0 && (pf.revents & POLLIN)) {
        ssize_t r = read(a->from, scrap, sizeof scrap);
        if (r <= 0) break; /* its end: found by the next read */
        dropped += (size_t)r;
    }
    return dropped;
}

/* The "error" of a reply object (malloc'd), for a notice. */
static char *reply_reason(const char *reply) {
    json_object *o = json_tokener_parse(reply);
    json_object *err = NULL;
    char *r = o && json_object_object_get_ex(o, "error", &err) ? cairn_strdup(json_object_get_string(err)) : NULL;
    json_object_put(o);
    return r ? r : cairn_strdup(reply);
}

/* ------------------------------------------------------------ notices */

static void notice(const bot_hooks *hooks, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void notice(const bot_hooks *hooks, const char *fmt, ...) {
    strbuf s = {0};
    va_list ap;
    va_start(ap, fmt);
    strbuf_vprintf(&s, fmt, ap);
    va_end(ap);
    const char *text = s.oom ? "an outside agent failed (out of memory while saying how)" : strbuf_str(&s);
    if (hooks && hooks->notice) hooks->notice(hooks->ud, text);
    else fprintf(stderr, "cairn: %s\n", text);
    strbuf_free(&s);
}

/* ------------------------------------------------------------ the fallback */

/* 1 when the default fallback, greedy, may play e (else random does). */
static int greedy_may_play(bot_exec *x, engine *e) {
    cerr_list quiet;
    cerr_init(&quiet, 0);
    if (!x->fb) x->fb = bot_new("greedy", &quiet);
    int ok = x->fb && bot_check(x->fb, e, &quiet) == 0;
    cerr_free(&quiet);
    return ok;
}

static const char *fallback_name(bot_exec *x, engine *e) {
    if (x->no_fallback) return "none";
    if (x->fallback) return x->fallback;
    return greedy_may_play(x, e) ? "greedy" : "random";
}

/* The fallback's choice for seat; NULL after appending an error. */
static char *fallback_choose(bot_exec *x, engine *e, int seat, const bot_hooks *hooks, cerr_list *errs) {
    if (x->no_fallback) {
        char seat_text[24];
        snprintf(seat_text, sizeof seat_text, "%d", seat);
        cerr_addk(errs, NULL, 0, 0, NULL, "bot.exec_failed",
                  "the outside agent of seat %s (%s) failed and has no fallback (fallback=none)", seat_text, x->command);
        return NULL;
    }
    if (x->fallback) {
        if (!x->fb && !(x->fb = bot_new(x->fallback, errs))) return NULL;
        return bot_choose(x->fb, e, seat, hooks, errs);
    }
    if (greedy_may_play(x, e)) return bot_choose(x->fb, e, seat, hooks, errs);
    if (!x->fb_random && !(x->fb_random = bot_new("random", errs))) return NULL;
    return bot_choose(x->fb_random, e, seat, hooks, errs);
}

/* ------------------------------------------------------------ the bot */

/* The fallback's choice, with b's `why` saying the fallback made it. */
static char *use_fallback(bot *b, engine *e, int seat, const bot_hooks *hooks, cerr_list *errs) {
    char *id = fallback_choose(b->exec, e, seat, hooks, errs);
    if (id) bot_set_why(b, cairn_strfmt("%s: the %s fallback chose %s (the outside agent failed: its notice says how)",
                                        b->spec, fallback_name(b->exec, e), id));
    return id;
}

int bot_exec_check(bot_exec *x, engine *e, cerr_list *errs) {
    if (x->no_fallback || !x->fallback) return 0;
    bot *f = bot_new(x->fallback, errs);
    int rc = f ? bot_check(f, e, errs) : -1;
    bot_free(f);
    return rc;
}

/* The next id of a's queue when it answers e's decision now, else NULL
** (the queue is then dropped). */
static char *take_queued(agent *a, engine *e, int seat) {
    if (a->next_q >= a->nq) return NULL;
    char *id = a->queue[a->next_q];
    engine_status st = ENGINE_NOT_ASKED;
    char *ex = a->queue_at == engine_position(e) ? engine_explain(e, seat, id, &st) : NULL;
    free(ex);
    if (a->queue_at != engine_position(e) || st != ENGINE_OK) {
        queue_clear(a);
        return NULL;
    }
    a->queue[a->next_q++] = NULL;
    a->queue_at++;
    if (a->next_q == a->nq) queue_clear(a);
    return id;
}

char *bot_exec_choose(bot *b, engine *e, int seat, const bot_hooks *hooks, cerr_list *errs) {
    bot_exec *x = b->exec;
    if (seat < 1 || seat > CAIRN_MAX_SEATS) {
        char seat_text[24];
        snprintf(seat_text, sizeof seat_text, "%d", seat);
        cerr_addk(errs, NULL, 0, 0, NULL, "bot.exec_no_seat", "bot %s: no seat %s", b->spec, seat_text);
        return NULL;
    }
    agent *a = &x->agents[seat];
    if (a->game != e || a->seed != engine_seed(e)) { /* another game: another program */
        agent_stop(a, 0, NULL, 0);
        agent_reset(a);
        a->game = e;
        a->seed = engine_seed(e);
    }
    size_t decision = engine_position(e) + 1;
    if (a->failed) return use_fallback(b, e, seat, hooks, errs);
    char *queued = take_queued(a, e, seat);
    if (queued) {
        bot_set_why(b, cairn_strfmt("%s: the next of the answers its last line named", b->spec));
        return queued;
    }
    char why[256] = "";
    if (a->pid == 0 && agent_start(x, a, seat, why, sizeof why) != 0) {
        a->failed = 1;
        notice(hooks, "seat %d, decision %zu: the outside agent %s %s; the %s fallback plays seat %d for the rest of "
               "the game", seat, decision, x->command, why, fallback_name(x, e), seat);
        return use_fallback(b, e, seat, hooks, errs);
    }
    size_t dropped = a->pid > 0 ? agent_drain(a) : 0;
    if (dropped)
        notice(hooks, "seat %d, decision %zu: the outside agent %s sent %zu bytes it was not asked for; they were "
               "dropped", seat, decision, x->command, dropped);
    int64_t deadline = now_ms() + x->timeout_ms;
    strbuf msg = {0};
    if (seat_protocol_state(e, seat, a->news_since, 80, 0, &msg, errs) != 0) {
        strbuf_free(&msg);
        return NULL;
    }
    a->news_since = engine_event_count(e);
    int wrc = agent_write(a, strbuf_str(&msg), msg.n, deadline, why, sizeof why);
    strbuf_free(&msg);
    char *line = NULL;
    int rrc = wrc == 0 ? agent_read_line(a, deadline, hooks, &line) : 1;
    if (rrc < 0) {
        errs->oom = 1;
        return NULL;
    }
    if (rrc != 0) { /* it left, went quiet or flooded: ended for the rest of the game */
        char status[96];
        agent_stop(a, rrc == 1 ? CAIRN_EXEC_EXIT_GRACE_MS : 0, status, sizeof status);
        const char *what = wrc != 0 ? why
                           : rrc == 1 ? "ended its output without answering"
                           : rrc == 2 ? "did not answer within the time limit"
                           : rrc == 3 ? "sent a line longer than the protocol allows"
                                      : "was interrupted while it thought (Ctrl-C)";
        char limit[64] = "";
        if (rrc == 2 && wrc == 0) snprintf(limit, sizeof limit, " of %ld ms", x->timeout_ms);
        a->failed = 1;
        notice(hooks, "seat %d, decision %zu: the outside agent %s %s%s (%s); the %s fallback plays seat %d for the "
               "rest of the game", seat, decision, x->command, what, limit, status, fallback_name(x, e), seat);
        return use_fallback(b, e, seat, hooks, errs);
    }
    char **ids = NULL;
    size_t n = 0;
    strbuf reply = {0};
    int rc = seat_protocol_read(e, seat, line, &ids, &n, &reply, errs);
    if (rc < 0) {
        free(line);
        strbuf_free(&reply);
        return NULL;
    }
    if (rc == SEAT_PROTOCOL_REFUSED) {
        /* the reply tells the program; the fallback decides this once */
        char dummy[8];
        agent_write(a, strbuf_str(&reply), reply.n, now_ms() + x->timeout_ms, dummy, sizeof dummy);
        char *shown = cairn_strfmt("%.120s%s", line, strlen(line) > 120 ? "..." : "");
        char *reason = reply_reason(strbuf_str(&reply));
        notice(hooks, "seat %d, decision %zu: the outside agent %s answered %s, which was refused: %s; the %s "
               "fallback decides this time", seat, decision, x->command, shown ? shown : "?", reason ? reason : "?",
               fallback_name(x, e));
        free(reason);
        free(shown);
        free(line);
        strbuf_free(&reply);
        return use_fallback(b, e, seat, hooks, errs);
    }
    free(line);
    strbuf_free(&reply);
    char *id = ids[0];
    ids[0] = NULL;
    if (n > 1) { /* the rest answer the seat's next decisions, while it stays asked */
        a->queue = ids, a->nq = n, a->next_q = 1, a->queue_at = engine_position(e) + 1;
    } else {
        engine_parse_free(ids, n);
    }
    bot_set_why(b, cairn_strfmt("%s: the outside agent answered %s", b->spec, id));
    return id;
}

void bot_exec_end_game(bot_exec *x, engine *e) {
    for (int s = 1; s <= CAIRN_MAX_SEATS; s++) {
        agent *a = &x->agents[s];
        if (a->pid > 0 && e && a->game == e && engine_is_over(e)) {
            /* the final state: the scores, and the news since it last decided */
            strbuf msg = {0};
            cerr_list errs;
            cerr_init(&errs, 0);
            char why[64];
            if (seat_protocol_state(e, s, a->news_since, 80, 0, &msg, &errs) == 0)
                agent_write(a, strbuf_str(&msg), msg.n, now_ms() + CAIRN_EXEC_EXIT_GRACE_MS, why, sizeof why);
            strbuf_free(&msg);
            cerr_free(&errs);
        }
        if (a->pid > 0) agent_stop(a, CAIRN_EXEC_EXIT_GRACE_MS, NULL, 0);
        agent_reset(a);
    }
}

void bot_exec_free(bot_exec *x) {
    if (!x) return;
    for (int s = 0; s <= CAIRN_MAX_SEATS; s++) {
        if (x->agents[s].pid > 0) agent_stop(&x->agents[s], 0, NULL, 0);
        agent_reset(&x->agents[s]);
    }
    if (x->argv)
        for (char **p = x->argv; *p; p++) free(*p);
    free(x->argv);
    free(x->command);
    free(x->fallback);
    bot_free(x->fb);
    bot_free(x->fb_random);
    free(x);
}
