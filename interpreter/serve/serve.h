/*
** serve.h
** The seat server of `cairn serve`: an HTTP server (libmicrohttpd) that
** gives each served seat a private link (an unguessable token) to a page
** showing that seat's view, its state as the seat protocol's messages
** (play/seat_protocol.h), answers posted back, and server-sent events when
** the game moves. libmicrohttpd answers on its own threads, which never
** touch the engine: a request that needs the game waits in a queue, the
** console's thread (the one that owns the engine) is woken through
** serve_wake_fd() and answers the queue with serve_pump(). docs/serve.md.
*/
#ifndef CAIRN_SERVE_H
#define CAIRN_SERVE_H

#include <stddef.h>
#include <stdio.h>

#include "error.h"

struct engine;
typedef struct serve serve;

/* Starts the server on bind (a numeric IPv4 or IPv6 address: 127.0.0.1,
** 0.0.0.0, ::1) and port (0: a free one) for seats 1..n_seats; served[s]
** (s from 1) says whether seat s gets a link. The tokens come from
** getrandom(). NULL with errs filled (the address, the port taken, out of
** memory). */
serve *serve_start(const char *bind, int port, int n_seats, const int *served, cerr_list *errs);
/* Stops the server: every connection is closed, its threads joined. NULL-safe. */
void serve_stop(serve *s);

/* The port it listens on (the one picked when 0 was asked). */
int serve_port(const serve *s);
/* Seat's private link, "http://ADDR:PORT/s/TOKEN" (malloc'd), or NULL for a
** seat that is not served. */
char *serve_link(const serve *s, int seat);
/* 1 when seat has a link. */
int serve_is_served(const serve *s, int seat);

/* On the console's thread: a bot plays seat now (1) or a person again (0);
** a bot's page shows the game but its answers are refused. */
void serve_set_bot(serve *s, int seat, int bot);

/* Readable when requests wait for the console's thread. */
int serve_wake_fd(const serve *s);

/* What the console's thread does after a seat's answer was applied (runs
** the bots, shows the board): called by serve_pump, once per answer. */
typedef void (*serve_answered_fn)(void *ctx, int seat);

/* On the console's thread: answers every waiting request from e (states,
** answers; each answer through the seat protocol, for its own seat only).
** Returns the number of answers that were applied (0: the game did not
** move). */
int serve_pump(serve *s, struct engine *e, serve_answered_fn answered, void *ctx);

/* On the console's thread, after anything may have changed the game (a
** command, an answer, undo, load, reload): each served seat's state is
** made again and, where it changed, sent to its event streams. lang is the
** game's language (the page's texts). */
void serve_publish(serve *s, struct engine *e, const char *lang);

/* Prints seat's link as a QR code drawn with half-block characters, for a
** terminal of `width` columns (the caller knows out is one), when the code
** fits; else nothing. Returns 1 when drawn. */
int serve_print_qr(FILE *out, const char *link, int width);

#endif
