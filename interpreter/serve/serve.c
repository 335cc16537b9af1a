/*
** serve.c
** The seat server: libmicrohttpd with a thread per connection (at most
** CAIRN_SERVE_MAX_CONNECTIONS), the routes under /s/TOKEN, each request
** authenticated by its seat token and rate limited, the page's files from
** a fixed table, states and answers handed to the console's thread
** (serve_queue.c), and server-sent events fed by serve_publish. No thread
** of libmicrohttpd ever touches the engine. The library is opened when the
** first server starts (serve_mhd.c), not linked.
*/
#include "serve.h"
#include "serve_internal.h"
#include "serve_mhd.h"

#include "engine.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct seat_slot {
    char token[SERVE_TOKEN_HEX + 1];
    int served;
    serve_bucket bucket;
    int closed;   /* a bot plays it now: its page may watch, not answer (the console's thread only) */
    char *state;  /* the newest published state message, or NULL */
    int cols;     /* the columns its page last said its board has, 0 before (the console's thread only) */
    uint64_t gen; /* its event id */
} seat_slot;

struct serve {
    struct MHD_Daemon *d;
    int port;
    char *host; /* as written in the links */
    int n_seats;
    seat_slot *seats; /* [n_seats + 1], [0] unused */
    serve_bucket anon; /* requests without a valid token */
    uint64_t next_gen;
    pthread_mutex_t lock; /* guards seats' states, the buckets, stopping */
    pthread_cond_t moved; /* a state was published, or the server stops */
    int stopping;
    serve_queue q;
    char lang[16]; /* the game's language, as last published (the console's thread only) */
};

/* What one request is, between the calls libmicrohttpd makes for it. */
typedef enum { ROUTE_FILE, ROUTE_STATE, ROUTE_ANSWER, ROUTE_EVENTS } route;

typedef struct request {
    route rt;
    int seat;
    int cols; /* /state?cols=N, clamped; 0 when not given */
    const serve_file *file;
    strbuf body;
    int too_big;
} request;

/* libmicrohttpd's functions (serve_mhd.h): set by the first serve_start
** before its server's threads start, read only after; the same table for
** every server of the process. */
static const serve_mhd *mhd;

/* ------------------------------------------------------------ answers */

static enum MHD_Result send_text(struct MHD_Connection *c, unsigned status, const char *type, const char *body,
                                 int close_after) {
    struct MHD_Response *r = mhd->create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_MUST_COPY);
    if (!r) return MHD_NO;
    mhd->add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    mhd->add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    mhd->add_response_header(r, "X-Content-Type-Options", "nosniff");
    mhd->add_response_header(r, "Referrer-Policy", "no-referrer"); /* the token never leaves in a Referer */
    mhd->add_response_header(r, "X-Frame-Options", "DENY");
    mhd->add_response_header(r, "Content-Security-Policy",
                             "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                             "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    if (close_after) mhd->add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
    enum MHD_Result ok = mhd->queue_response(c, status, r);
    mhd->destroy_response(r);
    return ok;
}

/* The one answer to every request that names no seat: no hint of why. */
static enum MHD_Result not_found(struct MHD_Connection *c) {
    return send_text(c, MHD_HTTP_NOT_FOUND, "text/plain; charset=utf-8", "not found\n", 0);
}

static enum MHD_Result too_many(struct MHD_Connection *c, int close_after) {
    return send_text(c, MHD_HTTP_TOO_MANY_REQUESTS, "text/plain; charset=utf-8", "too many requests: slow down\n",
                     close_after);
}

/* ------------------------------------------------------------- routes */

static int is_hex(const char *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f'))) return 0;
    return 1;
}

/* The seat whose token url names (/s/TOKEN...), or 0; *rest: what follows
** the token. Every seat's token is compared whole. */
static int seat_of(serve *s, const char *url, const char **rest) {
    if (strncmp(url, "/s/", 3) != 0) return 0;
    const char *tok = url + 3;
    size_t n = strcspn(tok, "/");
    if (n != SERVE_TOKEN_HEX || !is_hex(tok, n)) return 0;
    int found = 0;
    for (int i = 1; i <= s->n_seats; i++)
        if (s->seats[i].served && serve_token_equal(tok, n, s->seats[i].token) && !found) found = i;
    *rest = tok + n;
    return found;
}

