/*
** value_json.c
** The value tree as JSON (value_json.h): a recursive writer, two spaces a
** level, empty lists and maps on one line; and the same compact into a
** strbuf (value_json_put).
*/
#include "value_json.h"
#include "json_string.h"

#include <inttypes.h>

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
    case CV_STR: json_string_write(out, v->u.str.s, v->u.str.len); break;
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
            json_string_write(out, e->key->u.str.s, e->key->u.str.len);
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

void value_json_put(strbuf *b, const value *v) {
    if (!v) {
        strbuf_puts(b, "null");
        return;
    }
    switch (v->type) {
    case CV_NULL: strbuf_puts(b, "null"); break;
    case CV_BOOL: strbuf_puts(b, v->u.b ? "true" : "false"); break;
    case CV_INT: strbuf_printf(b, "%" PRId64, v->u.i); break;
    case CV_STR: json_string_put(b, v->u.str.s, v->u.str.len); break;
    case CV_LIST:
        strbuf_putc(b, '[');
        for (size_t i = 0; i < v->u.list.n; i++) {
            if (i) strbuf_putc(b, ',');
            value_json_put(b, v->u.list.items[i]);
        }
        strbuf_putc(b, ']');
        break;
    case CV_MAP:
        strbuf_putc(b, '{');
        for (size_t i = 0; i < v->u.map.n; i++) {
            const cv_entry *e = &v->u.map.items[i];
            if (i) strbuf_putc(b, ',');
            json_string_put(b, e->key->u.str.s, e->key->u.str.len);
            strbuf_putc(b, ':');
            value_json_put(b, e->val);
        }
        strbuf_putc(b, '}');
        break;
    }
}
