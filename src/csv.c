#include "csv.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "algo.h"
#include "machine.h"
#include "spawn.h"
#include "stats.h"

void csv_quote(const char *in, char *out, size_t n)
{
    if (!n)
        return;
    if (!strpbrk(in, ",\"\r\n")) {
        snprintf(out, n, "%s", in);
        return;
    }
    size_t k = 0;
    out[k++] = '"';
    for (; *in && k + 3 < n; in++) {
        if (*in == '"')
            out[k++] = '"';
        out[k++] = *in;
    }
    out[k++] = '"';
    out[k] = 0;
}

static const char *const columns[] = {
    "timestamp", "host", "cpu", "kernel", "openssl", "algorithm", "direction", "path",
    "implementation", "bytes", "threads", "ops", "seconds", "mb_per_s", "mb_per_s_min",
    "mb_per_s_max", "cycles_per_byte", "cycle_clock", "cpu_utilisation", "samples",
    "spread_pct", "thread_mb_per_s", "limit_mb_per_s", "capabilities", "verified_against",
    "status", "reason", "quality", "ci_pct", "disturbed", "rounds", "clock_mhz", "overlap_pct",
    "same_code_as", "vs_slowest", "vs_slowest_ci_pct", "comparison", "sys_pct", "fallback",
    "ops_per_s", "us_per_op", "retaken_why", "absolute", "processes_pct", "clock_ref_mhz",
    "last_mb_per_s", "last_ops_per_s",
};

static void field(FILE *f, const char *s, int last)
{
    char q[1024];
    csv_quote(s ? s : "", q, sizeof q);
    fputs(q, f);
    fputc(last ? '\n' : ',', f);
}

static void num(FILE *f, const char *fmt, double v, int have)
{
    char b[64] = "";
    if (have)
        snprintf(b, sizeof b, fmt, v);
    field(f, b, 0);
}

void csv_timestamp(time_t t, char *buf, size_t n)
{
    struct tm tm;
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
}

const char *csv_direction(const struct cell *c)
{
    /* Direction applies to ciphers and AEADs; digests and RNGs have none. */
    const struct algo *a = algo_find(c->impl->alg);
    return !a || !algo_has_direction(a) ? "" : c->decrypt ? "decrypt" : "encrypt";
}

/* How far the figure can be trusted (stats.h): quiet or noisy (the figure itself), the 95 %
 * interval of the median, the rounds retaken as disturbed, the clock the samples ran at, how well the
 * windows of -t N overlapped; and the row whose code a hardware row really ran. */
static void quality(FILE *f, const struct cell *w)
{
    const struct result *r = &w->r;
    int ok = r->status == RES_OK;
    char b[160];
    const char *q = r->quality == RESULT_NOISY ? "noisy" : r->quality == RESULT_QUIET ? "quiet" : "";
    field(f, ok ? q : "", 0);
    num(f, "%.2f", r->ci_pct, ok && r->ci_hi > 0);
    num(f, "%.0f", r->disturbed, ok);
    num(f, "%.0f", r->rounds, ok);
    num(f, "%.0f", r->clock_mhz, ok && r->clock_mhz > 0);
    num(f, "%.1f", r->overlap_pct, ok && r->threads > 1);
    snprintf(b, sizeof b, "%s%s%s", w->d.same_as ? path_id[w->d.same_as->path] : "",
             w->d.same_as ? "/" : "", w->d.same_as ? w->d.same_as->name : "");
    field(f, b, 0);
    /* The comparison within the column (derive.c): the speed-up over the slowest row from
     * paired rounds, its interval, and whether a claim can rest on it. */
    num(f, "%.4f", w->d.speedup, ok && w->d.speedup > 0);
    num(f, "%.2f", w->d.speedup_ci_pct, ok && w->d.speedup_ci_pct > 0);
    field(f, !ok || w->d.same_as ? "" : w->d.noisy ? "noisy" : "quiet", 0);
    /* Where the work went: system time share, and an ENGINE row that stayed in software. */
    num(f, "%.1f", r->sys_pct, ok && r->sys_pct >= 0);
    field(f, ok && r->fallback ? r->fallback_why : "", 0);
}

