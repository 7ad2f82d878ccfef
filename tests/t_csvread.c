/* The CSV reader (csvread.h) on hostile input: the writer's own files read back with the same
 * cells and figures (also through the results folder, store.h), RFC 4180 corners, files of
 * an older schema and unknown columns, and malformed files refused with their line and
 * column, never a crash; files over the limits refused without being read whole. */
#include <math.h>
#include <time.h>
#include <stdlib.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../src/csvread.h"
#include "check.h"
#include "lastrun.h"
#include "csv.h"
#include "derive.h"
#include "fakecells.h"
#include "machine.h"
#include "store.h"
#include "csvread.h" /* tests/csvread.h: csvr_slurp */

static char dir[] = "/tmp/acs-csvread.XXXXXX";

static int write_text(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    fwrite(text, 1, len, f);
    return fclose(f);
}

/* Reads text as a file; 0 or -1 with why. */
static int read_text(const char *text, struct csvread_set *s, char *why, size_t n)
{
    char p[256];
    snprintf(p, sizeof p, "%s/t.csv", dir);
    write_text(p, text, strlen(text));
    return csvread_file(p, s, why, n);
}

static int near(double a, double b)
{
    return fabs(a - b) <= 0.0006 + 1e-6 * fabs(b);
}

/* Every field compare uses, as the file gives it and as the cells give it in memory. */
static int same_row(const struct csvread_row *a, const struct csvread_row *b)
{
    return !strcmp(a->host, b->host) && !strcmp(a->cpu, b->cpu) &&
           !strcmp(a->kernel, b->kernel) && !strcmp(a->openssl, b->openssl) &&
           !strcmp(a->capabilities, b->capabilities) && !strcmp(a->algorithm, b->algorithm) &&
           !strcmp(a->direction, b->direction) && !strcmp(a->path, b->path) &&
           !strcmp(a->implementation, b->implementation) && !strcmp(a->status, b->status) &&
           !strcmp(a->reason, b->reason) && !strcmp(a->verified_against, b->verified_against) &&
           a->bytes == b->bytes && a->threads == b->threads && a->ok == b->ok &&
           a->has_figure == b->has_figure && near(a->mb_per_s, b->mb_per_s) &&
           near(a->clock_mhz, b->clock_mhz) && !strcmp(a->absolute, b->absolute) &&
           near(a->ci_pct, b->ci_pct) &&
           near(a->mb_min, b->mb_min) && near(a->mb_max, b->mb_max) &&
           near(a->spread_pct, b->spread_pct) && near(a->limit_mb_per_s, b->limit_mb_per_s);
}

static size_t fake_run(struct cell *c)
{
    size_t n = 0;
    c[n++] = fake_cell("sha256", "portable", 16, RES_OK, 47.25);
    c[n++] = fake_cell("sha256", "openssl-int", 16, RES_OK, 32.125);
    c[n++] = fake_cell("sha256", "openssl", 16, RES_OK, 1035.5);
    c[n++] = fake_cell("sha256", "kernel", 16, RES_UNAVAILABLE, 0);
    c[n++] = fake_cell("aes-128-gcm", "openssl", 16384, RES_OK, 2341.5);
    c[n++] = fake_cell("aes-128-gcm", "openssl", 16384, RES_WRONG, 0);
    c[n - 1].decrypt = 1;
    for (size_t i = 0; i < n; i++) /* whole MHz, as the CSV writes them */
        c[i].r.clock_mhz = c[i].r.status == RES_OK ? 2900 + 10 * (double)i : 0;
    /* absolute: one quiet cell that claims its MB/s repeats, one too wide to (csv.c) */
    c[1].r.quality = c[2].r.quality = RESULT_QUIET;
    c[1].r.ci_pct = 1.5, c[1].r.ci_hi = c[1].r.mb_per_s * 1.015;
    c[2].r.ci_pct = 2.5, c[2].r.ci_hi = c[2].r.mb_per_s * 1.025;
    derive_cells(c, n);
    return n;
}

