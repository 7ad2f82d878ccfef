/* A reader for OpenSSL's evp test-data format (test/recipes/30-test_evp_data/), so tests
 * can take known answers from the standards' own vector files, copied into tests/vectors/.
 *
 * Format: records are blocks of "Name = value" lines separated by blank lines; '#' starts a
 * comment line; a block holding only "Title = ..." names the source of the records after it.
 * A value is hex ("00ff"), a quoted string ("abc", taken literally) or empty (zero bytes).
 *
 * Use:
 *     struct vec_file vf;
 *     struct vec_rec r;
 *     if (vec_open(&vf, "evpmd_sha.txt") != 0) { CHECK(0, "%s", vf.why); ... }
 *     while (vec_next(&vf, &r) == 1) {
 *         if (!vec_is(&r, "Digest", "SHA256")) continue;
 *         size_t n; const uint8_t *in = vec_get(&r, "Input", &n);   // NULL when absent
 *         ... r.title, r.line name the vector in messages ...
 *     }
 *     vec_close(&vf);
 * Digest records may split their input ("Input" chunks with "Ncopy"/"Count"): vec_input()
 * expands them into one malloc'd message as OpenSSL's evp_test does.
 *
 * Files are looked for in $ACCELSCOPE_VECTORS, tests/vectors (run from the repo root), and
 * tests/vectors three levels above the test binary (build/<dir>/tests/t_x).
 */
#ifndef ACCELSCOPE_VECTORS_H
#define ACCELSCOPE_VECTORS_H

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define VEC_MAX_FIELDS 24
#define VEC_FN static __attribute__((unused))

struct vec_field {
    char name[32];
    char *raw;     /* value as written, malloc'd */
    uint8_t *data; /* decoded bytes, malloc'd (never NULL) */
    size_t len;
};

struct vec_rec {
    char kind[16];  /* first keyword of the record: "Cipher", "Digest", "MAC", ... */
    const char *alg; /* its value: "AES-128-CBC" */
    char title[160]; /* latest Title line before the record: the source to cite */
    int line;        /* line of the record's first field */
    int nfields;
    struct vec_field f[VEC_MAX_FIELDS];
};

struct vec_file {
    FILE *fp;
    char path[512];
    char title[160];
    int lineno;
    char why[600]; /* reason when vec_open or vec_next fails */
};

/* Keywords that begin a test record (evp_test.c's test types). */
static const char *const vec_kinds[] = { "Cipher", "Digest", "MAC", "KDF", "PKEYKDF", "Decrypt",
                                         "Sign", "Verify", "VerifyRecover", "Derive",
                                         "Encoding", "PBE", "PrivPubKeyPair", "Rand" };

VEC_FN void vec_rec_free(struct vec_rec *r)
{
    for (int i = 0; i < r->nfields; i++) {
        free(r->f[i].raw);
        free(r->f[i].data);
    }
    r->nfields = 0;
    r->alg = NULL;
    r->kind[0] = 0;
}

VEC_FN int vec_try(struct vec_file *vf, const char *dir, const char *name)
{
    snprintf(vf->path, sizeof vf->path, "%s/%s", dir, name);
    vf->fp = fopen(vf->path, "r");
    return vf->fp != NULL;
}

/* 0 on success; otherwise -1 with the places tried in vf->why. */
VEC_FN int vec_open(struct vec_file *vf, const char *name)
{
    memset(vf, 0, sizeof *vf);
    const char *env = getenv("ACCELSCOPE_VECTORS");
    if (env && *env && vec_try(vf, env, name))
        return 0;
    if (vec_try(vf, "tests/vectors", name))
        return 0;
    char exe[400];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        for (int up = 0; up < 4; up++) { /* strip t_x, tests, <dir>, build */
            char *slash = strrchr(exe, '/');
            if (!slash)
                break;
            *slash = 0;
        }
        char dir[480];
        snprintf(dir, sizeof dir, "%s/tests/vectors", exe);
        if (vec_try(vf, dir, name))
            return 0;
    }
    snprintf(vf->why, sizeof vf->why,
             "vector file %s not found in $ACCELSCOPE_VECTORS, ./tests/vectors or next to the "
             "test binary: run from the repository root or set ACCELSCOPE_VECTORS",
             name);
    return -1;
}

VEC_FN void vec_close(struct vec_file *vf)
{
    if (vf->fp)
        fclose(vf->fp);
    vf->fp = NULL;
}

