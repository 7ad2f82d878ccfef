#include "csvread.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "algo.h"
#include "csv.h"
#include "machine.h"
#include "stats.h"
#include "text.h"

/* struct csvread_set.missing holds a bit per column */
_Static_assert(CSVREAD_NCOLS <= 32, "csvread_set.missing has too few bits");

const char *const csvread_col_name[CSVREAD_NCOLS] = {
    "timestamp", "host", "cpu", "kernel", "openssl", "capabilities", "algorithm", "direction",
    "path", "implementation", "bytes", "threads", "mb_per_s", "mb_per_s_min", "mb_per_s_max",
    "spread_pct", "cycles_per_byte", "cycle_clock", "cpu_utilisation", "limit_mb_per_s",
    "verified_against", "status", "reason", "quality", "same_code_as", "sys_pct", "fallback",
    "ops_per_s", "us_per_op", "clock_mhz", "absolute", "ci_pct",
};

/* Without these the file says nothing comparable. */
static const enum csvread_col required[] = { CSVREAD_ALGORITHM, CSVREAD_BYTES,
                                             CSVREAD_MB_PER_S };

/* Interned strings: every machine field repeats on every row, and so do most others. */
struct chunk {
    struct chunk *next;
    size_t used, cap;
    char data[];
};

struct csvread_pool {
    const char **slot; /* open addressing, power-of-two size */
    size_t nslot, used;
    struct chunk *chunks;
};

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        abort();
    return p;
}

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static const char *pool_copy(struct csvread_pool *p, const char *s, size_t len)
{
    struct chunk *c = p->chunks;
    if (!c || c->cap - c->used < len + 1) {
        size_t cap = len + 1 > 65536 ? len + 1 : 65536;
        c = xmalloc(sizeof *c + cap);
        c->cap = cap;
        c->used = 0;
        c->next = p->chunks;
        p->chunks = c;
    }
    char *d = c->data + c->used;
    memcpy(d, s, len + 1);
    c->used += len + 1;
    return d;
}

static void pool_grow(struct csvread_pool *p)
{
    size_t n = p->nslot ? p->nslot * 2 : 256;
    const char **s = calloc(n, sizeof *s);
    if (!s)
        abort();
    for (size_t i = 0; i < p->nslot; i++)
        if (p->slot[i]) {
            size_t k = hash(p->slot[i]) & (n - 1);
            while (s[k])
                k = (k + 1) & (n - 1);
            s[k] = p->slot[i];
        }
    free(p->slot);
    p->slot = s;
    p->nslot = n;
}

static const char *intern(struct csvread_pool *p, const char *s)
{
    if (!*s)
        return "";
    if (2 * (p->used + 1) > p->nslot)
        pool_grow(p);
    size_t k = hash(s) & (p->nslot - 1);
    for (; p->slot[k]; k = (k + 1) & (p->nslot - 1))
        if (!strcmp(p->slot[k], s))
            return p->slot[k];
    p->used++;
    return p->slot[k] = pool_copy(p, s, strlen(s));
}

void csvread_free(struct csvread_set *set)
{
    if (set->pool) {
        for (struct chunk *c = set->pool->chunks, *n; c; c = n) {
            n = c->next;
            free(c);
        }
        free(set->pool->slot);
        free(set->pool);
    }
    free(set->rows);
    free(set->name);
    memset(set, 0, sizeof *set);
}

static void set_init(struct csvread_set *set, const char *name)
{
    memset(set, 0, sizeof *set);
    set->name = strdup(name);
    set->pool = calloc(1, sizeof *set->pool);
    if (!set->name || !set->pool)
        abort();
}

static struct csvread_row *set_add(struct csvread_set *set)
{
    if (set->n == set->cap) {
        set->cap = set->cap ? set->cap * 2 : 64;
        set->rows = realloc(set->rows, set->cap * sizeof *set->rows);
        if (!set->rows)
            abort();
    }
    struct csvread_row *r = &set->rows[set->n++];
    memset(r, 0, sizeof *r);
    const char **s = &r->timestamp;
    for (const char **e = &r->fallback; s <= e; s++)
        *s = "";
    r->sys_pct = -1;
    r->threads = 1;
    return r;
}

/* ---- The record reader: one RFC 4180 record at a time from a stream. ---- */