static void check_round_trip(const char *what, const char *path, const struct cell *c, size_t n)
{
    struct csvread_set file, mem;
    char why[512];
    CHECK(csvread_file(path, &file, why, sizeof why) == 0, "%s: reads back: %s", what, why);
    csvread_from_cells(c, n, "memory", &mem);
    CHECK(file.n == n && mem.n == n, "%s: %zu rows in the file, %zu in memory, %zu cells", what,
          file.n, mem.n, n);
    for (size_t i = 0; i < file.n && i < mem.n; i++)
        CHECK(same_row(&file.rows[i], &mem.rows[i]), "%s: row %zu (%s %s) the same", what, i,
              mem.rows[i].algorithm, mem.rows[i].implementation);
    CHECK(file.n > 5 && !strcmp(file.rows[5].direction, "decrypt") &&
              !strcmp(file.rows[5].status, "wrong output") && !file.rows[5].ok &&
              strstr(file.rows[5].reason, "\"openssl\", here,\nsecond"),
          "%s: quoted reason with a quote, a comma and a newline survives", what);
    CHECK(file.missing == 0, "%s: every column present (missing %#x)", what, file.missing);
    CHECK(file.n > 2 && !strcmp(file.rows[0].absolute, "") &&
              !strcmp(file.rows[1].absolute, "quiet") && !strcmp(file.rows[2].absolute, "noisy") &&
              file.rows[1].ci_pct == 1.5, "%s: absolute: not rated, quiet at +-1.5 %%, noisy at "
          "+-2.5 %%", what);
    csvread_free(&file);
    csvread_free(&mem);
}

static void test_round_trip(void)
{
    struct cell c[8];
    size_t n = fake_run(c);
    char p[256], why[512], saved[4200], saved2[4200];
    snprintf(p, sizeof p, "%s/rt.csv", dir);
    CHECK(csv_write_file(p, 0, c, n, why, sizeof why) == 0, "csv_write_file: %s", why);
    check_round_trip("csv_write_file", p, c, n);

    snprintf(p, sizeof p, "%s/xdg", dir);
    setenv("XDG_DATA_HOME", p, 1);
    CHECK(store_save(c, n, saved, sizeof saved, why, sizeof why) == 0, "store_save: %s", why);
    CHECK(store_save(c, n, saved2, sizeof saved2, why, sizeof why) == 0, "store_save again: %s",
          why);
    snprintf(p, sizeof p, "%s/xdg/accelscope/results/", dir);
    CHECK(!strncmp(saved, p, strlen(p)) && strstr(saved, ".csv"), "saved under "
          "$XDG_DATA_HOME/accelscope/results: %s", saved);
    CHECK(strcmp(saved, saved2) != 0, "a second save never overwrites the first: %s", saved2);
    check_round_trip("store_save", saved, c, n);
    check_round_trip("store_save (second)", saved2, c, n);
    char name[128];
    store_name("my host/x", 0, 3, name, sizeof name);
    CHECK(!strcmp(name, "my_host_x-19700101T000000Z-3.csv"), "store_name: %s", name);

    /* No XDG_DATA_HOME: HOME's .local/share, as the XDG spec says. */
    unsetenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    setenv("HOME", "/nonexistent-home", 1);
    CHECK(store_dir(p, sizeof p, why, sizeof why) == 0 &&
          !strcmp(p, "/nonexistent-home/.local/share/accelscope/results"), "default: %s", p);
    if (home)
        setenv("HOME", home, 1);
    /* A results folder that cannot be made: an error, nothing half-written. */
    snprintf(p, sizeof p, "%s/rt.csv", dir);
    setenv("XDG_DATA_HOME", p, 1); /* a file where a folder should be */
    CHECK(store_save(c, n, saved, sizeof saved, why, sizeof why) == -1 && strstr(why, "rt.csv"),
          "unsavable folder: error names it: %s", why);
    snprintf(p, sizeof p, "%s/xdg", dir);
    setenv("XDG_DATA_HOME", p, 1);
}

