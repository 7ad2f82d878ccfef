/* Fallback of ENGINE rows (src/offload.h): the rule on evidence made to fire and not to fire,
 * the kernel descriptor count, the evidence carried from a worker through the engine into
 * the result, and the result through CSV and back. The real engines run in the kernel VM
 * (tests/kernel/check.sh); here, an engine that cannot load must say why in one line. */
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "compare.h"
#include "csv.h"
#include "../src/csvread.h"
#include "engine.h"
#include "export.h"
#include "offload.h"
#include "registry.h"
#include "script.h"

#define MS 1000000ull

static int judge(int kernel, int claimed, int kfds, uint64_t user, uint64_t sys, char *why)
{
    struct offload_evidence ev = { kernel, claimed, kfds, user, sys };
    why[0] = 0;
    return offload_judge(&ev, "afalg", "sha256", why, 200);
}

static void test_rule(void)
{
    char why[200];
    CHECK(!judge(1, 1, 1, 100 * MS, 400 * MS, why) && !why[0],
          "kernel engine, claimed, a socket, 80 %% system time: the kernel did it (%s)", why);
    CHECK(judge(1, 0, 0, 500 * MS, 0, why) &&
              !strcmp(why, "afalg engine does not handle sha256: libcrypto software did the work"),
          "not claimed: fell back, said in one line (%s)", why);
    CHECK(judge(1, 1, 0, 500 * MS, 0, why) && strstr(why, "opened no AF_ALG socket"),
          "claimed but no kernel descriptor: fell back (%s)", why);
    CHECK(judge(1, 1, 1, 491 * MS, 9 * MS, why) && strstr(why, "1.8 %"),
          "claimed, a socket, but 1.8 %% system time: fell back (%s)", why);
    CHECK(!judge(1, 1, 1, 70 * MS, 30 * MS, why), "exactly 30 %% system time: the kernel (%s)",
          why);
    CHECK(judge(1, 1, 1, 701 * MS, 299 * MS, why), "29.9 %% system time: fell back (%s)", why);
    CHECK(!judge(1, 1, 1, MS / 2, 0, why),
          "0.5 ms of CPU time says nothing: not called a fallback (%s)", why);
    CHECK(!judge(0, 1, 0, 500 * MS, 0, why),
          "a user-space engine (padlock) that claims the algorithm: no kernel evidence needed");
    CHECK(judge(0, 0, 0, 500 * MS, 0, why), "a user-space engine that does not claim it: fell "
          "back (%s)", why);
    CHECK(offload_sys_pct(300 * MS, 100 * MS) == 25 && offload_sys_pct(0, MS / 2) == -1,
          "system share 25 %%, unknown under 1 ms (%g, %g)", offload_sys_pct(300 * MS, 100 * MS),
          offload_sys_pct(0, MS / 2));
}

static void test_kernel_fds(void)
{
    int before = offload_kernel_fds();
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0 && offload_kernel_fds() == before,
          "a Unix socket is not a kernel crypto descriptor (%d)", offload_kernel_fds());
    close(sv[0]);
    close(sv[1]);
    int fd = socket(38 /* AF_ALG */, SOCK_SEQPACKET, 0);
    if (fd < 0) {
        UNAVAILABLE("counting an AF_ALG socket", "socket(AF_ALG) fails in this kernel");
        return;
    }
    CHECK(offload_kernel_fds() == before + 1, "an AF_ALG socket is counted (%d, before %d)",
          offload_kernel_fds(), before);
    close(fd);
}

/* A kernel-path row whose worker is a shell script sending the evidence given. */
static int ok_check(const struct impl *im, char *why, size_t n)
{
    (void)im, (void)why, (void)n;
    return 0;
}

static const struct impl fake = { .alg = "sha256", .name = "afalg-engine", .backend = "t",
                                  .path = PATH_KERNEL, .check = ok_check };
/* A user-space engine (padlock's kind): it needs no system time as evidence. */
static const struct impl fake_hw = { .alg = "aes-128-cbc", .name = "padlock-engine",
                                     .backend = "t", .path = PATH_HW, .check = ok_check };

/* The result once done or, live, at the first sample: what the stop rule reads meanwhile
 * (conclude() judges again at the end, so a verdict kept only there is caught live). Live,
 * the worker pauses after each sample, so the first is read alone. */
static struct result scripted_impl(const struct impl *im, int live, const char *offload_line,
                                   const char *user, const char *sys)
{
    char path[] = "/tmp/accelscope-t_offload-XXXXXX", script[1024];
    snprintf(script, sizeof script,
             "#!/bin/sh\necho hello $$ x; echo verified scripted; echo clock none\n"
             "echo '%s'\nfor r in 1 3 5 7 9; do echo \"sample 1 1000000 1000000000 1000000000 "
             "0 0 0 ${r}000000000 ${r}500000000 0 0 0 0 %s %s\"; %s done\necho done\n",
             offload_line, user, sys, live ? "sleep 2;" : "");
    script_write(path, script);
    engine_set_exe(path);
    struct engine_job j = { .impl = im, .bytes = 64, .threads = 1, .seconds = 0.02,
                            .samples = 5 };
    struct engine *e = engine_start(&j);
    for (int i = 0; i < 2000 && !engine_step(e); i++) {
        const struct result *now = engine_result(e);
        if (live && now->status == RES_RUNNING && now->samples > 0)
            break;
        struct pollfd fds[4];
        poll(fds, (nfds_t)engine_pollfds(e, fds, 4), 10);
    }
    struct result r = *engine_result(e);
    engine_free(e);
    unlink(path);
    return r;
}