/* Public-key rows: operations per second and its inverse (algo.h: their rate is of ops);
 * empty for the rows measured in MB/s. */
static void ops(FILE *f, const struct cell *w, int pk)
{
    int ok = w->r.status == RES_OK && pk && w->r.mb_per_s > 0;
    double rate = ok ? w->r.mb_per_s * 1e6 : 0;
    num(f, "%.1f", rate, ok);
    char b[64] = "";
    if (ok)
        snprintf(b, sizeof b, "%.3f", 1e6 / rate);
    field(f, b, 0);
}

/* The disturbed rounds by reason: "clock-moved:3 slow-memory:12", each reason that retook
 * any, in result.h's order (a round may count under several). */
static void retaken_why(FILE *f, const struct cell *w)
{
    char b[256] = "";
    size_t k = 0;
    for (int i = 0; w->r.status == RES_OK && i < RESULT_RETAKEN_COUNT; i++)
        if (w->r.retaken[i] > 0 && k < sizeof b)
            k += (size_t)snprintf(b + k, sizeof b - k, "%s%s:%d", k ? " " : "",
                                  result_retaken_key(i), w->r.retaken[i]);
    field(f, b, 0);
}

/* Whether the cell's MB/s itself is claimed to repeat (stats.h STATS_ABSOLUTE_CI_PCT), beside
 * `quality` (its interval within +-5 %) and `comparison` (its xN). */
static void absolute(FILE *f, const struct cell *w)
{
    int ok = w->r.status == RES_OK && w->r.quality != RESULT_UNRATED;
    field(f, !ok ? "" : stats_absolute_quiet(&w->r) ? "quiet" : "noisy", 0);
}

/* How far the second of the two worker processes that took the cell's rounds in turn read
 * from the first (result.process_mb), in % of the first's median: a figure that depends on
 * its process is noisy (result.apart). Empty when there were not two. */
static void processes(FILE *f, const struct cell *w)
{
    const struct result *r = &w->r;
    char b[32] = "";
    if (r->status == RES_OK && r->process_mb[0] > 0 && r->process_mb[1] > 0)
        snprintf(b, sizeof b, "%+.2f", (r->process_mb[1] / r->process_mb[0] - 1) * 100);
    field(f, b, 0);
}

/* What `absolute` was judged beside (lastrun.h): the clock the machine's last saved run ran
 * the cell at, and that run's figure where its interval let it claim it (MB/s, or ops/s for a
 * public-key row, as mb_per_s and ops_per_s); the row's last fields. */
static void last_run(FILE *f, const struct cell *w, int pk)
{
    const struct result *r = &w->r;
    int ok = r->status == RES_OK;
    char b[32] = "";
    num(f, "%.0f", r->clock_ref_mhz, ok && r->clock_ref_mhz > 0);
    num(f, "%.3f", r->last_mb_per_s, ok && !pk && r->last_mb_per_s > 0);
    if (ok && pk && r->last_mb_per_s > 0)
        snprintf(b, sizeof b, "%.1f", r->last_mb_per_s * 1e6);
    field(f, b, 1);
}

