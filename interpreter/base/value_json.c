/*
** value_json.c
** The value tree as JSON (value_json.h): a recursive writer, two spaces a
** level, empty lists and maps on one line.
*/
#include "value_json.h"

#include <inttypes.h>

static void write_string(FILE *out, const char *s, size_t len) {
    fputc('"', out);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (c < 0x20 || c == 0x7f) fprintf(out, "\\u%04x", c);
            else fputc(c, out); /* UTF-8 passes through: JSON text is UTF-8 */
        }
    }
    fputc('"', out);
}

static void indent(FILE *out, int depth) {
    for (int i = 0; i < depth; i++) fputs("  ", out);
}

static void write_value(FILE *out, const value *v, int depth) {
    if (!v) {
        fputs("null", out);
        return;
    }
    switch (v->type) {
    case CV_NULL: fputs("null", out); break;
    case CV_BOOL: fputs(v->u.b ? "true" : "false", out); break;
    case CV_INT: fprintf(out, "%" PRId64, v->u.i); break;
    case CV_STR: write_string(out, v->u.str.s, v->u.str.len); break;
    case CV_LIST:
        if (v->u.list.n == 0) {
            fputs("[]", out);
            break;
        }
        fputs("[\n", out);
        for (size_t i = 0; i < v->u.list.n; i++) {
            indent(out, depth + 1);
            write_value(out, v->u.list.items[i], depth + 1);
            fputs(i + 1 < v->u.list.n ? ",\n" : "\n", out);
        }
        indent(out, depth);
        fputc(']', out);
        break;
    case CV_MAP:
        if (v->u.map.n == 0) {
            fputs("{}", out);
            break;
        }
        fputs("{\n", out);
        for (size_t i = 0; i < v->u.map.n; i++) {
            const cv_entry *e = &v->u.map.items[i];
            indent(out, depth + 1);
            write_string(out, e->key->u.str.s, e->key->u.str.len);
            fputs(": ", out);
            write_value(out, e->val, depth + 1);
            fputs(i + 1 < v->u.map.n ? ",\n" : "\n", out);
        }
        indent(out, depth);
        fputc('}', out);
        break;
    }
}

int value_write_json(FILE *out, const value *v) {
    write_value(out, v, 0);
    fputc('\n', out);
    return ferror(out) ? -1 : 0;
}