static struct result scripted(const char *offload_line, const char *user, const char *sys)
{
    return scripted_impl(&fake, 0, offload_line, user, sys);
}

static void test_protocol(void)
{
    /* 5 samples of 20 ms user, 80 ms system each: the kernel did it. */
    struct result r = scripted("offload 1 2 afalg", "20000000", "80000000");
    CHECK(r.status == RES_OK && !r.fallback && fabs(r.sys_pct - 80) < 1e-9,
          "claimed, 2 sockets, 80 %% system: kernel figure (status %d %s; fallback %d %s; "
          "sys %g)", r.status, r.reason, r.fallback, r.fallback_why, r.sys_pct);
    r = scripted("offload 0 0 afalg", "100000000", "0");
    CHECK(r.status == RES_OK && r.fallback &&
              !strcmp(r.fallback_why,
                      "afalg engine does not handle sha256: libcrypto software did the work"),
          "not claimed: measured, and reported as fallback (status %d %s; %d: %s)", r.status,
          r.reason, r.fallback, r.fallback_why);
    r = scripted("offload 1 1 afalg", "100000000", "1000000");
    CHECK(r.status == RES_OK && r.fallback && r.sys_pct < 1,
          "claimed, a socket, 1 %% system time: fallback (%d: %s)", r.fallback, r.fallback_why);
    r = scripted("", "100000000", "0");
    CHECK(r.status == RES_OK && !r.fallback && r.sys_pct == 0,
          "no offload line (not an engine row): never a fallback, system share 0 (%d, %g)",
          r.fallback, r.sys_pct);
    CHECK(!r.offload_open, "no offload line: no verdict to wait for");

    /* The verdict open holds a settled cell back from stopping early (session_run.c): only a
     * claimed kernel row short of CPU time has one; 5 x 2 us is far under 0.1 s. */
    r = scripted("offload 1 2 afalg", "1000", "1000");
    CHECK(r.status == RES_OK && !r.fallback && r.sys_pct < 0 && r.offload_open,
          "claimed, 2 sockets, 10 us of CPU time: verdict open (fallback %d, sys %g, open %d)",
          r.fallback, r.sys_pct, r.offload_open);
    r = scripted("offload 1 2 afalg", "20000000", "80000000");
    CHECK(!r.offload_open, "claimed, 0.5 s of CPU time: verdict in");
    r = scripted("offload 0 0 afalg", "1000", "1000");
    CHECK(r.fallback && !r.offload_open, "not claimed: a fallback whatever the CPU time (%d %d)",
          r.fallback, r.offload_open);
    r = scripted("offload 1 0 afalg", "1000", "1000");
    CHECK(r.fallback && !r.offload_open, "claimed, no socket: a fallback whatever the CPU time "
          "(%d %d)", r.fallback, r.offload_open);
    r = scripted("", "1000", "1000");
    CHECK(!r.offload_open && r.sys_pct < 0,
          "no offload line, 10 us of CPU time: no verdict to wait for (open %d, sys %g)",
          r.offload_open, r.sys_pct);
    r = scripted_impl(&fake_hw, 0, "offload 1 0 padlock", "1000", "1000");
    CHECK(r.status == RES_OK && !r.fallback && !r.offload_open,
          "user-space engine, claimed, 10 us of CPU time: no system time to wait for (status %d "
          "%s; fallback %d %s; open %d)", r.status, r.reason, r.fallback, r.fallback_why,
          r.offload_open);
    r = scripted_impl(&fake, 1, "offload 1 2 afalg", "1000", "1000");
    CHECK(r.status == RES_RUNNING && r.samples > 0 && r.offload_open,
          "live, claimed kernel row at its first sample, short of CPU time: verdict open (status "
          "%d, samples %d, open %d)", r.status, r.samples, r.offload_open);
    r = scripted_impl(&fake, 1, "offload 0 0 afalg", "100000000", "0");
    CHECK(r.status == RES_RUNNING && r.samples > 0 && r.fallback && !r.offload_open,
          "live, not claimed: drawn as a fallback from its first sample (status %d, fallback %d, "
          "open %d)", r.status, r.fallback, r.offload_open);
}