/* ------------------------------------------------------ event streams */

typedef struct stream {
    serve *s;
    int seat;
    uint64_t sent; /* the id of the last state sent */
    strbuf pending;
    size_t off;
} stream;

/* One state as an event: its id, then the message on data: lines. */
static void put_event(strbuf *b, uint64_t id, const char *msg) {
    strbuf_printf(b, "id: %llu\n", (unsigned long long)id);
    for (const char *p = msg; *p;) {
        size_t n = strcspn(p, "\r\n");
        strbuf_puts(b, "data: ");
        strbuf_putn(b, p, n);
        strbuf_putc(b, '\n');
        p += n;
        while (*p == '\r' || *p == '\n') p++;
    }
    strbuf_putc(b, '\n');
}

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max) {
    (void)pos;
    stream *st = cls;
    serve *s = st->s;
    if (st->off >= st->pending.n) {
        strbuf_free(&st->pending);
        st->off = 0;
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_sec += CAIRN_SERVE_KEEPALIVE_SECONDS;
        pthread_mutex_lock(&s->lock);
        seat_slot *slot = &s->seats[st->seat];
        while (!s->stopping && (slot->gen == st->sent || !slot->state))
            if (pthread_cond_timedwait(&s->moved, &s->lock, &until) == ETIMEDOUT) break;
        if (s->stopping) {
            pthread_mutex_unlock(&s->lock);
            return MHD_CONTENT_READER_END_OF_STREAM;
        }
        if (slot->state && slot->gen != st->sent) {
            put_event(&st->pending, slot->gen, slot->state);
            st->sent = slot->gen;
        } else {
            strbuf_puts(&st->pending, ": keep-alive\n\n");
        }
        pthread_mutex_unlock(&s->lock);
        if (st->pending.oom) return MHD_CONTENT_READER_END_WITH_ERROR;
    }
    size_t n = st->pending.n - st->off;
    if (n > max) n = max;
    memcpy(buf, st->pending.s + st->off, n);
    st->off += n;
    return (ssize_t)n;
}

static void stream_free(void *cls) {
    stream *st = cls;
    strbuf_free(&st->pending);
    free(st);
}

static enum MHD_Result start_stream(serve *s, struct MHD_Connection *c, int seat) {
    stream *st = calloc(1, sizeof *st);
    if (!st) return MHD_NO;
    st->s = s;
    st->seat = seat;
    /* a page that comes back names the last state it had: sent again only
    ** when the game moved since */
    const char *last = mhd->lookup_connection_value(c, MHD_HEADER_KIND, "Last-Event-ID");
    if (last) {
        char *end;
        unsigned long long id = strtoull(last, &end, 10);
        if (*last && !*end) st->sent = id;
    }
    struct MHD_Response *r = mhd->create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, stream_read, st, stream_free);
    if (!r) {
        free(st);
        return MHD_NO;
    }
    mhd->add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream; charset=utf-8");
    mhd->add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    mhd->add_response_header(r, "X-Content-Type-Options", "nosniff");
    mhd->add_response_header(r, "Referrer-Policy", "no-referrer");
    enum MHD_Result ok = mhd->queue_response(c, MHD_HTTP_OK, r);
    mhd->destroy_response(r);
    return ok;
}

/* ------------------------------------------------------------ handler */

/* A state or an answer, done by the console's thread. */
static enum MHD_Result run_job(serve *s, struct MHD_Connection *c, request *rq) {
    serve_job job;
    memset(&job, 0, sizeof job);
    job.kind = rq->rt == ROUTE_STATE ? SERVE_JOB_STATE : SERVE_JOB_ANSWER;
    job.seat = rq->seat;
    job.cols = rq->cols;
    job.body = rq->body.s ? rq->body.s : "";
    if (serve_queue_run(&s->q, &job) != 0) {
        strbuf_free(&job.reply);
        return send_text(c, MHD_HTTP_SERVICE_UNAVAILABLE, "text/plain; charset=utf-8",
                         "the game is busy: try again\n", 0);
    }
    const char *body = job.reply.oom || !job.reply.s ? "{\"ok\":false,\"error\":\"out of memory\"}" : job.reply.s;
    enum MHD_Result ok = send_text(c, job.status ? (unsigned)job.status : MHD_HTTP_OK,
                                   "application/json; charset=utf-8", body, 0);
    strbuf_free(&job.reply);
    return ok;
}