static void test_rfc4180(void)
{
    struct csvread_set s;
    char why[512];
    /* CRLF, a doubled quote, a newline inside quotes (the record spans two lines, so the
     * next record starts on line 4), a byte order mark, a blank line, no final newline. */
    const char *text = "\xef\xbb\xbf" "algorithm,bytes,mb_per_s,reason,status\r\n"
                       "sha256,16,1.5,\"a \"\"quoted\"\" word, and\r\nmore\",ok\r\n"
                       "md5,64,,why,unavailable\r\n"
                       "\r\n"
                       "\"sha1\",1024,3e2,,ok";
    CHECK(read_text(text, &s, why, sizeof why) == 0, "RFC 4180 corners: %s", why);
    CHECK(s.n == 3, "three rows (blank line skipped): %zu", s.n);
    if (s.n == 3) {
        CHECK(!strcmp(s.rows[0].reason, "a \"quoted\" word, and\r\nmore"), "quoted field: [%s]",
              s.rows[0].reason);
        CHECK(s.rows[1].line == 4 && !s.rows[1].ok && !s.rows[1].has_figure,
              "line numbers count the newline inside quotes: %u", s.rows[1].line);
        CHECK(!strcmp(s.rows[2].algorithm, "sha1") && s.rows[2].mb_per_s == 300 &&
              s.rows[2].ok && s.rows[2].bytes == 1024, "quoted plain field, no final newline");
        CHECK(!strcmp(s.rows[0].host, "") && s.rows[0].threads == 1,
              "absent columns: empty strings, one thread");
        CHECK(s.rows[0].algorithm != NULL && s.rows[0].algorithm != s.rows[1].algorithm,
              "strings kept per row");
    }
    csvread_free(&s);
}

static void test_schemas(void)
{
    struct csvread_set cur, old, extra;
    char why[512];
    CHECK(csvread_file("tests/data/epyc-milan.csv", &cur, why, sizeof why) == 0, "%s", why);
    CHECK(csvread_file("tests/data/old-schema.csv", &old, why, sizeof why) == 0,
          "older schema (no direction, figures' range, capabilities...) loads: %s", why);
    CHECK(csvread_file("tests/data/extra-columns.csv", &extra, why, sizeof why) == 0,
          "columns reordered, an unknown one, CRLF: loads: %s", why);
    CHECK(cur.n == 60 && old.n == cur.n && extra.n == cur.n, "60 rows each: %zu %zu %zu",
          cur.n, old.n, extra.n);
    CHECK(old.missing & (1u << CSVREAD_DIRECTION) && old.missing & (1u << CSVREAD_CAPABILITIES) &&
          !(old.missing & (1u << CSVREAD_STATUS)), "missing columns known: %#x", old.missing);
    for (size_t i = 0; i < cur.n && i < old.n && i < extra.n; i++) {
        const struct csvread_row *a = &cur.rows[i], *b = &old.rows[i], *c = &extra.rows[i];
        CHECK(same_row(a, c), "row %zu: same through reordered columns", i);
        CHECK(!strcmp(a->algorithm, b->algorithm) && !strcmp(a->implementation, b->implementation)
              && a->bytes == b->bytes && a->mb_per_s == b->mb_per_s && a->ok == b->ok &&
              !strcmp(b->direction, "") && !strcmp(b->capabilities, "") && b->mb_max == 0,
              "row %zu: older schema has what it had, nothing invented", i);
    }
    csvread_free(&cur);
    csvread_free(&old);
    csvread_free(&extra);
}

struct bad {
    const char *text; /* a file's content; NULL: file in tests/data */
    const char *file;
    const char *says;
};