int csv_write_stream(FILE *f, const struct cell *rows, size_t n)
{
    const struct machine *m = machine_get();
    char ts[32];
    csv_timestamp(time(NULL), ts, sizeof ts);
    for (size_t c = 0; c < sizeof columns / sizeof columns[0]; c++)
        field(f, columns[c], c + 1 == sizeof columns / sizeof columns[0]);
    for (size_t i = 0; i < n; i++) {
        const struct cell *w = &rows[i];
        const struct result *r = &w->r;
        const struct algo *a = algo_find(w->impl->alg);
        int ok = r->status == RES_OK, pk = a && !algo_sized(a), mb = ok && !pk;
        char b[64], st[48];
        field(f, ts, 0);
        field(f, m->host, 0);
        field(f, m->cpu, 0);
        field(f, m->kernel, 0);
        field(f, m->openssl, 0);
        field(f, w->impl->alg, 0);
        field(f, csv_direction(w), 0);
        field(f, path_id[w->impl->path], 0);
        field(f, w->impl->name, 0);
        snprintf(b, sizeof b, "%zu", w->bytes);
        field(f, b, 0);
        snprintf(b, sizeof b, "%d", r->threads);
        field(f, b, 0);
        snprintf(b, sizeof b, "%llu", (unsigned long long)r->ops);
        field(f, ok ? b : "", 0);
        num(f, "%.6f", r->seconds, ok);
        num(f, "%.3f", r->mb_per_s, mb); /* public-key rows: in ops_per_s */
        num(f, "%.3f", r->mb_min, mb);
        num(f, "%.3f", r->mb_max, mb);
        num(f, "%.4f", r->cycles_per_byte, mb && r->cycles_per_byte > 0);
        field(f, ok ? r->cycle_clock : "", 0);
        num(f, "%.3f", r->cpu_util, ok);
        snprintf(b, sizeof b, "%d", r->samples);
        field(f, ok ? b : "", 0);
        num(f, "%.2f", r->spread_pct, ok);
        char each[RESULT_MAX_THREADS * 12] = "";
        for (int t = 0, off = 0; mb && t < r->threads && t < RESULT_MAX_THREADS; t++)
            off += snprintf(each + off, sizeof each - (size_t)off, "%s%.1f", t ? ";" : "",
                            r->thread_mb[t]);
        field(f, each, 0); /* each worker's median, ';'-separated */
        num(f, "%.1f", w->limit_mb_per_s, w->limit_mb_per_s > 0);
        field(f, r->capvec, 0);
        field(f, r->reference, 0);
        field(f, result_status_text(r, st, sizeof st), 0);
        field(f, ok ? "" : r->reason, 0);
        quality(f, w);
        ops(f, w, pk);
        retaken_why(f, w);
        absolute(f, w);
        processes(f, w);
        last_run(f, w, pk);
    }
    return ferror(f) ? -1 : 0;
}

/* The folder that will hold path, in buf. */
static const char *folder(const char *path, char *buf, size_t n)
{
    snprintf(buf, n, "%s", path);
    return dirname(buf);
}

int csv_same_file(const char *a, const char *b)
{
    if (!strcmp(a, "-") || !strcmp(b, "-"))
        return 0;
    struct stat sa, sb;
    int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (ea || eb) /* hard and symbolic links, "./x" and "x": one inode */
        return ea && eb && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char ba[4096], bb[4096], ra[PATH_MAX], rb[PATH_MAX];
    if (!realpath(folder(a, ba, sizeof ba), ra) || !realpath(folder(b, bb, sizeof bb), rb))
        return !strcmp(a, b);
    const char *na = strrchr(a, '/'), *nb = strrchr(b, '/');
    return !strcmp(ra, rb) && !strcmp(na ? na + 1 : a, nb ? nb + 1 : b);
}

int csv_same_source(const char *dest, const char *src)
{
    struct stat sd, ss;
    if (strcmp(src, "-"))
        return csv_same_file(dest, src);
    return strcmp(dest, "-") && stat(dest, &sd) == 0 && fstat(0, &ss) == 0 &&
           sd.st_dev == ss.st_dev && sd.st_ino == ss.st_ino;
}