/* The page itself, with this seat's path written in (its token: the page's
** own link). */
static enum MHD_Result send_file(struct MHD_Connection *c, const serve_file *f, const char *token) {
    if (strstr(f->body, "@BASE@") == NULL) return send_text(c, MHD_HTTP_OK, f->type, f->body, 0);
    strbuf b = {0};
    for (const char *p = f->body; *p;) {
        const char *at = strstr(p, "@BASE@");
        if (!at) {
            strbuf_puts(&b, p);
            break;
        }
        strbuf_putn(&b, p, (size_t)(at - p));
        strbuf_printf(&b, "/s/%s", token);
        p = at + 6;
    }
    if (b.oom) {
        strbuf_free(&b);
        return MHD_NO;
    }
    enum MHD_Result ok = send_text(c, MHD_HTTP_OK, f->type, b.s, 0);
    strbuf_free(&b);
    return ok;
}

/* The width a page asks its board drawn at (`?cols=N`): N within
** CAIRN_SERVE_MIN_COLS..CAIRN_SERVE_MAX_COLS, or 0 when it is not a number. */
static int cols_asked(const char *v) {
    if (!v || !*v || strlen(v) > 6 || strspn(v, "0123456789") != strlen(v)) return 0;
    long n = strtol(v, NULL, 10);
    return n < CAIRN_SERVE_MIN_COLS ? CAIRN_SERVE_MIN_COLS : n > CAIRN_SERVE_MAX_COLS ? CAIRN_SERVE_MAX_COLS : (int)n;
}

/* First call for a request: which seat, which route, the limits. Returns
** MHD_YES with *rq set to go on, or the answer already queued (*rq NULL). */
static enum MHD_Result begin(serve *s, struct MHD_Connection *c, const char *url, const char *method,
                             request **out) {
    *out = NULL;
    /* the connection's own count of requests (keep-alive) */
    const union MHD_ConnectionInfo *ci = mhd->get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    if (ci && ci->socket_context) {
        unsigned *count = ci->socket_context;
        if (++*count > CAIRN_SERVE_MAX_REQUESTS_PER_CONNECTION) return too_many(c, 1);
    }
    const char *rest = "";
    int seat = seat_of(s, url, &rest);
    pthread_mutex_lock(&s->lock);
    int allowed = serve_bucket_take(seat ? &s->seats[seat].bucket : &s->anon, CAIRN_SERVE_RATE_PER_SECOND,
                                    CAIRN_SERVE_RATE_BURST);
    pthread_mutex_unlock(&s->lock);
    if (!allowed) return too_many(c, 0);
    if (!seat) return not_found(c);
    int get = strcmp(method, MHD_HTTP_METHOD_GET) == 0 || strcmp(method, MHD_HTTP_METHOD_HEAD) == 0;
    int post = strcmp(method, MHD_HTTP_METHOD_POST) == 0;
    request rq = {.seat = seat};
    if (strcmp(rest, "") == 0 || strcmp(rest, "/") == 0) {
        rq.rt = ROUTE_FILE;
        rq.file = serve_page_file("");
    } else if (strcmp(rest, "/state") == 0) {
        rq.rt = ROUTE_STATE;
        rq.cols = cols_asked(mhd->lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "cols"));
    } else if (strcmp(rest, "/answer") == 0) {
        rq.rt = ROUTE_ANSWER;
    } else if (strcmp(rest, "/events") == 0) {
        rq.rt = ROUTE_EVENTS;
    } else if (rest[0] == '/' && (rq.file = serve_page_file(rest + 1)) != NULL) {
        rq.rt = ROUTE_FILE;
    } else {
        return not_found(c);
    }
    if ((rq.rt == ROUTE_ANSWER && !post) || (rq.rt != ROUTE_ANSWER && !get)) {
        struct MHD_Response *r = mhd->create_response_from_buffer(strlen("method not allowed\n"),
                                                                  (void *)"method not allowed\n", MHD_RESPMEM_PERSISTENT);
        if (!r) return MHD_NO;
        mhd->add_response_header(r, "Allow", rq.rt == ROUTE_ANSWER ? "POST" : "GET, HEAD");
        mhd->add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
        enum MHD_Result ok = mhd->queue_response(c, MHD_HTTP_METHOD_NOT_ALLOWED, r);
        mhd->destroy_response(r);
        return ok;
    }
    if (rq.rt == ROUTE_ANSWER) {
        const char *len = mhd->lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (len && strtoull(len, NULL, 10) > CAIRN_SERVE_MAX_BODY)
            return send_text(c, MHD_HTTP_CONTENT_TOO_LARGE, "text/plain; charset=utf-8", "the body is too long\n", 1);
    }
    request *p = malloc(sizeof *p);
    if (!p) return MHD_NO;
    *p = rq;
    *out = p;
    return MHD_YES;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_size, void **con_cls) {
    (void)version;
    serve *s = cls;
    request *rq = *con_cls;
    if (!rq) {
        enum MHD_Result ok = begin(s, c, url, method, &rq);
        if (!rq) return ok;
        *con_cls = rq;
        if (rq->rt == ROUTE_ANSWER) return MHD_YES; /* the body comes in the next calls */
    }
    if (rq->rt == ROUTE_ANSWER && *upload_size > 0) {
        if (!rq->too_big && rq->body.n + *upload_size <= CAIRN_SERVE_MAX_BODY)
            strbuf_putn(&rq->body, upload, *upload_size);
        else
            rq->too_big = 1;
        *upload_size = 0;
        return MHD_YES;
    }
    switch (rq->rt) {
    case ROUTE_FILE:
        return send_file(c, rq->file, s->seats[rq->seat].token);
    case ROUTE_EVENTS:
        return start_stream(s, c, rq->seat);
    case ROUTE_ANSWER:
        if (rq->too_big)
            return send_text(c, MHD_HTTP_CONTENT_TOO_LARGE, "text/plain; charset=utf-8", "the body is too long\n", 1);
        if (rq->body.oom) return MHD_NO;
        strbuf_putn(&rq->body, "", 0); /* NUL-terminated even when empty */
        if (memchr(rq->body.s, '\0', rq->body.n))
            return send_text(c, MHD_HTTP_BAD_REQUEST, "application/json; charset=utf-8",
                             "{\"ok\":false,\"error\":\"the body holds a NUL byte\"}", 0);
        return run_job(s, c, rq);
    case ROUTE_STATE:
        return run_job(s, c, rq);
    }
    return MHD_NO;
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode why) {
    (void)cls;
    (void)c;
    (void)why;
    request *rq = *con_cls;
    if (!rq) return;
    strbuf_free(&rq->body);
    free(rq);
    *con_cls = NULL;
}