static void test_malformed(void)
{
/* One record under the least header: algorithm, bytes, mb_per_s. */
#define REC(fields) "algorithm,bytes,mb_per_s\n" fields "\n"
    static const struct bad bads[] = {
        { NULL, "malformed-quote.csv", "line 4, column 27: unterminated quoted field" },
        { NULL, "malformed-fields.csv", "line 3, column 26: the record ends after 25 fields; "
                                        "the header has 27" },
        { NULL, "malformed-number.csv", "line 5, column 14 (mb_per_s): 'fast' is not a decimal "
                                        "number from 0 to 10^12" },
        /* strtod takes these; the writer never writes them, and the tables cannot show them */
        { REC("sha256,16,0x10"), NULL, "(mb_per_s): '0x10' is not a decimal" },
        { REC("sha256,16, 1"), NULL, "(mb_per_s): ' 1' is not a decimal" },
        { REC("sha256,16,1e308"), NULL, "(mb_per_s): '1e308' is not a" },
        { REC("sha256,16,infinity"), NULL, "'infinity' is not a" },
        { "algorithm,bytes,mb_per_s,clock_mhz\nsha256,16,1,0x1p12\n", NULL, "(clock_mhz): '0x1p12'" },
        { NULL, "malformed-binary.csv", "line 1: not a result of 'accelscope run --csv': no "
                                        "'algorithm' column" },
        { "", NULL, "line 1: empty file" },
        { "algorithm,bytes\nsha256,16\n", NULL, "no 'mb_per_s' column" },
        { "algorithm,bytes,mb_per_s,bytes\n", NULL, "line 1, column 4: column 'bytes' appears "
                                                    "twice (also column 2)" },
        { REC("sha256,16,1,2"), NULL, "line 2, column 4: a field too many" },
        { REC("sha256,16k,1"), NULL, "line 2, column 2 (bytes): '16k'" },
        { REC("sha256,0,1"), NULL, "line 2, column 2 (bytes)" },
        { REC("sha256,16,-1"), NULL, "line 2, column 3 (mb_per_s): '-1'" },
        { REC("sha256,16,nan"), NULL, "line 2, column 3 (mb_per_s)" },
        { REC("sha256,16,1e999"), NULL, "line 2, column 3 (mb_per_s)" },
        { "algorithm,bytes,mb_per_s,status\nsha256,16,,ok\n", NULL,
          "line 2, column 3 (mb_per_s): empty, yet the status is ok" },
        { "algorithm,bytes,mb_per_s\n,16,1\n", NULL, "line 2, column 1 (algorithm): empty" },
        { "algorithm,bytes,mb_per_s\nsha\"256,16,1\n", NULL, "line 2, column 1: a quote inside" },
        { "algorithm,bytes,mb_per_s\n\"sha256\"x,16,1\n", NULL, "line 2, column 1: text after a "
                                                              "closing quote" },
        { "algorithm,bytes,mb_per_s\nsha256,16,1\r\r\n", NULL, "line 2, column 3: a carriage "
                                                              "return" },
        { "algorithm,bytes,mb_per_s,threads\nsha256,16,1,many\n", NULL, "column 4 (threads)" },
    };
#undef REC
    for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
        struct csvread_set s;
        char why[512] = "", p[256];
        int rc;
        if (bads[i].file) {
            snprintf(p, sizeof p, "tests/data/%s", bads[i].file);
            rc = csvread_file(p, &s, why, sizeof why);
        } else {
            snprintf(p, sizeof p, "%s/bad.csv", dir);
            write_text(p, bads[i].text, strlen(bads[i].text));
            rc = csvread_file(p, &s, why, sizeof why);
        }
        CHECK(rc == -1 && strstr(why, bads[i].says) && strstr(why, p),
              "bad %zu: refused with '%s', file named: got rc %d '%s'", i, bads[i].says, rc, why);
        CHECK(s.n == 0 && s.rows == NULL, "bad %zu: nothing kept", i);
    }
}

