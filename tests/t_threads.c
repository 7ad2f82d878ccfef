/* Threads as a dimension: `-t` lists (good and bad), one cell per thread count in the plan,
 * derived figures and paired rounds that never cross thread counts, the scaling figures and
 * their reasons on hand-built cells, and a real `-t 1,2` session (where the machine has two
 * CPUs for this process; on one, that 2 is refused and why). Workers are real
 * (ACCELSCOPE_BIN, default ./accelscope). */
#include <stdlib.h>

#include "check.h"
#include "derive.h"
#include "engine.h"
#include "export.h"
#include "plan.h"
#include "registry.h"
#include "scaling.h"
#include "session.h"

static int threads_are(const struct selection *s, int n, const int *want)
{
    if (s->nthreads != n)
        return 0;
    for (int i = 0; i < n; i++)
        if (s->threads[i] != want[i])
            return 0;
    return 1;
}

/* Lists parse against the cap given, whatever this machine has. */
static void test_lists(void)
{
    struct selection s;
    select_defaults(&s);
    char why[512] = "";
    static const int one[] = { 1 }, one_two_four[] = { 1, 2, 4 }, four[] = { 4 }, two[] = { 2 };
    CHECK(threads_are(&s, 1, one), "default: one thread");
    CHECK(!select_threads(&s, "1,2,4,all", 4, why, sizeof why) && threads_are(&s, 3, one_two_four),
          "1,2,4,all with 4 CPUs: 1,2,4 (all = 4 collapses) %s", why);
    CHECK(!select_threads(&s, "4,1,1,2", 4, why, sizeof why) && threads_are(&s, 3, one_two_four),
          "4,1,1,2: duplicates collapse, ascending");
    CHECK(!select_threads(&s, "all", 4, why, sizeof why) && threads_are(&s, 1, four), "all = 4");
    CHECK(!select_threads(&s, "2 2", 4, why, sizeof why) && threads_are(&s, 1, two),
          "space separated");
    static const struct { const char *list; int max; const char *says; } bad[] = {
        { "0", 4, "accepted: 1 to 4" },     { "1,x", 4, "bad thread count 'x'" },
        { "-1", 4, "accepted: 1 to 4" },    { "2.5", 4, "accepted: 1 to 4" },
        { "", 4, "empty thread list" },     { ",", 4, "empty thread list" },
        { "5", 4, "more than the 4 CPUs" }, { "1,2", 1, "more than the 1 CPU this" },
        { "99999999999999999999", 4, "accepted: 1 to 4" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = 0;
        int rc = select_threads(&s, bad[i].list, bad[i].max, why, sizeof why);
        CHECK(rc == -1 && strstr(why, bad[i].says) && strstr(why, "accepted"),
              "'%s' (max %d) refused naming '%s' and what is accepted: %s", bad[i].list,
              bad[i].max, bad[i].says, why);
        CHECK(threads_are(&s, 1, two), "'%s' refused: the list stays 2", bad[i].list);
    }
    char many[400] = "";
    for (int t = 1; t <= SELECT_MAX + 1; t++)
        snprintf(many + strlen(many), sizeof many - strlen(many), "%s%d", t > 1 ? "," : "", t);
    CHECK(select_threads(&s, many, SELECT_MAX + 10, why, sizeof why) == -1 &&
              strstr(why, "at most") && threads_are(&s, 1, two),
          "%d thread counts refused, the list kept: %s", SELECT_MAX + 1, why);
    CHECK(select_max_threads(&s) == 2, "largest 2");
    select_threads(&s, "1,2", 2, why, sizeof why);
    char *args = select_args(&s);
    CHECK(strstr(args, "-t 1,2") != NULL, "printed back as -t 1,2: %s", args);
    free(args);
    select_threads(&s, "1", 2, why, sizeof why);
    args = select_args(&s);
    CHECK(strstr(args, "-t") == NULL, "one thread is the default, not printed: %s", args);
    free(args);
}

/* One cell per implementation x thread count x size, sizes consecutive within a count. */
static void test_plan(void)
{
    struct selection s;
    select_defaults(&s);
    char why[512];
    CHECK(!select_algs(&s, "md5", why, sizeof why) && !select_sizes(&s, "16,64", why, sizeof why) &&
              !select_impls(&s, "portable", why, sizeof why) &&
              !select_threads(&s, "2,1", 2, why, sizeof why),
          "selection: %s", why);
    struct plan p;
    CHECK(plan_build(&p, &s) == 4, "md5 portable x 2 counts x 2 sizes: 4 cells, got %zu", p.n);
    static const int th[4] = { 1, 1, 2, 2 };
    static const size_t by[4] = { 16, 64, 16, 64 };
    for (size_t i = 0; i < p.n && i < 4; i++)
        CHECK(p.cells[i].threads == th[i] && p.cells[i].r.threads == th[i] &&
                  p.cells[i].bytes == by[i],
              "cell %zu: %d threads, %zu B (got %d, %zu)", i, th[i], by[i], p.cells[i].threads,
              p.cells[i].bytes);
    plan_free(&p);
}

static struct cell fig(const struct impl *im, int threads, double mb)
{
    struct cell c = { .impl = im, .bytes = 16384, .threads = threads };
    c.r.status = RES_OK;
    c.r.threads = threads;
    c.r.mb_per_s = c.r.mb_min = c.r.mb_max = mb;
    c.r.quality = RESULT_QUIET;
    c.r.cpu_util = 1.0;
    c.r.overlap_pct = threads > 1 ? 99 : 100;
    c.limit_mb_per_s = 1000;
    return c;
}

static const struct impl fast = { .alg = "md5", .name = "fast", .path = PATH_HW, .backend = "test" },
                         slow = { .alg = "md5", .name = "slow", .path = PATH_C, .backend = "test" },
                         kern = { .alg = "md5", .name = "md5-kernel", .path = PATH_KERNEL, .backend = "test" },
                         drng = { .alg = "rdrand", .name = "rdrand", .path = PATH_HW, .backend = "test" };

/* A 2-thread cell is compared with the 2-thread cells of its column only. */
static void test_derive_threads(void)
{
    struct cell c[] = { fig(&slow, 1, 50), fig(&fast, 1, 100), fig(&slow, 2, 180),
                        fig(&fast, 2, 200) };
    derive_cells(c, 4);
    CHECK(c[2].d.slowest == 180 && c[3].d.slowest == 180,
          "2-thread column's slowest is a 2-thread figure (180), got %g %g", c[2].d.slowest,
          c[3].d.slowest);
    CHECK(c[3].d.speedup > 1.1 && c[3].d.speedup < 1.12,
          "2 threads fast over 2 threads slow x1.11, never over 1-thread slow (x4): x%.2f",
          c[3].d.speedup);
    CHECK(c[0].d.slowest == 50 && c[1].d.best && c[3].d.best && !c[2].d.best,
          "each thread count has its own best");
}

/* Efficiency and the reason shown where a path is off N x its 1-thread figure by > 10 %. */
static void test_scaling(void)
{
    struct scaling_env env = { 0 };
    struct scaling sc;
    struct cell c[] = { fig(&slow, 1, 100), fig(&slow, 2, 196) };
    CHECK(!scaling_of(c, 2, &c[1], &env, &sc) && sc.base == &c[0] && sc.ideal == 200 &&
              sc.eff > 0.979 && sc.eff < 0.981 && sc.scales && !sc.reason[0] && sc.reach == 2000,
          "196 of 2 x 100: 98 %%, scales, line to reach 2 x 1000 (eff %g, reach %g, '%s')",
          sc.eff, sc.reach, sc.reason);
    c[1].r.mb_per_s = 120;
    scaling_of(c, 2, &c[1], &env, &sc);
    CHECK(!sc.scales && strstr(sc.reason, "memory bandwidth not known"),
          "60 %% without a bandwidth: says it is not known: %s", sc.reason);
    env.mem_l1_mb_s = 1000; /* 16 KiB: per-core cache, x2 */
    scaling_of(c, 2, &c[1], &env, &sc);
    CHECK(strstr(sc.reason, "not memory bound") && strstr(sc.reason, "6 %"),
          "120 of 2 x 1000 cache copy: not memory bound: %s", sc.reason);
    env.mem_l1_mb_s = 80;
    scaling_of(c, 2, &c[1], &env, &sc);
    CHECK(strstr(sc.reason, "memory bound: 120 MB/s is 75 %"), "near the copy rate: %s", sc.reason);
    c[1].r.cpu_util = 0.5;
    scaling_of(c, 2, &c[1], &env, &sc);
    CHECK(strstr(sc.reason, "noisy: a worker had 100 % of a CPU at 1 thread, 50 % at 2"),
          "starved: %s", sc.reason);
    c[1].r.cpu_util = 1.0;
    c[1].r.overlap_pct = 60;
    scaling_of(c, 2, &c[1], &env, &sc);
    CHECK(strstr(sc.reason, "overlapped only 60 %"), "windows apart: %s", sc.reason);
    c[1].r.overlap_pct = 99;
    c[0].r.quality = RESULT_NOISY;
    c[1].r.mb_per_s = 199;
    scaling_of(c, 2, &c[1], &env, &sc);
    CHECK(!sc.scales && sc.noisy && strstr(sc.reason, "1-thread figure never settled"),
          "a noisy 1-thread figure: no claim even at 99.5 %%: %s", sc.reason);
    c[0].r.quality = RESULT_QUIET;
    /* Its column's comparison noisy (the slowest with no quiet row over it, or a row over a
     * noisy slowest), its own figure quiet: the scaling stands on the figures (derive.c). */
    c[0].d.noisy = c[0].d.unbacked = 1;
    c[1].d.noisy = 1;
    scaling_of(c, 2, &c[1], &env, &sc);
    CHECK(sc.scales && !sc.noisy, "comparisons noisy, figures quiet: the scaling stands "
          "(scales %d, noisy %d)", sc.scales, sc.noisy);
    c[0].d.noisy = c[0].d.unbacked = c[1].d.noisy = 0;
    c[0].d.spell = 1;
    scaling_of(c, 2, &c[1], &env, &sc);
    CHECK(!sc.scales && sc.noisy && strstr(sc.reason, "1-thread figure was taken in a turbulent"),
          "the 1-thread figure taken in a turbulent spell: no claim, and why: %s", sc.reason);
    c[0].d.spell = 0;
    env.cores = 1;
    c[1].r.mb_per_s = 120;
    scaling_of(c, 2, &c[1], &env, &sc);
    CHECK(strstr(sc.reason, "shared unit: SMT"), "2 workers on 1 core: %s", sc.reason);
    struct cell k[] = { fig(&kern, 1, 100), fig(&kern, 2, 110), fig(&drng, 1, 100),
                        fig(&drng, 2, 100), fig(&fast, 2, 100) };
    scaling_of(k, 5, &k[1], &env, &sc);
    CHECK(strstr(sc.reason, "shared unit: the kernel"), "kernel path: %s", sc.reason);
    scaling_of(k, 5, &k[3], &env, &sc);
    CHECK(strstr(sc.reason, "shared unit: the CPU's random"), "rdrand: %s", sc.reason);
    scaling_of(k, 5, &k[4], &env, &sc);
    CHECK(!sc.base && strstr(sc.reason, "no 1-thread figure"), "no base: %s", sc.reason);
    CHECK(scaling_multi(k, 5) && !scaling_multi(k, 1), "more than one thread count");
    k[0].r.status = RES_WRONG;
    CHECK(scaling_of(k, 5, &k[0], &env, &sc) == -1, "no figure, no scaling");
}

/* Markdown and SVG: a row per implementation and thread count, each with its own figure
 * (the 2-thread row once showed the 1-thread figure under a "2 threads" heading). */
static void test_export(void)
{
    struct cell c[] = { fig(&slow, 1, 111), fig(&slow, 2, 222) };
    derive_cells(c, 2);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(f && export_write_stream(f, EXPORT_MD, c, 2) == 0, "markdown written");
    fclose(f);
    CHECK(buf && strstr(buf, "| slow | 111.0") && strstr(buf, "| slow, 2 threads | 222.0") &&
              strstr(buf, "threads as each row says"),
          "markdown: one row per thread count, each its own figure: %s", buf);
    free(buf);
    f = open_memstream(&buf, &len);
    CHECK(f && export_write_stream(f, EXPORT_SVG, c, 2) == 0, "svg written");
    fclose(f);
    CHECK(buf && strstr(buf, "slow, 2 threads") && strstr(buf, ">222.0 MB/s"),
          "svg: the 2-thread bar named and its figure");
    free(buf);
}

/* The scheduler: cells of different thread counts are never in one group (their rounds are
 * never paired); the listener sees which cells run at once. */
struct watch {
    const struct session *s;
    int running[64];
    int mixed, started;
};

static void watch(struct session *s, enum session_event ev, size_t i, void *arg)
{
    struct watch *w = arg;
    if (i >= 64 || (ev != SESSION_CELL_START && ev != SESSION_CELL_DONE))
        return;
    if (ev == SESSION_CELL_DONE) {
        w->running[i] = 0;
        return;
    }
    w->started++;
    for (size_t j = 0; j < session_ncells(s) && j < 64; j++)
        if (w->running[j] && session_cell(s, j)->threads != session_cell(s, i)->threads)
            w->mixed++;
    w->running[i] = 1;
}

static void test_run(void)
{
    int max = session_max_threads(NULL);
    struct session *s = session_new();
    char why[512];
    struct selection *sel = session_sel_edit(s, why, sizeof why);
    if (max < 2) {
        CHECK(select_threads(sel, "1,2", max, why, sizeof why) && strstr(why, "more than the 1 CPU"),
              "one CPU: 2 threads refused, saying why: %s", why);
        UNAVAILABLE("-t 1,2 session", "this process may use one CPU");
        session_free(s);
        return;
    }
    CHECK(!select_algs(sel, "md5", why, sizeof why) && !select_sizes(sel, "1024", why, sizeof why) &&
              !select_impls(sel, "portable,openssl", why, sizeof why) &&
              !select_threads(sel, "1,2", max, why, sizeof why),
          "selection: %s", why);
    sel->seconds = 0.05;
    session_rebuild(s);
    struct watch w = { .s = s };
    session_set_listener(s, watch, &w);
    CHECK(session_ncells(s) == 4, "2 implementations x 2 thread counts: 4 cells, got %zu",
          session_ncells(s));
    CHECK(session_run(s, why, sizeof why) == 0, "runs: %s", why);
    int again = 0; /* a column the machine measured in a spell goes through twice */
    for (size_t i = 0; i < session_ncells(s); i++)
        again += session_cell(s, i)->again;
    CHECK(w.started == 4 + again && w.mixed == 0,
          "4 cells started (and %d measured anew), none beside a cell of another thread count "
          "(%d mixed)", again, w.mixed);
    for (size_t i = 0; i < session_ncells(s); i++) {
        const struct cell *c = session_cell(s, i);
        CHECK(c->r.status == RES_OK && c->r.threads == c->threads,
              "%s at %d threads: ok, result says %d threads (%s)", c->impl->name, c->threads,
              c->r.threads, c->r.reason);
    }
    session_free(s);
}

int main(void)
{
    const char *bin = getenv("ACCELSCOPE_BIN");
    engine_set_exe(bin ? bin : "./accelscope");
    registry_discover();
    test_lists();
    test_plan();
    test_derive_threads();
    test_scaling();
    test_export();
    test_run();
    return check_done();
}