/* The path as sent, never percent-decoded: every route is plain ASCII, so
** an escape (%2e%2e, %00, %2f) names no file and gets 404, and no decoded
** byte can cut or bend a path. */
static size_t no_unescape(void *cls, struct MHD_Connection *c, char *s) {
    (void)cls;
    (void)c;
    return strlen(s);
}

/* Each connection's count of requests, in its socket context. */
static void connection_note(void *cls, struct MHD_Connection *c, void **socket_context,
                            enum MHD_ConnectionNotificationCode code) {
    (void)cls;
    (void)c;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        *socket_context = calloc(1, sizeof(unsigned)); /* NULL: not counted, the other limits hold */
    } else {
        free(*socket_context);
        *socket_context = NULL;
    }
}

/* ------------------------------------------------------------- start */

/* The address a link names: the bound one, or for 0.0.0.0 (::) this
** machine's first address on a network (the one a phone can reach). */
static char *link_host(const char *bind, int v6) {
    int any = strcmp(bind, "0.0.0.0") == 0 || strcmp(bind, "::") == 0;
    if (any) {
        struct ifaddrs *ifs = NULL;
        char buf[INET6_ADDRSTRLEN] = "";
        if (getifaddrs(&ifs) == 0) {
            for (struct ifaddrs *i = ifs; i && !buf[0]; i = i->ifa_next) {
                if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET) continue;
                const struct sockaddr_in *a = (const struct sockaddr_in *)i->ifa_addr;
                if ((ntohl(a->sin_addr.s_addr) >> 24) == 127) continue;
                inet_ntop(AF_INET, &a->sin_addr, buf, sizeof buf);
            }
            freeifaddrs(ifs);
        }
        if (buf[0]) return cairn_strdup(buf);
        return cairn_strdup("127.0.0.1");
    }
    return v6 ? cairn_strfmt("[%s]", bind) : cairn_strdup(bind);
}