/* The other exports: JSON carries the reason, the SVG draws the row as software. */
static void test_export(const struct cell *c)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(f && export_write_stream(f, EXPORT_JSON, c, 1) == 0, "JSON written");
    fclose(f);
    CHECK(text && strstr(text, "\"fallback\": \"afalg engine does not handle sha256") &&
              strstr(text, "\"sys_pct\": 1.5"), "JSON: fallback and sys_pct");
    free(text);
    f = open_memstream(&text, &len);
    CHECK(f && export_write_stream(f, EXPORT_MD, c, 1) == 0, "Markdown written");
    fclose(f);
    CHECK(text && strstr(text, "| software | afalg-engine |") &&
              strstr(text, "- kernel afalg-engine: afalg engine does not handle sha256"),
          "Markdown: a software row, and the reason under the table");
    free(text);
    f = open_memstream(&text, &len);
    CHECK(f && export_write_stream(f, EXPORT_SVG, c, 1) == 0, "SVG written");
    fclose(f);
    CHECK(text && strstr(text, ">software</tspan>") && strstr(text, "fell back to software"),
          "SVG: drawn as software, not kernel");
    free(text);
}

/* The fallback through `run --csv` and back: a new column, optional in an old file. */
static void test_csv(void)
{
    struct cell c;
    memset(&c, 0, sizeof c);
    c.impl = &fake;
    c.bytes = 64;
    c.r.status = RES_OK;
    c.r.threads = 1;
    c.r.mb_per_s = 100;
    c.r.sys_pct = 1.5;
    c.r.fallback = 1;
    snprintf(c.r.fallback_why, sizeof c.r.fallback_why, "afalg engine does not handle "
             "sha256: libcrypto software did the work");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(f && csv_write_stream(f, &c, 1) == 0, "CSV written");
    fclose(f);
    test_export(&c);
    struct csvread_set set;
    memset(&set, 0, sizeof set);
    char why[300];
    f = fmemopen(text, len, "r");
    CHECK(csvread_stream(f, "mem", &set, why, sizeof why) == 0 && set.n == 1 &&
              !strcmp(set.rows[0].fallback, c.r.fallback_why) && set.rows[0].sys_pct == 1.5,
          "fallback and sys_pct read back (%s; '%s', %g)", why, set.n ? set.rows[0].fallback : "",
          set.n ? set.rows[0].sys_pct : -2);
    fclose(f);
    csvread_free(&set);
    free(text);
    static const char old[] = "algorithm,bytes,mb_per_s\nsha256,64,100\n";
    memset(&set, 0, sizeof set);
    f = fmemopen((void *)old, sizeof old - 1, "r");
    CHECK(csvread_stream(f, "old", &set, why, sizeof why) == 0 && set.n == 1 &&
              !set.rows[0].fallback[0] && set.rows[0].sys_pct == -1,
          "an old file without the columns: no fallback, system share unknown (%s)", why);
    fclose(f);
    csvread_free(&set);
}

/* `compare` by path: a fallback row is no figure of the kernel path; by implementation it
 * keeps its figure. */
static void test_compare(void)
{
    static const char csv[] =
        "algorithm,path,implementation,bytes,mb_per_s,status,fallback\n"
        "sha256,kernel,afalg-engine,64,100,ok,afalg engine does not handle sha256: x\n"
        "sha256,kernel,sha256-generic,64,50,ok,\n";
    struct csvread_set set;
    struct compare_table t;
    char why[300];
    memset(&set, 0, sizeof set);
    FILE *f = fmemopen((void *)csv, sizeof csv - 1, "r");
    CHECK(csvread_stream(f, "c", &set, why, sizeof why) == 0, "compare input read (%s)", why);
    fclose(f);
    CHECK(compare_build(&set, 1, 0, &t, why, sizeof why) == 0 && t.nrows == 1 &&
              t.rows[0].fig[0].mb_per_s == 50,
          "by path: the kernel's figure is 50, not the fallback's 100 (%g)",
          t.nrows ? t.rows[0].fig[0].mb_per_s : -1);
    compare_free(&t);
    CHECK(compare_build(&set, 1, 1, &t, why, sizeof why) == 0 && t.nrows == 2 &&
              t.rows[0].fig[0].mb_per_s + t.rows[1].fig[0].mb_per_s == 150,
          "by implementation: both rows keep their figures (%zu rows)", t.nrows);
    compare_free(&t);
    csvread_free(&set);
}

/* Here the engines may not load: a row says why in one line. */
static void test_rows_say_why(void)
{
    static const char *const rows[] = { "afalg-engine", "devcrypto-engine" };
    for (size_t i = 0; i < 2; i++) {
        const struct impl *im = registry_find("aes-128-cbc", rows[i]);
        char why[300] = "";
        if (!im) {
            CHECK(0, "aes-128-cbc has a %s row", rows[i]);
            continue;
        }
        int rc = im->check(im, why, sizeof why);
        CHECK(rc == 0 || (why[0] && !strchr(why, '\n')),
              "%s: usable, or one line saying why (%s)", rows[i], why);
        if (rc)
            UNAVAILABLE(rows[i], why);
    }
}

int main(void)
{
    test_rule();
    test_kernel_fds();
    test_protocol();
    test_csv();
    test_compare();
    test_rows_say_why();
    return check_done();
}