struct rd {
    FILE *f;
    unsigned char chunk[65536]; /* read ahead: the file is never in memory whole */
    size_t pos, end;
    const char *name;
    unsigned line;           /* physical line of the next character */
    unsigned rec_line;       /* where the current record started */
    unsigned long long bytes;
    char *buf;               /* the record's fields, each NUL-terminated */
    size_t len, cap;
    size_t off[CSVREAD_MAX_COLS];
    unsigned nf;
    char *why;
    size_t wn;
};

/* "NAME: line L, column C (name): ..." in why; returns -1. Columns count from 1, as a
 * spreadsheet's; col 0 = the whole line. */
static int fail(struct rd *r, unsigned line, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(struct rd *r, unsigned line, unsigned col, const char *fmt, ...)
{
    int k = col ? snprintf(r->why, r->wn, "%s: line %u, column %u%s", r->name, line, col,
                           *fmt == '(' ? " " : ": ")
                : snprintf(r->why, r->wn, "%s: line %u: ", r->name, line);
    if (k < 0 || (size_t)k >= r->wn) {
        text_clean(r->why, r->wn); /* the name alone filled it */
        return -1;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why + k, r->wn - (size_t)k, fmt, ap);
    va_end(ap);
    /* the message quotes the file's name and fields, and is printed */
    text_clean(r->why, r->wn);
    return -1;
}

static int refill(struct rd *r)
{
    r->pos = 0;
    r->end = fread(r->chunk, 1, sizeof r->chunk, r->f);
    r->bytes += r->end;
    return r->end > 0;
}

static inline int next(struct rd *r)
{
    if (r->pos == r->end && !refill(r))
        return EOF;
    int c = r->chunk[r->pos++];
    if (c == '\n')
        r->line++;
    return c;
}

static inline void put(struct rd *r, char c)
{
    if (r->len == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 4096;
        r->buf = realloc(r->buf, r->cap);
        if (!r->buf)
            abort();
    }
    r->buf[r->len++] = c;
}

static inline int push(struct rd *r, int c)
{
    if (c == 0)
        return fail(r, r->line, r->nf + 1, "binary data (a NUL byte): not a CSV file");
    if (r->len - r->off[r->nf] >= CSVREAD_MAX_FIELD)
        return fail(r, r->line, r->nf + 1, "a field longer than %u bytes", CSVREAD_MAX_FIELD);
    put(r, (char)c);
    return 0;
}

/* A quoted field from after its opening quote; returns the character after the closing
 * quote, or -2 on error. */
static int quoted(struct rd *r)
{
    unsigned opened = r->line;
    for (;;) {
        int c = next(r);
        if (c == EOF) {
            fail(r, opened, r->nf + 1, "unterminated quoted field (the quote opened here is "
                 "never closed)");
            return -2;
        }
        if (c == '"' && (c = next(r)) != '"')
            return c;
        if (push(r, c))
            return -2;
    }
}

/* 1 a record, 0 end of file, -1 error. */
static int record(struct rd *r)
{
    r->nf = 0;
    r->len = 0;
    r->rec_line = r->line;
    int c = next(r);
    if (c == EOF)
        return 0;
    for (;;) {
        if (r->nf == CSVREAD_MAX_COLS)
            return fail(r, r->line, r->nf, "more than %u columns", CSVREAD_MAX_COLS);
        r->off[r->nf] = r->len;
        if (c == '"') {
            if ((c = quoted(r)) == -2)
                return -1;
            if (c != ',' && c != '\r' && c != '\n' && c != EOF)
                return fail(r, r->line, r->nf + 1, "text after a closing quote (a quote "
                            "inside a quoted field is written twice: \"\")");
        } else {
            for (; c != ',' && c != '\r' && c != '\n' && c != EOF; c = next(r)) {
                if (c == '"')
                    return fail(r, r->line, r->nf + 1, "a quote inside an unquoted field "
                                "(quote the whole field and double the quote)");
                if (push(r, c))
                    return -1;
            }
        }
        put(r, 0);
        r->nf++;
        if (c == ',') {
            c = next(r);
            continue;
        }
        if (c == '\r' && next(r) != '\n')
            return fail(r, r->line, r->nf, "a carriage return not followed by a line feed");
        return 1;
    }
}

static const char *fld(const struct rd *r, unsigned i)
{
    return r->buf + r->off[i];
}

/* ---- From records to rows. ---- */

struct hdr {
    int col[CSVREAD_NCOLS]; /* the record's field holding each known column, -1 = absent */
    unsigned nf;
};

#define ROW_STR(c, m) { c, offsetof(struct csvread_row, m) }
static const struct { enum csvread_col col; size_t off; } str_cols[] = {
    ROW_STR(CSVREAD_TIMESTAMP, timestamp), ROW_STR(CSVREAD_HOST, host),
    ROW_STR(CSVREAD_CPU, cpu), ROW_STR(CSVREAD_KERNEL, kernel),
    ROW_STR(CSVREAD_OPENSSL, openssl), ROW_STR(CSVREAD_CAPABILITIES, capabilities),
    ROW_STR(CSVREAD_ALGORITHM, algorithm), ROW_STR(CSVREAD_DIRECTION, direction),
    ROW_STR(CSVREAD_PATH, path), ROW_STR(CSVREAD_IMPLEMENTATION, implementation),
    ROW_STR(CSVREAD_CYCLE_CLOCK, cycle_clock), ROW_STR(CSVREAD_VERIFIED_AGAINST, verified_against),
    ROW_STR(CSVREAD_STATUS, status), ROW_STR(CSVREAD_REASON, reason),
    ROW_STR(CSVREAD_QUALITY, quality), ROW_STR(CSVREAD_SAME_CODE_AS, same_code_as),
    ROW_STR(CSVREAD_FALLBACK, fallback), ROW_STR(CSVREAD_ABSOLUTE, absolute),
}, num_cols[] = {
    ROW_STR(CSVREAD_MB_PER_S, mb_per_s), ROW_STR(CSVREAD_MB_PER_S_MIN, mb_min),
    ROW_STR(CSVREAD_MB_PER_S_MAX, mb_max), ROW_STR(CSVREAD_SPREAD_PCT, spread_pct),
    ROW_STR(CSVREAD_CYCLES_PER_BYTE, cycles_per_byte),
    ROW_STR(CSVREAD_CPU_UTILISATION, cpu_utilisation),
    ROW_STR(CSVREAD_LIMIT_MB_PER_S, limit_mb_per_s), ROW_STR(CSVREAD_SYS_PCT, sys_pct),
    ROW_STR(CSVREAD_OPS_PER_S, ops_per_s), ROW_STR(CSVREAD_US_PER_OP, us_per_op),
    ROW_STR(CSVREAD_CLOCK_MHZ, clock_mhz), ROW_STR(CSVREAD_CI_PCT, ci_pct),
};
#undef ROW_STR

static int header(struct rd *r, struct hdr *h, struct csvread_set *set)
{
    int rc = record(r);
    if (rc <= 0)
        return rc < 0 ? -1 : fail(r, 1, 0, "empty file: no header row");
    for (int k = 0; k < CSVREAD_NCOLS; k++)
        h->col[k] = -1;
    h->nf = r->nf;
    for (unsigned i = 0; i < r->nf; i++) {
        const char *name = fld(r, i);
        if (i == 0 && !strncmp(name, "\xef\xbb\xbf", 3)) /* a spreadsheet's byte order mark */
            name += 3;
        for (int k = 0; k < CSVREAD_NCOLS; k++) {
            if (strcmp(name, csvread_col_name[k]))
                continue;
            if (h->col[k] >= 0)
                return fail(r, 1, i + 1, "column '%s' appears twice (also column %d)", name,
                            h->col[k] + 1);
            h->col[k] = (int)i;
        }
    }
    for (size_t q = 0; q < sizeof required / sizeof required[0]; q++)
        if (h->col[required[q]] < 0)
            return fail(r, 1, 0, "not a result of 'accelscope run --csv': no '%s' column "
                        "(required: algorithm, bytes, mb_per_s)", csvread_col_name[required[q]]);
    for (int k = 0; k < CSVREAD_NCOLS; k++)
        if (h->col[k] < 0)
            set->missing |= 1u << k;
    return 0;
}

/* A whole number in [lo, hi], digits only. */
static int whole(const char *s, unsigned long long lo, unsigned long long hi,
                 unsigned long long *v)
{
    if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 15)
        return -1;
    *v = strtoull(s, NULL, 10);
    return *v < lo || *v > hi ? -1 : 0;
}

