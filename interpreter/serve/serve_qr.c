/*
** serve_qr.c
** A seat's link as a QR code in the terminal (libqrencode): two rows of
** modules a line, drawn with the half-block characters, the light modules
** in the terminal's text colour (a dark terminal's usual look; phone
** scanners read either way round), with a quiet zone of two modules.
*/
#include "serve.h"

#include <qrencode.h>
#include <string.h>

#define QR_QUIET 2

/* 1 when the module at (x, y) of the code with its quiet zone is dark. */
static int dark(const QRcode *q, int x, int y) {
    x -= QR_QUIET;
    y -= QR_QUIET;
    if (x < 0 || y < 0 || x >= q->width || y >= q->width) return 0;
    return q->data[y * q->width + x] & 1;
}

int serve_print_qr(FILE *out, const char *link, int width) {
    QRcode *q = QRcode_encodeString(link, 0, QR_ECLEVEL_L, QR_MODE_8, 1);
    if (!q) return 0;
    int size = q->width + 2 * QR_QUIET;
    if (size + 2 > width) {
        QRcode_free(q);
        return 0;
    }
    for (int y = 0; y < size; y += 2) {
        fputs("  ", out);
        for (int x = 0; x < size; x++) {
            int top = !dark(q, x, y), bottom = y + 1 < size ? !dark(q, x, y + 1) : 0;
            fputs(top && bottom ? "\xe2\x96\x88" : top ? "\xe2\x96\x80" : bottom ? "\xe2\x96\x84" : " ", out);
        }
        fputc('\n', out);
    }
    QRcode_free(q);
    return 1;
}