static inline int vec_hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = tolower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Decodes a value into f->data; -1 when it is neither hex nor a quoted string. */
VEC_FN int vec_decode(struct vec_field *f)
{
    const char *v = f->raw;
    size_t n = strlen(v);
    f->data = malloc(n + 1);
    if (!f->data)
        return -1;
    f->len = 0;
    if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
        memcpy(f->data, v + 1, n - 2);
        f->len = n - 2;
        return 0;
    }
    if (n % 2)
        return -1;
    for (size_t i = 0; i < n; i += 2) {
        int hi = vec_hexval((unsigned char)v[i]), lo = vec_hexval((unsigned char)v[i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        f->data[f->len++] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

static inline char *vec_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    return s;
}

/* Reads the next test record. 1 = got one, 0 = end of file, -1 = malformed (vf->why says
 * where). The previous contents of r are freed; call vec_rec_free after the last one. */
VEC_FN int vec_next(struct vec_file *vf, struct vec_rec *r)
{
    static char line[1 << 16]; /* XTS vectors run to ~1 KiB; room to spare */
    vec_rec_free(r);
    for (;;) {
        int eof = fgets(line, sizeof line, vf->fp) == NULL;
        if (!eof)
            vf->lineno++;
        char *s = eof ? line : vec_trim(line);
        if (eof || *s == 0) { /* end of a block */
            if (eof)
                *s = 0;
            if (r->alg) {
                snprintf(r->title, sizeof r->title, "%s", vf->title);
                return 1;
            }
            vec_rec_free(r); /* a block of only Availablein/Title lines */
            if (eof)
                return 0;
            continue;
        }
        if (*s == '#')
            continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            snprintf(vf->why, sizeof vf->why, "%s:%d: no '=' in \"%.60s\"", vf->path,
                     vf->lineno, s);
            return -1;
        }
        *eq = 0;
        char *name = vec_trim(s), *val = vec_trim(eq + 1);
        if (strcmp(name, "Title") == 0) {
            snprintf(vf->title, sizeof vf->title, "%s", val);
            continue;
        }
        if (r->nfields == VEC_MAX_FIELDS) {
            snprintf(vf->why, sizeof vf->why, "%s:%d: more than %d fields", vf->path,
                     vf->lineno, VEC_MAX_FIELDS);
            return -1;
        }
        struct vec_field *f = &r->f[r->nfields];
        snprintf(f->name, sizeof f->name, "%s", name);
        f->raw = strdup(val);
        f->data = NULL;
        f->len = 0;
        if (!f->raw) {
            snprintf(vf->why, sizeof vf->why, "out of memory");
            return -1;
        }
        r->nfields++;
        if (vec_decode(f) != 0)
            f->len = 0; /* not bytes ("ENCRYPT", "1000"): raw still has it */
        if (!f->data) {
            snprintf(vf->why, sizeof vf->why, "out of memory");
            return -1;
        }
        if (!r->alg) {
            for (size_t k = 0; k < sizeof vec_kinds / sizeof vec_kinds[0]; k++) {
                if (strcmp(name, vec_kinds[k]) == 0) {
                    snprintf(r->kind, sizeof r->kind, "%s", name);
                    r->alg = f->raw;
                    r->line = vf->lineno;
                }
            }
        }
    }
}

/* The first field called name, or NULL. */
VEC_FN const struct vec_field *vec_field(const struct vec_rec *r, const char *name)
{
    for (int i = 0; i < r->nfields; i++)
        if (strcmp(r->f[i].name, name) == 0)
            return &r->f[i];
    return NULL;
}

/* Decoded bytes of the first field called name (len set), or NULL when absent. */
VEC_FN const uint8_t *vec_get(const struct vec_rec *r, const char *name, size_t *len)
{
    const struct vec_field *f = vec_field(r, name);
    if (len)
        *len = f ? f->len : 0;
    return f ? f->data : NULL;
}

/* The raw text of a field, or NULL when absent ("ENCRYPT", "TAG_SET_ERROR"). */
VEC_FN const char *vec_str(const struct vec_rec *r, const char *name)
{
    const struct vec_field *f = vec_field(r, name);
    return f ? f->raw : NULL;
}

/* 1 when the record is of this kind and algorithm (case-insensitive, as OpenSSL names). */
VEC_FN int vec_is(const struct vec_rec *r, const char *kind, const char *alg)
{
    return r->alg && strcmp(r->kind, kind) == 0 && strcasecmp(r->alg, alg) == 0;
}

/* 1 when the record can run on the default provider: no Availablein, or "default". Records
 * marked for "legacy" or "fips" only are reported by the caller, not silently dropped. */
VEC_FN int vec_default_provider(const struct vec_rec *r)
{
    const char *a = vec_str(r, "Availablein");
    return !a || strcmp(a, "default") == 0;
}

/* 1 when the record expects an error (Result = ...), i.e. is a negative case. */
VEC_FN int vec_negative(const struct vec_rec *r)
{
    return vec_str(r, "Result") != NULL;
}

/* 1 when the record applies to the given direction: Operation absent means both. */
VEC_FN int vec_for_op(const struct vec_rec *r, int decrypt)
{
    const char *op = vec_str(r, "Operation");
    if (!op)
        return 1;
    return decrypt ? strcasecmp(op, "DECRYPT") == 0 : strcasecmp(op, "ENCRYPT") == 0;
}

/* The message of a Digest record: its Input chunks in order, each repeated by the Ncopy and
 * Count that follow it (evp_test semantics). Returns a malloc'd buffer (free it) and its
 * length in *len; NULL on a missing Input or out of memory. */
VEC_FN uint8_t *vec_input(const struct vec_rec *r, size_t *len)
{
    size_t total = 0, cap = 64;
    uint8_t *buf = malloc(cap);
    int seen = 0;
    if (!buf)
        return NULL;
    for (int i = 0; i < r->nfields; i++) {
        if (strcmp(r->f[i].name, "Input") != 0)
            continue;
        seen = 1;
        unsigned long reps = 1;
        for (int j = i + 1; j < r->nfields && strcmp(r->f[j].name, "Input") != 0; j++)
            if (strcmp(r->f[j].name, "Ncopy") == 0 || strcmp(r->f[j].name, "Count") == 0)
                reps *= strtoul(r->f[j].raw, NULL, 10);
        size_t add = r->f[i].len * reps;
        if (total + add + 1 > cap) {
            cap = total + add + 1;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
        }
        for (unsigned long k = 0; k < reps; k++) {
            memcpy(buf + total, r->f[i].data, r->f[i].len);
            total += r->f[i].len;
        }
    }
    if (!seen) {
        free(buf);
        return NULL;
    }
    *len = total;
    return buf;
}

#endif