static int numbers(struct rd *r, const struct hdr *h, struct csvread_row *row)
{
    for (size_t i = 0; i < sizeof num_cols / sizeof num_cols[0]; i++) {
        int c = h->col[num_cols[i].col];
        const char *s = c >= 0 ? fld(r, (unsigned)c) : "";
        double *d = (double *)((char *)row + num_cols[i].off);
        if (!*s)
            continue;
        /* as the writer writes it: "0x10" and "1e308" read as figures no machine gives and
         * break the tables' columns */
        if (text_decimal(s, d) || *d < 0 || *d > CSVREAD_MAX_NUMBER)
            return fail(r, r->rec_line, (unsigned)c + 1, "(%s): '%.40s' is not a decimal "
                        "number from 0 to 10^12", csvread_col_name[num_cols[i].col], s);
        if (num_cols[i].col == CSVREAD_MB_PER_S || num_cols[i].col == CSVREAD_OPS_PER_S)
            row->has_figure = 1;
    }
    if (row->ops_per_s > 0 && !row->mb_per_s) /* a public-key row: its rate is of ops */
        row->mb_per_s = row->ops_per_s / 1e6;
    unsigned long long v;
    int c = h->col[CSVREAD_BYTES];
    if (whole(fld(r, (unsigned)c), 1, 1ull << 40, &v))
        return fail(r, r->rec_line, (unsigned)c + 1, "(bytes): '%.40s' is not a size in bytes",
                    fld(r, (unsigned)c));
    row->bytes = (size_t)v;
    if ((c = h->col[CSVREAD_THREADS]) >= 0 && *fld(r, (unsigned)c)) {
        if (whole(fld(r, (unsigned)c), 1, 1u << 20, &v))
            return fail(r, r->rec_line, (unsigned)c + 1, "(threads): '%.40s' is not a thread "
                        "count", fld(r, (unsigned)c));
        row->threads = (int)v;
    }
    return 0;
}