/* Junk with a NUL inside, and random bytes: an error or rows, never a crash (the suite also
 * runs under ASan and UBSan). */
static void test_junk(void)
{
    static const char nul[] = "algorithm,bytes,mb_per_s\nsha256,16,1\nsha\0\xff\xfe,1,2\n";
    char p[256], why[512];
    struct csvread_set s;
    snprintf(p, sizeof p, "%s/junk.csv", dir);
    write_text(p, nul, sizeof nul - 1);
    CHECK(csvread_file(p, &s, why, sizeof why) == -1 &&
          strstr(why, "line 3, column 1: binary data (a NUL byte)"), "NUL byte: %s", why);
    unsigned x = 12345, refused = 0;
    static const char alphabet[] = "a,\"\r\n1.e-x\0\xff";
    for (int t = 0; t < 3000; t++) {
        char buf[160];
        size_t len = 26;
        memcpy(buf, "algorithm,bytes,mb_per_s\n", 26);
        size_t more = (x = x * 1103515245 + 12345) % 120;
        for (size_t k = 0; k < more; k++)
            buf[len++] = alphabet[((x = x * 1103515245 + 12345) >> 16) % (sizeof alphabet - 1)];
        write_text(p, buf, len);
        int rc = csvread_file(p, &s, why, sizeof why);
        refused += rc != 0;
        if (rc == 0)
            csvread_free(&s);
        else if (!strstr(why, "line ")) {
            CHECK(0, "junk %d: error names no line: %s", t, why);
            break;
        }
    }
    CHECK(refused > 0, "random junk refused with a line (%u of 3000)", refused);

    /* The message quotes the field, and is printed: no control character in it. */
    CHECK(read_text("algorithm,bytes,mb_per_s\nsha256,\x1b]0;t\x07\x1b[31m,1\n", &s, why,
                    sizeof why) == -1 && strstr(why, "'?]0;t??[31m' is not a size") &&
          !strchr(why, '\x1b') && !strchr(why, '\x07'), "a field quoted as text: %s", why);
}

/* Bytes this process has read so far (rchar of /proc/self/io, which counts every read(),
 * a read of this file included); -1 where there is no such count. */
static long long bytes_read(void)
{
    FILE *f = fopen("/proc/self/io", "r");
    long long v = -1;
    if (f && fscanf(f, "rchar: %lld", &v) != 1)
        v = -1;
    if (f)
        fclose(f);
    return v;
}

/* Over the limits: refused with a message, and without reading the file whole. */
static void test_limits(void)
{
    char p[256], why[512];
    struct csvread_set s;
    snprintf(p, sizeof p, "%s/huge.csv", dir);
    FILE *f = fopen(p, "w");
    fputs("algorithm,bytes,mb_per_s\n", f);
    fclose(f);
    /* Past the header the sparse file is NUL bytes, which the reader refuses at line 2 (see
     * test_junk): a refusal naming the size, not the NUL byte, came before any reading; and
     * the process read less than one buffer of it, by the kernel's own count of bytes read. */
    CHECK(truncate(p, (off_t)CSVREAD_MAX_BYTES + 1) == 0, "sparse file of 64 MiB + 1");
    long long r0 = bytes_read();
    CHECK(csvread_file(p, &s, why, sizeof why) == -1 && strstr(why, "64 MiB") &&
              !strstr(why, "NUL"), "huge, refused by its size: %s", why);
    long long r1 = bytes_read();
    if (r0 < 0 || r1 < 0)
        UNAVAILABLE("bytes read while refusing a huge file", "no /proc/self/io (rchar)");
    else
        CHECK(r1 - r0 < 1024, "refused before reading it: %lld bytes read", r1 - r0);

    f = fopen(p, "w");
    fputs("algorithm,bytes,mb_per_s\n", f);
    for (unsigned i = 0; i <= CSVREAD_MAX_ROWS; i++)
        fputs("a,1,\n", f);
    fclose(f);
    CHECK(csvread_file(p, &s, why, sizeof why) == -1 && strstr(why, "more than 1000000 rows") &&
          strstr(why, "line 1000002"), "1,000,001 rows refused: %s", why);
    unlink(p);
}