serve *serve_start(const char *bind, int port, int n_seats, const int *served, cerr_list *errs) {
    struct sockaddr_in a4;
    struct sockaddr_in6 a6;
    memset(&a4, 0, sizeof a4);
    memset(&a6, 0, sizeof a6);
    int v6 = 0;
    if (port < 0 || port > 65535) {
        char port_text[24];
        snprintf(port_text, sizeof port_text, "%d", port);
        cerr_addk(errs, NULL, 0, 0, NULL, "serve.port", "--port %s: a port is 0 (any free one) to 65535", port_text);
        return NULL;
    }
    if (!mhd && !(mhd = serve_mhd_open(errs))) return NULL;
    if (inet_pton(AF_INET, bind, &a4.sin_addr) == 1) {
        a4.sin_family = AF_INET;
        a4.sin_port = htons((uint16_t)port);
    } else if (inet_pton(AF_INET6, bind, &a6.sin6_addr) == 1) {
        v6 = 1;
        a6.sin6_family = AF_INET6;
        a6.sin6_port = htons((uint16_t)port);
    } else {
        cerr_addk(errs, NULL, 0, 0, NULL, "serve.bind",
                  "--bind %s: not an IP address (127.0.0.1, the default, serves this machine only; 0.0.0.0 every network)",
                  bind);
        return NULL;
    }
    serve *s = calloc(1, sizeof *s);
    if (!s || !(s->seats = calloc((size_t)n_seats + 1, sizeof *s->seats)) || serve_queue_init(&s->q) != 0) {
        if (s) free(s->seats);
        free(s);
        cerr_addk(errs, NULL, 0, 0, NULL, "oom", "out of memory");
        return NULL;
    }
    s->n_seats = n_seats;
    pthread_mutex_init(&s->lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->moved, &ca);
    pthread_condattr_destroy(&ca);
    for (int i = 1; i <= n_seats; i++) {
        s->seats[i].served = served[i] != 0;
        if (s->seats[i].served && serve_token_new(s->seats[i].token) != 0) {
            int e = errno;
            size_t before = errs->n;
            cerr_add(errs, NULL, 0, 0, NULL, "no random bytes for the seats' tokens (getrandom: %s)", strerror(e));
            cerr_key(errs, before, "serve.no_random", e, NULL, NULL);
            serve_stop(s);
            return NULL;
        }
    }
    signal(SIGPIPE, SIG_IGN); /* a page that went away is no reason to stop */
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL;
    if (v6) flags |= MHD_USE_IPv6;
    s->d = mhd->start_daemon(flags, (uint16_t)port, NULL, NULL, handle, s,
                             MHD_OPTION_SOCK_ADDR, v6 ? (struct sockaddr *)&a6 : (struct sockaddr *)&a4,
                             MHD_OPTION_CONNECTION_LIMIT, (unsigned)CAIRN_SERVE_MAX_CONNECTIONS,
                             MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)CAIRN_SERVE_IDLE_SECONDS,
                             MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(32 * 1024),
                             MHD_OPTION_NOTIFY_COMPLETED, completed, s,
                             MHD_OPTION_NOTIFY_CONNECTION, connection_note, s,
                             MHD_OPTION_UNESCAPE_CALLBACK, no_unescape, s,
                             MHD_OPTION_END);
    if (!s->d) {
        char port_text[24];
        snprintf(port_text, sizeof port_text, "%d", port);
        if (port)
            cerr_addk(errs, NULL, 0, 0, NULL, "serve.taken",
                      "cannot serve on %s port %s (taken, or not this machine's address?)", bind, port_text);
        else
            cerr_addk(errs, NULL, 0, 0, NULL, "serve.not_here", "cannot serve on %s (not this machine's address?)", bind);
        serve_stop(s);
        return NULL;
    }
    const union MHD_DaemonInfo *di = mhd->get_daemon_info(s->d, MHD_DAEMON_INFO_BIND_PORT);
    s->port = di ? di->port : port;
    if (!(s->host = link_host(bind, v6))) {
        cerr_addk(errs, NULL, 0, 0, NULL, "oom", "out of memory");
        serve_stop(s);
        return NULL;
    }
    return s;
}