static int row(struct rd *r, const struct hdr *h, struct csvread_set *set)
{
    if (r->nf != h->nf)
        return fail(r, r->rec_line, (r->nf < h->nf ? r->nf : h->nf) + 1,
                    "%s after %u fields; the header has %u",
                    r->nf < h->nf ? "the record ends" : "a field too many", r->nf, h->nf);
    if (set->n >= CSVREAD_MAX_ROWS)
        return fail(r, r->rec_line, 0, "more than %u rows: refused (a result file of "
                    "accelscope has a few hundred)", CSVREAD_MAX_ROWS);
    struct csvread_row *w = set_add(set);
    w->line = r->rec_line;
    for (size_t i = 0; i < sizeof str_cols / sizeof str_cols[0]; i++) {
        int c = h->col[str_cols[i].col];
        *(const char **)((char *)w + str_cols[i].off) =
            intern(set->pool, c >= 0 ? fld(r, (unsigned)c) : "");
    }
    if (!*w->algorithm)
        return fail(r, r->rec_line, (unsigned)h->col[CSVREAD_ALGORITHM] + 1,
                    "(algorithm): empty");
    if (numbers(r, h, w))
        return -1;
    w->ok = h->col[CSVREAD_STATUS] >= 0 ? !strcmp(w->status, "ok") : w->has_figure;
    if (w->ok && !w->has_figure)
        return fail(r, r->rec_line, (unsigned)h->col[CSVREAD_MB_PER_S] + 1,
                    "(mb_per_s): empty, yet the status is ok");
    return 0;
}

static int too_big(struct rd *r, unsigned long long bytes)
{
    return fail(r, r->line, 0, "%s%.1f MiB: larger than the %u MiB a result file may have; "
                "refused", bytes > CSVREAD_MAX_BYTES ? "" : "over ",
                (double)bytes / (1 << 20), CSVREAD_MAX_BYTES >> 20);
}

static int read_set(FILE *f, const char *name, size_t max_rows, struct csvread_set *set,
                    char *why, size_t n)
{
    struct rd *r = calloc(1, sizeof *r);
    if (!r)
        abort();
    *r = (struct rd){ .f = f, .name = name, .line = 1, .why = why, .wn = n };
    struct hdr h = { .nf = 0 };
    struct stat st;
    set_init(set, name);
    int rc = -1;
    if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) && st.st_size > CSVREAD_MAX_BYTES) {
        too_big(r, (unsigned long long)st.st_size);
        goto out;
    }
    if (header(r, &h, set))
        goto out;
    rc = 0;
    while (set->n < max_rows && (rc = record(r)) > 0) {
        if (r->bytes > CSVREAD_MAX_BYTES) {
            rc = too_big(r, r->bytes);
            break;
        }
        if (r->nf == 1 && !*fld(r, 0))
            continue; /* a blank line */
        if ((rc = row(r, &h, set)))
            break;
    }
    if (!rc && ferror(f))
        rc = fail(r, r->line, 0, "read error: %s", strerror(errno));
