/*
** serve_mhd.h
** The libmicrohttpd functions `cairn serve` calls, opened from the library
** when a game is first served (serve_mhd.c) instead of linked into cairn:
** a linked libmicrohttpd brings GnuTLS and its start-up (p11-kit, crypto
** tables) into every cairn process, 2 to 3 ms of CPU each (`cairn check`,
** every transcript and sim worker), for a server most runs never start.
** The types and constants are the header's; each pointer has the type of
** the function it stands for.
*/
#ifndef CAIRN_SERVE_MHD_H
#define CAIRN_SERVE_MHD_H

#include "error.h"

#include <microhttpd.h>

typedef struct serve_mhd {
    __typeof__(MHD_start_daemon) *start_daemon;
    __typeof__(MHD_stop_daemon) *stop_daemon;
    __typeof__(MHD_get_daemon_info) *get_daemon_info;
    __typeof__(MHD_get_connection_info) *get_connection_info;
    __typeof__(MHD_lookup_connection_value) *lookup_connection_value;
    __typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
    __typeof__(MHD_create_response_from_callback) *create_response_from_callback;
    __typeof__(MHD_add_response_header) *add_response_header;
    __typeof__(MHD_queue_response) *queue_response;
    __typeof__(MHD_destroy_response) *destroy_response;
} serve_mhd;

/* Opens the library and gives its functions; NULL with an error saying what
** is missing when the library or one of them cannot be found. Called once
** a process, before any server thread runs (serve_start keeps the table). */
const serve_mhd *serve_mhd_open(cerr_list *errs);

#endif