void serve_stop(serve *s) {
    if (!s) return;
    pthread_mutex_lock(&s->lock);
    s->stopping = 1;
    pthread_cond_broadcast(&s->moved);
    pthread_mutex_unlock(&s->lock);
    pthread_mutex_lock(&s->q.lock);
    s->q.closed = 1;
    pthread_cond_broadcast(&s->q.done);
    pthread_mutex_unlock(&s->q.lock);
    if (s->d) mhd->stop_daemon(s->d);
    serve_queue_destroy(&s->q);
    pthread_cond_destroy(&s->moved);
    pthread_mutex_destroy(&s->lock);
    for (int i = 0; i <= s->n_seats; i++) free(s->seats[i].state);
    free(s->seats);
    free(s->host);
    free(s);
}

/* -------------------------------------------------- the console's side */

int serve_port(const serve *s) {
    return s->port;
}

int serve_is_served(const serve *s, int seat) {
    return seat >= 1 && seat <= s->n_seats && s->seats[seat].served;
}

char *serve_link(const serve *s, int seat) {
    if (!serve_is_served(s, seat)) return NULL;
    return cairn_strfmt("http://%s:%d/s/%s", s->host, s->port, s->seats[seat].token);
}

void serve_set_bot(serve *s, int seat, int bot) {
    if (serve_is_served(s, seat)) s->seats[seat].closed = bot != 0;
}

int serve_wake_fd(const serve *s) {
    return s->q.wake[0];
}

/* slot's newest state is msg (malloc'd, taken: kept or freed) when it
** differs from the one published: its event streams send it. NULL (no
** memory) keeps the one before. On the console's thread. */
static void keep_published(serve *s, seat_slot *slot, char *copy) {
    if (!copy) return;
    pthread_mutex_lock(&s->lock);
    if (!slot->state || strcmp(slot->state, copy) != 0) {
        free(slot->state);
        slot->state = copy;
        copy = NULL;
        slot->gen = ++s->next_gen;
        pthread_cond_broadcast(&s->moved);
    }
    pthread_mutex_unlock(&s->lock);
    free(copy);
}

int serve_pump(serve *s, engine *e, serve_answered_fn answered, void *ctx) {
    serve_queue_drain(&s->q);
    int moved = 0;
    serve_job *job;
    while ((job = serve_queue_next(&s->q)) != NULL) {
        job->status = 200;
        if (!serve_is_served(s, job->seat)) {
            strbuf_puts(&job->reply, "{\"type\":\"reply\",\"ok\":false,\"code\":\"no_seat\",\"error\":\"no such seat\"}");
        } else if (job->kind == SERVE_JOB_ANSWER && s->seats[job->seat].closed) {
            strbuf_puts(&job->reply, "{\"type\":\"reply\",\"ok\":false,\"code\":\"bot\","
                                     "\"error\":\"a bot plays this seat now (the console's `human` gives it back)\"}");
        } else if (job->kind == SERVE_JOB_STATE) {
            seat_slot *slot = &s->seats[job->seat];
            int resized = job->cols && job->cols != slot->cols;
            if (job->cols) slot->cols = job->cols;
            if (serve_seat_state(e, job->seat, s->lang, slot->cols, &job->reply) != 0)
                job->status = 500;
            else if (resized)
                keep_published(s, slot, strdup(job->reply.s)); /* its event stream too, at the new width */
        } else if (serve_seat_answer(e, job->seat, job->body, &job->reply) == 1) {
            int seat = job->seat;
            serve_queue_finish(&s->q, job); /* the page hears "ok" before the bots move; job is gone */
            moved++;
            if (answered) answered(ctx, seat);
            continue;
        }
        serve_queue_finish(&s->q, job);
    }
    return moved;
}

void serve_publish(serve *s, engine *e, const char *lang) {
    snprintf(s->lang, sizeof s->lang, "%s", lang ? lang : "en");
    for (int i = 1; i <= s->n_seats; i++) {
        if (!s->seats[i].served) continue;
        strbuf b = {0};
        serve_seat_state(e, i, lang, s->seats[i].cols, &b);
        if (!b.oom && b.s) keep_published(s, &s->seats[i], strbuf_take(&b));
        strbuf_free(&b);
    }
}
