/* An RFC 4180 reader for the tests: reads a whole file into rows of fields. */
#ifndef ACCELSCOPE_CSVREAD_H
#define ACCELSCOPE_CSVREAD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CSVR_MAX_FIELDS 64
#define CSVR_MAX_ROWS 4096

struct csvr {
    int nrows;
    int nfields[CSVR_MAX_ROWS];
    char *f[CSVR_MAX_ROWS][CSVR_MAX_FIELDS];
};

/* Returns 0, or -1 on a malformed file (unterminated quote, too many rows/fields). */
static inline int csvr_parse(struct csvr *c, const char *text)
{
    memset(c, 0, sizeof *c);
    const char *p = text;
    while (*p) {
        if (c->nrows == CSVR_MAX_ROWS)
            return -1;
        int r = c->nrows++;
        for (;;) {
            size_t cap = 64, k = 0;
            char *v = malloc(cap);
            if (*p == '"') {
                p++;
                for (;;) {
                    if (!*p) {
                        free(v);
                        return -1;
                    }
                    if (*p == '"' && p[1] == '"')
                        p++;
                    else if (*p == '"') {
                        p++;
                        break;
                    }
                    if (k + 2 > cap)
                        v = realloc(v, cap *= 2);
                    v[k++] = *p++;
                }
            } else {
                while (*p && *p != ',' && *p != '\n' && *p != '\r') {
                    if (k + 2 > cap)
                        v = realloc(v, cap *= 2);
                    v[k++] = *p++;
                }
            }
            v[k] = 0;
            if (c->nfields[r] == CSVR_MAX_FIELDS) {
                free(v);
                return -1;
            }
            c->f[r][c->nfields[r]++] = v;
            if (*p == ',') {
                p++;
                continue;
            }
            if (*p == '\r')
                p++;
            if (*p == '\n')
                p++;
            break;
        }
    }
    return 0;
}

/* Column index of a header name, or -1. */
static inline int csvr_col(const struct csvr *c, const char *name)
{
    for (int i = 0; c->nrows && i < c->nfields[0]; i++)
        if (!strcmp(c->f[0][i], name))
            return i;
    return -1;
}

static inline void csvr_free(struct csvr *c)
{
    for (int r = 0; r < c->nrows; r++)
        for (int i = 0; i < c->nfields[r]; i++)
            free(c->f[r][i]);
    c->nrows = 0;
}

static inline char *csvr_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, k;
    char *b = malloc(cap);
    while ((k = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (cap - n < 2)
            b = realloc(b, cap *= 2);
    }
    b[n] = 0;
    fclose(f);
    return b;
}

#endif