out:
    free(r->buf);
    free(r);
    if (rc) {
        csvread_free(set);
        return -1;
    }
    return 0;
}

int csvread_stream(FILE *f, const char *name, struct csvread_set *set, char *why, size_t n)
{
    return read_set(f, name, SIZE_MAX, set, why, n);
}

int csvread_head(const char *path, size_t max_rows, struct csvread_set *set, char *why,
                 size_t n)
{
    if (!strcmp(path, "-"))
        return read_set(stdin, "-", max_rows, set, why, n);
    FILE *f = fopen(path, "r");
    struct stat st;
    memset(set, 0, sizeof *set);
    if (!f) {
        snprintf(why, n, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
        snprintf(why, n, "%s is a folder: give a CSV file written by 'accelscope run'", path);
        fclose(f);
        return -1;
    }
    int rc = read_set(f, path, max_rows, set, why, n);
    fclose(f);
    return rc;
}

int csvread_file(const char *path, struct csvread_set *set, char *why, size_t n)
{
    return csvread_head(path, SIZE_MAX, set, why, n);
}

static void cell_row(const struct cell *c, const char *ts, struct csvread_set *set)
{
    const struct machine *m = machine_get();
    const struct result *r = &c->r;
    struct csvread_pool *p = set->pool;
    struct csvread_row *w = set_add(set);
    char st[48];
    w->timestamp = intern(p, ts);
    w->host = intern(p, m->host);
    w->cpu = intern(p, m->cpu);
    w->kernel = intern(p, m->kernel);
    w->openssl = intern(p, m->openssl);
    w->capabilities = intern(p, r->capvec);
    w->algorithm = intern(p, c->impl->alg);
    w->direction = intern(p, csv_direction(c));
    w->path = intern(p, path_id[c->impl->path]);
    w->implementation = intern(p, c->impl->name);
    w->verified_against = intern(p, r->reference);
    w->status = intern(p, result_status_text(r, st, sizeof st));
    w->bytes = c->bytes;
    w->threads = r->threads > 0 ? r->threads : 1;
    w->limit_mb_per_s = c->limit_mb_per_s;
    w->line = (unsigned)set->n + 1;
    if (c->d.same_as) { /* as csv.c writes it */
        char b[160];
        snprintf(b, sizeof b, "%s/%s", path_id[c->d.same_as->path], c->d.same_as->name);
        w->same_code_as = intern(p, b);
    }
    if (!(w->ok = w->has_figure = r->status == RES_OK)) {
        w->reason = intern(p, r->reason);
        return;
    }
    w->cycle_clock = intern(p, r->cycle_clock);
    w->mb_per_s = r->mb_per_s;
    w->mb_min = r->mb_min;
    w->mb_max = r->mb_max;
    w->spread_pct = r->spread_pct;
    w->cycles_per_byte = r->cycles_per_byte;
    w->cpu_utilisation = r->cpu_util;
    w->quality = intern(p, r->quality == RESULT_NOISY ? "noisy"
                           : r->quality == RESULT_QUIET ? "quiet" : "");
    w->absolute = intern(p, r->quality == RESULT_UNRATED ? "" /* as csv.c writes it */
                            : stats_absolute_quiet(r) ? "quiet" : "noisy");
    w->sys_pct = r->sys_pct;
    w->clock_mhz = r->clock_mhz;
    w->ci_pct = r->ci_hi > 0 ? r->ci_pct : 0; /* as csv.c writes it */
    w->fallback = intern(p, r->fallback ? r->fallback_why : "");
    const struct algo *a = algo_find(c->impl->alg);
    if (a && !algo_sized(a) && r->mb_per_s > 0) {
        w->ops_per_s = r->mb_per_s * 1e6;
        w->us_per_op = 1e6 / w->ops_per_s;
    }
}

int csvread_from_cells(const struct cell *cells, size_t n, const char *name,
                       struct csvread_set *set)
{
    char ts[32];
    csv_timestamp(time(NULL), ts, sizeof ts);
    set_init(set, name);
    for (size_t i = 0; i < n; i++)
        if (cells[i].r.status != RES_PENDING && cells[i].r.status != RES_RUNNING)
            cell_row(&cells[i], ts, set);
    return 0;
}