/* The open dialog's list: saved runs and a folder's CSV files, newest first, each with its
 * first row's host, CPU and time; a bad file listed with why. */
static void test_list(void)
{
    struct cell c[8];
    size_t n = fake_run(c);
    char p[512], why[512], saved[4200];
    snprintf(p, sizeof p, "%s/xdg-list", dir);
    setenv("XDG_DATA_HOME", p, 1);
    struct store_entry *e;
    CHECK(store_list(NULL, &e) == 0 && e == NULL, "no results folder yet: empty list");
    CHECK(store_save(c, n, saved, sizeof saved, why, sizeof why) == 0, "saved: %s", why);
    snprintf(p, sizeof p, "%s/here", dir);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/here/Bad.CSV", dir);
    write_text(p, "algorithm,bytes\n", 16);
    snprintf(p, sizeof p, "%s/here/notes.txt", dir);
    write_text(p, "x", 1);
    snprintf(p, sizeof p, "%s/here/westmere.csv", dir);
    char *data = csvr_slurp("tests/data/westmere-qemu.csv");
    write_text(p, data ? data : "", data ? strlen(data) : 0);
    free(data);
    struct timespec old[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
    utimensat(AT_FDCWD, p, old, 0); /* an old file: last in the list */
    snprintf(p, sizeof p, "%s/here", dir);
    size_t k = store_list(p, &e);
    CHECK(k == 3, "three files: the saved run, Bad.CSV, westmere.csv (not notes.txt): %zu", k);
    if (k == 3) {
        CHECK(!strcmp(e[2].path + strlen(e[2].path) - 12, "westmere.csv") && e[2].ok &&
              strstr(e[2].cpu, "Westmere") && !strcmp(e[2].timestamp, "2026-11-30T22:16:04Z") &&
              !strcmp(e[2].host, "vm"), "the oldest last, with host, CPU and time");
        int bad = !e[0].ok ? 0 : 1, good = !bad;
        CHECK(!e[bad].ok && strstr(e[bad].why, "no 'mb_per_s' column") && e[good].ok &&
              !strcmp(e[good].path, saved), "a bad file is listed with why; the saved run too");
    }
    free(e);
    struct csvread_set s;
    CHECK(csvread_head("tests/data/malformed-number.csv", 2, &s, why, sizeof why) == 0 &&
          s.n == 2, "csvread_head: stops before the bad line 5");
    csvread_free(&s);
    snprintf(p, sizeof p, "%s/xdg", dir);
    setenv("XDG_DATA_HOME", p, 1);
}

/* A copy of the saved run at from, into to, with the first row's field value changed (its
 * first character): another host's or another CPU's run. 0, or -1 when value is not there. */
static int variant(const char *from, const char *to, const char *value)
{
    char *text = csvr_slurp(from), *at = text ? strstr(text, "\n") : NULL;
    int rc = -1;
    if (at && strlen(value) > 1 && (at = strstr(at, value))) {
        at[0] = at[0] == 'x' ? 'y' : 'x';
        write_text(to, text, strlen(text));
        rc = 0;
    }
    free(text);
    return rc;
}

/* The last saved run's clocks (lastrun.h): the newest run of this host and CPU that has
 * quiet clocks; each cell's own, else the same implementation's at the same thread count,
 * else every cell's at that count; none in a fresh folder. */
static void test_lastrun(void)
{
    struct cell c[8];
    size_t n = fake_run(c);
    char p[512], why[512], saved[4200], bare[4200], host[600], cpu[600];
    snprintf(p, sizeof p, "%s/xdg-clock", dir);
    setenv("XDG_DATA_HOME", p, 1);
    struct lastrun *ref = lastrun_load(why, sizeof why);
    CHECK(!ref && strstr(why, "no saved run of this machine"), "no saved run: no reference (%s)",
          why);
    lastrun_free(ref);
    for (size_t i = 0; i < n; i++)
        c[i].r.clock_mhz = 3000 + 100 * (double)i; /* the failed ones write none */
    c[2].r.quality = RESULT_NOISY; /* a noisy row stands for nothing */
    c[1].r.quality = RESULT_QUIET; /* its interval lets it claim its MB/s repeats */
    c[1].r.ci_pct = 1.0, c[1].r.ci_hi = c[1].r.mb_per_s * 1.01;
    c[0].r.quality = RESULT_QUIET; /* quiet, but too wide to claim it */
    c[0].r.ci_pct = 2.5, c[0].r.ci_hi = c[0].r.mb_per_s * 1.025;
    CHECK(store_save(c, n, saved, sizeof saved, why, sizeof why) == 0, "saved: %s", why);
    /* newer, but of no use: another host's run, another CPU's, one with noisy rows only */
    struct cell o[8];
    memcpy(o, c, sizeof o);
    for (size_t i = 0; i < n; i++)
        o[i].r.quality = RESULT_NOISY;
    CHECK(store_save(o, n, bare, sizeof bare, why, sizeof why) == 0, "saved: %s", why);
    snprintf(host, sizeof host, "%s/xdg-clock/accelscope/results/zz-host.csv", dir);
    snprintf(cpu, sizeof cpu, "%s/xdg-clock/accelscope/results/zz-cpu.csv", dir);
    const struct machine *m = machine_get();
    int other_host = variant(saved, host, m->host) == 0, other_cpu = variant(saved, cpu, m->cpu) == 0;
    if (!other_host || !other_cpu)
        printf("UNAVAILABLE: another machine's run: no host ('%s') or CPU ('%s') in the saved "
               "run to change\n", m->host, m->cpu);
    struct timespec t[4][2] = { { { 1000000000, 0 }, { 1000000000, 0 } },
                                { { 1000000100, 0 }, { 1000000100, 0 } },
                                { { 1000000200, 0 }, { 1000000200, 0 } },
                                { { 1000000300, 0 }, { 1000000300, 0 } } };
    utimensat(AT_FDCWD, saved, t[0], 0);
    utimensat(AT_FDCWD, bare, t[1], 0);
    if (other_host)
        utimensat(AT_FDCWD, host, t[2], 0);
    if (other_cpu)
        utimensat(AT_FDCWD, cpu, t[3], 0);
    ref = lastrun_load(why, sizeof why);
    CHECK(ref && !strcmp(lastrun_path(ref), saved), "the newest run of this machine with a "
          "quiet figure: %s, not %s (%s)", saved, ref ? lastrun_path(ref) : "none", why);
    if (ref) {
        /* quiet verified rows: 0 portable 16 B 3000, 1 openssl-int 16 B 3100, 4 aes-128-gcm
         * openssl 16 KiB encrypt 3400; median 3100 */
        CHECK(lastrun_clock_for(ref, &c[1]) == 3100 && lastrun_clock_for(ref, &c[4]) == 3400 &&
              lastrun_clock_median(ref) == 3100, "each cell its own clock: %.0f, %.0f; median %.0f",
              lastrun_clock_for(ref, &c[1]), lastrun_clock_for(ref, &c[4]), lastrun_clock_median(ref));
        double noisy = lastrun_clock_for(ref, &c[2]), failed = lastrun_clock_for(ref, &c[5]);
        CHECK(noisy == 3100 && failed == 3100, "a noisy row (3200) and a failed one (none) "
              "stand for nothing: the median 3100 (%.0f, %.0f)", noisy, failed);
        struct cell x = c[4];
        x.bytes = 1024;
        CHECK(lastrun_clock_for(ref, &x) == 3400, "another size: the implementation's clock 3400, "
              "not the run's (%.0f)", lastrun_clock_for(ref, &x));
        x = c[4];
        x.decrypt = 1;
        CHECK(lastrun_clock_for(ref, &x) == 3100, "another direction: the median 3100 (%.0f)",
              lastrun_clock_for(ref, &x));
        x = c[4];
        x.r.threads = 2;
        CHECK(lastrun_clock_for(ref, &x) == 0, "another thread count: no clock to judge by (%.0f)",
              lastrun_clock_for(ref, &x));
        /* the figure: only where the row claimed it repeats, for the same code */
        CHECK(lastrun_mb_for(ref, &c[1]) == 32.125, "the claimed figure of the same cell: %g",
              lastrun_mb_for(ref, &c[1]));
        CHECK(lastrun_mb_for(ref, &c[0]) == 0 && lastrun_mb_for(ref, &c[4]) == 0,
              "a figure its interval did not let claim (quiet at +-2.5 %%, not rated) is no "
              "reference");
        x = c[1];
        snprintf(x.r.capvec, sizeof x.r.capvec, "CPUINFO: OPENSSL_ia32cap=0x0:0x0");
        CHECK(lastrun_mb_for(ref, &x) == 0, "another capability vector: other code, no reference");
        x = c[1];
        x.bytes = 64;
        CHECK(lastrun_mb_for(ref, &x) == 0, "another size: no reference");
    }
    lastrun_free(ref);
    /* newest: the same run without clocks, and its OpenSSL another: its figures are still a
     * reference, for the same OpenSSL only; its clocks none */
    char noclk[600], ossl[600];
    memcpy(o, c, sizeof o);
    for (size_t i = 0; i < n; i++)
        o[i].r.clock_mhz = 0;
    CHECK(store_save(o, n, noclk, sizeof noclk, why, sizeof why) == 0, "saved: %s", why);
    struct timespec t5[2] = { { 1000000500, 0 }, { 1000000500, 0 } },
                    t6[2] = { { 1000000600, 0 }, { 1000000600, 0 } };
    utimensat(AT_FDCWD, noclk, t5, 0);
    ref = lastrun_load(why, sizeof why);
    CHECK(ref && !strcmp(lastrun_path(ref), noclk) && lastrun_clock_for(ref, &c[1]) == 0 &&
          lastrun_mb_for(ref, &c[1]) == 32.125, "a run without clocks: its figures judge, its "
          "clocks do not (%s)", ref ? lastrun_path(ref) : why);
    lastrun_free(ref);
    snprintf(ossl, sizeof ossl, "%s/xdg-clock/accelscope/results/zz-ossl.csv", dir);
    char *text = csvr_slurp(noclk);
    const char *v = machine_get()->openssl;
    size_t vl = strlen(v);
    for (char *at = text && vl ? strstr(text, v) : NULL; at; at = strstr(at + vl, v))
        at[vl - 1] = at[vl - 1] == 'x' ? 'y' : 'x'; /* every row's OpenSSL another */
    if (text)
        write_text(ossl, text, strlen(text));
    free(text);
    utimensat(AT_FDCWD, ossl, t6, 0);
    ref = lastrun_load(why, sizeof why);
    CHECK(ref && !strcmp(lastrun_path(ref), ossl) && lastrun_mb_for(ref, &c[1]) == 0,
          "another OpenSSL's figure is no reference (%s)", ref ? lastrun_path(ref) : why);
    lastrun_free(ref);
    CHECK(lastrun_clock_for(NULL, &c[0]) == 0, "no reference: 0");
    snprintf(p, sizeof p, "%s/xdg", dir);
    setenv("XDG_DATA_HOME", p, 1);
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_round_trip();
    test_rfc4180();
    test_schemas();
    test_malformed();
    test_junk();
    test_limits();
    test_list();
    test_lastrun();
    remove_dir(dir);
    return check_done();
}