int csv_check_dest(const char *path, int force, char *why, size_t wn)
{
    if (!strcmp(path, "-"))
        return 0;
    if (!*path) {
        snprintf(why, wn, "empty CSV file name: give a path or - for standard output");
        return -1;
    }
    /* "name/" is a folder's name to the kernel: the final rename would fail with "Not a
     * directory" (or "Is a directory"), after the whole measurement. */
    if (path[strlen(path) - 1] == '/') {
        snprintf(why, wn, "%s ends in '/', which names a folder: give a file name", path);
        return -1;
    }
    struct stat st;
    int found = lstat(path, &st) == 0;
    if (!found && errno != ENOENT) { /* a name too long, a file used as a folder... */
        snprintf(why, wn, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    char b[4096];
    const char *dir = folder(path, b, sizeof b);
    if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
        snprintf(why, wn, "cannot write %s: folder %s does not exist", path, dir);
        return -1;
    }
    if (access(dir, W_OK | X_OK)) {
        snprintf(why, wn, "cannot write %s: %s (folder %s)", path, strerror(errno), dir);
        return -1;
    }
    if (found && lstat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            snprintf(why, wn, "%s is a folder: give a file name", path);
            return -1;
        }
        /* Renaming over a device, pipe or socket would replace the node itself (as root,
         * /dev/null with a file), and over a link the link, not its file: only regular
         * files may be replaced. */
        if (S_ISLNK(st.st_mode)) {
            snprintf(why, wn, "%s is a symbolic link: give the file's own name", path);
            return -1;
        }
        if (!S_ISREG(st.st_mode)) {
            snprintf(why, wn, "%s is not a regular file (a device, pipe or socket): give a "
                     "file name, or - for standard output", path);
            return -1;
        }
        if (!force) {
            snprintf(why, wn, "%s exists: choose another name or add --force to replace it",
                     path);
            return 1;
        }
    }
    return 0;
}

int csv_write_atomic(const char *path, int force, int (*fill)(FILE *f, void *arg), void *arg,
                     char *why, size_t wn)
{
    if (!strcmp(path, "-")) {
        if (fill(stdout, arg) || fflush(stdout)) {
            snprintf(why, wn, "writing to standard output: %s", strerror(errno));
            spawn_stdout_reported();
            return -1;
        }
        return 0;
    }
    if (csv_check_dest(path, force, why, wn))
        return -1;
    char b[4096], tmp[4200];
    const char *dir = folder(path, b, sizeof b);
    snprintf(tmp, sizeof tmp, "%s/.accelscope-csv.XXXXXX", dir);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(why, wn, "cannot create a file in %s: %s", dir, strerror(errno));
        return -1;
    }
    mode_t um = umask(0);
    umask(um);
    fchmod(fd, 0666 & ~um);
    FILE *f = fdopen(fd, "w");
    if (!f) {
        snprintf(why, wn, "fdopen: %s", strerror(errno));
        close(fd);
        goto remove_tmp;
    }
    if (fill(f, arg) || fflush(f) || fsync(fileno(f))) {
        snprintf(why, wn, "writing %s: %s", path, strerror(errno));
        fclose(f);
        goto remove_tmp;
    }
    if (fclose(f)) {
        snprintf(why, wn, "writing %s: %s", path, strerror(errno));
        goto remove_tmp;
    }
    /* No clobber: RENAME_NOREPLACE fails with EEXIST if the name appeared meanwhile. */
    /* Look again right before replacing: the name may have become something else. */
    if (force && csv_check_dest(path, force, why, wn))
        goto remove_tmp;
    int rc = force ? rename(tmp, path) : renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE);
    if (rc && !force && (errno == EINVAL || errno == ENOSYS)) /* no RENAME_NOREPLACE here */
        rc = link(tmp, path) ? -1 : unlink(tmp);
    if (rc) {
        if (errno == EEXIST)
            snprintf(why, wn, "%s exists: choose another name or add --force to replace it",
                     path);
        else
            snprintf(why, wn, "cannot create %s: %s", path, strerror(errno));
        goto remove_tmp;
    }
    return 0;

remove_tmp:
    unlink(tmp);
    return -1;
}

struct cells_arg {
    const struct cell *rows;
    size_t n;
};

static int fill_cells(FILE *f, void *arg)
{
    const struct cells_arg *a = arg;
    return csv_write_stream(f, a->rows, a->n);
}

int csv_write_file(const char *path, int force, const struct cell *rows, size_t n,
                   char *why, size_t wn)
{
    struct cells_arg a = { rows, n };
    return csv_write_atomic(path, force, fill_cells, &a, why, wn);
}
