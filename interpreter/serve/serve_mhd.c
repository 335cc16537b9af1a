/*
** serve_mhd.c
** libmicrohttpd opened with dlopen when a game is first served
** (serve_mhd.h says why it is not linked). The file name is the library's
** own (its SONAME, read by the Makefile from the library the headers came
** with: CAIRN_MHD_SONAME), so the ABI opened is the one compiled against.
*/
#include "serve_mhd.h"

#include <dlfcn.h>
#include <stddef.h>

#ifndef CAIRN_MHD_SONAME
#define CAIRN_MHD_SONAME "libmicrohttpd.so.12"
#endif

/* Process-wide on purpose: the library is opened once and never closed
** (its threads may outlive a server), and the table is filled before the
** first server thread starts, then only read. */
static serve_mhd table;

/* Each function's name and where its pointer goes. */
#define FN(field, name) {#name, offsetof(serve_mhd, field)}
static const struct {
    const char *name;
    size_t at;
} FUNCTIONS[] = {
    FN(start_daemon, MHD_start_daemon),
    FN(stop_daemon, MHD_stop_daemon),
    FN(get_daemon_info, MHD_get_daemon_info),
    FN(get_connection_info, MHD_get_connection_info),
    FN(lookup_connection_value, MHD_lookup_connection_value),
    FN(create_response_from_buffer, MHD_create_response_from_buffer),
    FN(create_response_from_callback, MHD_create_response_from_callback),
    FN(add_response_header, MHD_add_response_header),
    FN(queue_response, MHD_queue_response),
    FN(destroy_response, MHD_destroy_response),
};

const serve_mhd *serve_mhd_open(cerr_list *errs) {
    void *lib = dlopen(CAIRN_MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        cerr_addk(errs, NULL, 0, 0, NULL, "serve.no_library",
                  "libmicrohttpd (%s, Debian's package libmicrohttpd12) could not be opened: %s", CAIRN_MHD_SONAME,
                  why ? why : "not found");
        return NULL;
    }
    serve_mhd found;
    for (size_t i = 0; i < sizeof FUNCTIONS / sizeof FUNCTIONS[0]; i++) {
        void *fn = dlsym(lib, FUNCTIONS[i].name);
        if (!fn) {
            cerr_addk(errs, NULL, 0, 0, NULL, "serve.no_function", "%s has no %s: not the libmicrohttpd cairn was built for",
                      CAIRN_MHD_SONAME, FUNCTIONS[i].name);
            dlclose(lib);
            return NULL;
        }
        /* POSIX: a function's address as dlsym gives it converts to the function pointer */
        *(void **)((char *)&found + FUNCTIONS[i].at) = fn;
    }
    table = found;
    return &table;
}
