/* The command line end to end (ACCELSCOPE_BIN, default ./accelscope): help and version, every
 * bad input (exit 2, a message naming what is accepted, no file), and a real run whose CSV
 * is parsed back. */
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "csvread.h"
#include "osslcap.h"
#include "stats.h"
#include "shell.h"

static const char *bin;
#define out shell_out
#define err shell_err

/* Runs bin with args; captures stdout and stderr; returns the exit status. */
static int sh(const char *args)
{
    return shell_run("", bin, args, NULL);
}

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

static void test_help(void)
{
    CHECK(sh("--help") == 0 && strstr(out, "--csv") && strstr(out, "--decrypt") &&
          strstr(out, "--threads") && strstr(out, "ACCELSCOPE_DENY"), "--help tells the options");
    CHECK(sh("--version") == 0 && strstr(out, "accelscope "), "--version");
    CHECK(sh("frobnicate") == 2 && strstr(err, "info, run"), "unknown command: exit 2, lists commands");
    CHECK(sh("run --help") == 0 && strstr(out, "--sizes"), "run --help");
    CHECK(sh("run -q -a sha256,all -s 16 -p hw -i openssl --time 0.01") == 0,
          "'all' inside a list: %s", err);
    CHECK(sh("info --bogus") == 2 && strstr(err, "--clock"), "info bad option");
}

struct bad {
    const char *args;
    const char *says; /* a word of the accepted values the message must contain */
};

static void test_bad_input(const char *dir)
{
    char csv[512], args[2048];
    snprintf(csv, sizeof csv, "%s/bad.csv", dir);
    static const struct bad bads[] = {
        { "-a sha256,rot13", "aes-256-gcm" },
        { "-p hw,gpu", "kernel" },
        { "-s 0", "16 MiB" },
        { "-s 16777217", "16 MiB" },
        { "-s 32M", "16 MiB" },
        { "-a aes-128-cbc -s 100", "multiple of" },
        { "-a idea-cbc -s 12", "8-byte" },
        { "-t 100000", "this process may use" },
        { "-t 0", "this process may use" },
        { "-t 1,x", "bad thread count 'x'" },
        { "-t ''", "empty thread list" },
        { "--time 0", "seconds" },
        { "-a sha256 -s 16 -i no-such-impl", "openssl-simd" },
        { "-a ''", "accepted" },
        { "-p ''", "kernel" },
        { "--time abc", "seconds" },
        { "--time 0x1p-3", "seconds" }, /* strtod's hexadecimal */
        { "--time ' 0.1'", "seconds" },
        { "-s 4x", "MiB or MB" },
        { "--csv other.csv", "--csv given twice" }, /* only one would be written */
        { "--out a.md --out b.md", "--out given twice" },
        { "--bogus", "--help" },
        { "-s", "needs a value" },
    };
    for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
        snprintf(args, sizeof args, "run --time 0.01 --csv %s %s", csv, bads[i].args);
        int rc = sh(args);
        CHECK(rc == 2, "'%s': exit 2 (got %d)", bads[i].args, rc);
        CHECK(strstr(err, bads[i].says) != NULL, "'%s': message names '%s': %s", bads[i].args,
              bads[i].says, err);
        CHECK(!exists(csv), "'%s': no file written", bads[i].args);
    }
    /* (not in the table, which gives --csv already: a second one is refused as such) */
    CHECK(sh("run -a sha256 -s 16 -p hw --time 0.01 --force --csv /dev/null") == 2 &&
          strstr(err, "regular file"), "--force onto a device refused: %s", err);
    snprintf(args, sizeof args, "run -a sha256 -s 16 -p hw --time 0.01 --csv %s/no/such/dir/x.csv", dir);
    CHECK(sh(args) == 2 && strstr(err, "does not exist"), "unwritable CSV path: %s", err);
    setenv("ACCELSCOPE_DENY", "aesni,warp-drive", 1);
    CHECK(sh("run -a sha256 -s 16 --time 0.01") == 2 && strstr(err, "vaes"), "bad deny word");
    unsetenv("ACCELSCOPE_DENY");
    /* A denial reaches the direct GCM kernels' form: under it no line says EVEX, and each
     * line there is (none off x86-64) says what runs instead or why nothing does. */
    setenv("ACCELSCOPE_DENY", "avx512vl", 1);
    CHECK(sh("info") == 0, "info under ACCELSCOPE_DENY=avx512vl: %s", err);
    for (char *l = strstr(out, "direct "); l; l = strstr(l + 1, "direct ")) {
        if (strncmp(l, "direct xmm gcm: ", 16) && strncmp(l, "direct ymm gcm: ", 16))
            continue;
        CHECK(strncmp(l + 16, "SSE (", 5) == 0 || strncmp(l + 16, "VEX (", 5) == 0 ||
                  strncmp(l + 16, "not run: ", 9) == 0,
              "ACCELSCOPE_DENY=avx512vl: %.*s", (int)strcspn(l, "\n"), l);
    }
    unsetenv("ACCELSCOPE_DENY");

    /* An existing file is never clobbered without --force. */
    FILE *f = fopen(csv, "w");
    fputs("precious\n", f);
    fclose(f);
    snprintf(args, sizeof args, "run -a sha256 -s 16 -p hw --time 0.01 --csv %s", csv);
    CHECK(sh(args) == 2 && strstr(err, "--force"), "existing CSV refused: %s", err);
    char *kept = csvr_slurp(csv);
    CHECK(kept && !strcmp(kept, "precious\n"), "existing CSV untouched");
    free(kept);

    /* One file under two names is refused before measuring, even with --force, and before
     * the advice to add --force: a second spelling, a hard link, a folder reached through a
     * symbolic link (neither file there yet). */
    char two[512], other[512], real[512], via[512];
    snprintf(two, sizeof two, "%s/./bad.csv", dir);
    snprintf(other, sizeof other, "%s/hard.csv", dir);
    snprintf(real, sizeof real, "%s/real", dir);
    snprintf(via, sizeof via, "%s/via", dir);
    CHECK(link(csv, other) == 0 && mkdir(real, 0700) == 0 && symlink(real, via) == 0,
          "a hard link and a linked folder in %s", dir);
    snprintf(real, sizeof real, "%s/real/n.csv", dir);
    snprintf(via, sizeof via, "%s/via/n.csv", dir);
    const char *q = "run -a sha256 -s 16 -p hw --time 0.01";
    const char *first[] = { csv, csv, csv, real }, *second[] = { two, two, other, via },
               *force[] = { "", " --force", " --force", "" };
    for (size_t i = 0; i < 4; i++) {
        snprintf(args, sizeof args, "%s%s --csv %s --out %s", q, force[i], first[i], second[i]);
        int rc = sh(args);
        CHECK(rc == 2 && strstr(err, "name the same file"), "'%s': exit 2 (got %d), says why: %s",
              args, rc, err);
        kept = csvr_slurp(csv);
        CHECK(kept && !strcmp(kept, "precious\n") && !exists(real), "'%s': nothing written",
              args);
        free(kept);
    }
    unlink(other);

    /* --force never replaces a run that is being read: --against's, or one compare reads
     * (also through standard input). A real run, so that only the guard keeps it. */
    char saved[512], *orig = csvr_slurp("tests/data/epyc-milan.csv"), redir[768], o_path[80],
         e_path[80];
    snprintf(saved, sizeof saved, "%s/saved.csv", dir);
    snprintf(two, sizeof two, "%s/./saved.csv", dir);
    FILE *sf = orig ? fopen(saved, "w") : NULL;
    CHECK(sf && fputs(orig, sf) >= 0 && fclose(sf) == 0, "a saved run at %s", saved);
    snprintf(redir, sizeof redir, ">%s 2>%s <%s", shell_path("out", o_path, sizeof o_path),
             shell_path("err", e_path, sizeof e_path), saved);
    const char *reads[] = { "%s --force --out %s --against %s", "%s --force --csv %s --against -",
                            "compare --force --csv %s %s tests/data/westmere-qemu.csv",
                            "compare --force --csv %s - tests/data/westmere-qemu.csv" };
    for (size_t i = 0; i < 4; i++) {
        if (i < 2)
            snprintf(args, sizeof args, reads[i], q, two, saved);
        else
            snprintf(args, sizeof args, reads[i], two, saved);
        int rc = shell_run("", bin, args, redir);
        CHECK(rc == 2 && strstr(err, i < 2 ? "is the --against file" : "one of the files to "
                                "compare"), "'%s': exit 2 (got %d), says why: %s", args, rc, err);
        kept = csvr_slurp(saved);
        CHECK(kept && orig && !strcmp(kept, orig), "'%s': the run read is untouched", args);
        free(kept);
    }
    free(orig);
    unlink(saved);
    unlink(csv);
}

/* Runs args (a portable-only run with CSV on stdout): every row ok; the idea-cbc row was
 * verified against OpenSSL where OpenSSL has IDEA, else against no_ref. */
static void portable_rows(const char *args, const char *no_ref)
{
    int rc = sh(args);
    CHECK(rc == 0, "%s: every portable row verifies and measures (exit %d): %s", args, rc, err);
    static struct csvr c;
    if (csvr_parse(&c, out)) {
        CHECK(0, "%s: CSV parses", args);
        return;
    }
    int alg = csvr_col(&c, "algorithm"), ref = csvr_col(&c, "verified_against"), idea = 0;
    for (int r = 1; r < c.nrows && alg >= 0 && ref >= 0; r++)
        if (!strcmp(c.f[r][alg], "idea-cbc")) {
            idea++;
            CHECK(!strcmp(c.f[r][ref], no_ref) || !strncmp(c.f[r][ref], "openssl", 7),
                  "%s: idea-cbc verified against '%s' (want '%s' or OpenSSL)", args, c.f[r][ref],
                  no_ref);
        }
    CHECK(idea == 1, "%s: one idea-cbc row (%d)", args, idea);
    csvr_free(&c);
}

/* The implementations of sha256 and aes-128-cbc on the asm, hw and kernel paths that
 * `accelscope info` calls available, as "\nALG PATH NAME\n" lines in buf; how many. */
static int available(char *buf, size_t n)
{
    int count = 0;
    size_t len = 1;
    snprintf(buf, n, "\n");
    CHECK(sh("info") == 0, "info runs: %s", err);
    char alg[64] = "", *save = NULL;
    for (char *ln = strtok_r(out, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
        char a[64], p[16], name[64], st[16];
        if (ln[0] == ' ' && ln[1] == ' ' && ln[2] != ' ' && sscanf(ln, "%63s", a) == 1)
            snprintf(alg, sizeof alg, "%s", a); /* "  ALG": a section */
        else if (!strncmp(ln, "    ", 4) && sscanf(ln, "%15s %63s %15s", p, name, st) == 3 &&
                 (!strcmp(alg, "sha256") || !strcmp(alg, "aes-128-cbc")) &&
                 (!strcmp(p, "asm") || !strcmp(p, "hw") || !strcmp(p, "kernel")) &&
                 !strcmp(st, "available") && len < n) {
            len += (size_t)snprintf(buf + len, n - len, "%s %s %s\n", alg, p, name);
            count++;
        }
    }
    CHECK(len < n, "the list of available implementations fits");
    return count;
}

static void test_run_csv(const char *dir)
{
    char csv[512], args[1024], avail[4096];
    snprintf(csv, sizeof csv, "%s/run.csv", dir);
    snprintf(args, sizeof args,
             "run -a sha256,aes-128-cbc -s 16,4k -p asm,hw,kernel --time 0.05 --csv %s", csv);
    int rc = sh(args);
    CHECK(rc == 0, "run exits 0 (got %d): %s", rc, err);
    CHECK(strstr(out, "sha256") && strstr(out, "openssl") && strstr(out, "vs slowest"),
          "table printed");
    static struct csvr c;
    char *text = csvr_slurp(csv);
    CHECK(text && csvr_parse(&c, text) == 0, "CSV parses");
    int alg = csvr_col(&c, "algorithm"), path = csvr_col(&c, "path"),
        name = csvr_col(&c, "implementation"), st = csvr_col(&c, "status"),
        mb = csvr_col(&c, "mb_per_s"), by = csvr_col(&c, "bytes"), rs = csvr_col(&c, "reason");
    CHECK(alg >= 0 && path >= 0 && name >= 0 && st >= 0 && mb >= 0 && by >= 0 && rs >= 0,
          "columns present");
    int ok = 0, kernel = 0, navail = available(avail, sizeof avail);
    for (int r = 1; r < c.nrows && alg >= 0 && st >= 0 && mb >= 0; r++) {
        CHECK(c.nfields[r] == c.nfields[0], "row %d complete", r);
        char key[200];
        snprintf(key, sizeof key, "\n%s %s %s\n", c.f[r][alg], c.f[r][path], c.f[r][name]);
        CHECK(!strcmp(c.f[r][st], "ok") == (strstr(avail, key) != NULL),
              "%s/%s/%s %s B: '%s', and info says it is %savailable", c.f[r][alg],
              c.f[r][path], c.f[r][name], c.f[r][by], c.f[r][st], strstr(avail, key) ? "" : "un");
        if (!strcmp(c.f[r][st], "ok")) {
            ok++;
            CHECK(atof(c.f[r][mb]) > 0, "ok row has a figure");
            CHECK(!strcmp(c.f[r][by], "16") || !strcmp(c.f[r][by], "4096"), "bytes column");
        } else {
            CHECK(c.f[r][mb][0] == 0 && c.f[r][rs][0], "row without figure has a reason");
        }
        if (!strcmp(c.f[r][path], "kernel"))
            kernel++;
    }
    /* Every implementation `info` calls available measured at both sizes, the others not:
     * at least OpenSSL's rows (hw, asm int and simd) of both algorithms on any CPU. */
    CHECK(ok == 2 * navail && navail >= 6, "%d measured rows: 2 sizes x %d available "
          "implementations", ok, navail);
    CHECK(kernel >= 1, "kernel path rows present, measured or with their reason");
    csvr_free(&c);
    free(text);

    /* CSV on stdout: the table moves to stderr, stdout is pure CSV. */
    rc = sh("run -a md5 -s 64 -p hw --time 0.02 --csv -");
    CHECK(rc == 0 && !strncmp(out, "timestamp,", 10) && strstr(err, "md5"), "--csv - ");

    /* Every portable row verifies, in both directions, also where OpenSSL offers no reference
     * (IDEA in OpenSSL 3's default provider): then the known answer, and for decrypt a round
     * trip at the job's size, is the check, and the row says so. */
    portable_rows("run -i portable -s 16 --time 0.02 --csv -", "known answer");
    portable_rows("run -i portable -s 16 -d --time 0.02 --csv -", "known answer+round trip");

    /* The fault injections surface in the table and CSV and the exit status says so. */
    setenv("ACCELSCOPE_TEST_FAULTS", "1", 1);
    rc = sh("run -a sha256 -s 64 -i fault-crash,fault-wrong,openssl --time 0.02 --csv -");
    CHECK(rc == 1, "a faulty cell makes exit 1 (got %d)", rc);
    /* exact: backends/fault.c traps with UD2 (x86) or UDF (Arm), both SIGILL */
    CHECK(strstr(out, ",crashed (SIGILL),") != NULL, "crash in CSV named SIGILL: %s", out);
    CHECK(strstr(out, "wrong output"), "wrong output in CSV");
    CHECK(strstr(out, ",ok,"), "the good cell still measured");
    unsetenv("ACCELSCOPE_TEST_FAULTS");
}

/* -t 1,2: one CSV row per thread count and the scaling table; on one CPU, 2 refused and why. */
static void test_threads(void)
{
    int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t mine;
    if (sched_getaffinity(0, sizeof mine, &mine) == 0)
        cpus = CPU_COUNT(&mine);
    int rc = sh("run -a aes-128-ctr -s 16384 -i portable -t 1,2 -T 0.3 --csv -");
    if (cpus < 2) {
        CHECK(rc == 2 && strstr(err, "more than the 1 CPU this process may use"),
              "one CPU: -t 1,2 refused naming the maximum: %s", err);
        UNAVAILABLE("-t 1,2 run", "this process may use one CPU");
        return;
    }
    CHECK(rc == 0, "-t 1,2 runs (rc %d): %s", rc, err);
    static struct csvr c;
    int th[3] = { 0 }, rows = 0;
    if (csvr_parse(&c, out) == 0) {
        int t = csvr_col(&c, "threads"), st = csvr_col(&c, "status");
        for (int r = 1; r < c.nrows && t >= 0 && st >= 0; r++, rows++)
            if (!strcmp(c.f[r][st], "ok") && atoi(c.f[r][t]) >= 1 && atoi(c.f[r][t]) <= 2)
                th[atoi(c.f[r][t])]++;
        csvr_free(&c);
    }
    CHECK(rows == 2 && th[1] == 1 && th[2] == 1, "two rows, threads 1 and 2 (%d rows: %d, %d)",
          rows, th[1], th[2]);
    CHECK(strstr(err, "portable, 2 thr") && strstr(err, "scaling:") && strstr(err, "efficiency"),
          "the table says the thread count per row, then the scaling table: %s", err);
}

/* `compare`: bad usage and bad files exit 2 with what is wrong; two machines side by side in
 * every format. */
static void test_compare(const char *dir)
{
    char args[2048], csv[512];
    static const struct bad bads[] = {
        { "compare", "no file" },
        { "compare tests/data/no-such.csv", "No such file" },
        { "compare --json --markdown tests/data/epyc-milan.csv", "one format at a time" },
        { "compare --bogus tests/data/epyc-milan.csv", "--markdown" },
        { "compare tests/data/epyc-milan.csv tests/data/malformed-quote.csv",
          "malformed-quote.csv: line 4, column 27: unterminated quoted field" },
        { "compare tests/data/malformed-number.csv", "line 5, column 14 (mb_per_s)" },
        { "compare tests/data/malformed-binary.csv", "no 'algorithm' column" },
        { "compare tests", "folder" },
        { "compare - -", "only once" },
        { "compare -c a.csv -c b.csv tests/data/epyc-milan.csv", "given twice ('a.csv' and 'b.csv')" },
    };
    for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
        int rc = sh(bads[i].args);
        CHECK(rc == 2 && strstr(err, bads[i].says), "'%s': exit 2 (got %d), says '%s': %s",
              bads[i].args, rc, bads[i].says, err);
    }
    const char *two = "tests/data/epyc-milan.csv tests/data/westmere-qemu.csv";
    snprintf(args, sizeof args, "compare %s", two);
    CHECK(sh(args) == 0 && strstr(out, "A  vm / AMD EPYC") && strstr(out, "B  vm / Westmere") &&
          strstr(out, "B/A"), "compare: two CPUs side by side: %s", err);
    snprintf(args, sizeof args, "compare --impl --markdown %s", two);
    CHECK(sh(args) == 0 && strstr(out, "| Size | Path | Implementation | A MB/s | B MB/s | B vs A |"),
          "compare --impl --markdown");
    snprintf(csv, sizeof csv, "%s/cmp.json", dir);
    snprintf(args, sizeof args, "compare --json %s", two);
    FILE *f = sh(args) == 0 ? fopen(csv, "w") : NULL;
    if (f) {
        fputs(out, f);
        fclose(f);
    }
    snprintf(args, sizeof args, "python3 -m json.tool %s >/dev/null", csv);
    CHECK(f && system(args) == 0, "compare --json parses (python3 -m json.tool)");
    snprintf(csv, sizeof csv, "%s/cmp.csv", dir);
    snprintf(args, sizeof args, "compare --csv %s %s", csv, two);
    static struct csvr c;
    char *text = NULL;
    CHECK(sh(args) == 0 && (text = csvr_slurp(csv)) && csvr_parse(&c, text) == 0 &&
          c.nrows == 1 + 2 * 32 && csvr_col(&c, "ratio") >= 0, "compare --csv FILE: 64 rows");
    csvr_free(&c);
    free(text);
    CHECK(sh(args) == 2 && strstr(err, "--force"), "compare --csv: no clobber");
    /* 62 sides by letter (A-Z, a-z, 0-9; one file given again is a side of its own); past
     * that the text table could not tell them apart: refused, CSV and JSON still written. */
    char many[4096] = "compare";
    for (int i = 0; i < 63; i++) {
        if (i == 27)
            CHECK(sh(many) == 0 && strstr(out, "\na  vm"), "27 sides: the 27th is 'a': %s", err);
        strcat(many, " tests/data/epyc-milan.csv");
    }
    CHECK(sh(many) == 2 && strstr(err, "63 sides") && strstr(err, "--json"),
          "63 sides: the text table refused, --csv and --json named: %s", err);
    char json[sizeof many + 8];
    snprintf(json, sizeof json, "compare --json%s", many + strlen("compare"));
    CHECK(sh(json) == 0 && strstr(out, "\"side\": \"9\""), "63 sides as JSON: %s", err);
    snprintf(args, sizeof args, "compare tests/data/old-schema.csv tests/data/extra-columns.csv");
    CHECK(sh(args) == 0 && strstr(out, "x1.00"), "older and newer schemas compare: %s", err);
}

/* `run --out` by extension, `--against`, and the results folder. */
static void test_out_save(const char *dir)
{
    char args[1024], p[512], xdg[512];
    const char *q = "run -a sha256 -s 16 -p hw -i openssl --time 0.01";
    snprintf(p, sizeof p, "%s/x.txt", dir);
    snprintf(args, sizeof args, "%s --out %s", q, p);
    CHECK(sh(args) == 2 && strstr(err, ".md") && strstr(err, ".svg") && !exists(p),
          "--out x.txt: exit 2 naming the extensions, no file: %s", err);
    snprintf(args, sizeof args, "%s --against tests/data/malformed-fields.csv", q);
    CHECK(sh(args) == 2 && strstr(err, "line 3, column 26") && !strstr(out, "sha256"),
          "--against a malformed file: exit 2 before measuring: %s", err);
    static const char *const ext[] = { "csv", "md", "json", "svg" };
    for (int i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s/out.%s", dir, ext[i]);
        snprintf(args, sizeof args, "%s --no-save --out %s", q, p);
        CHECK(sh(args) == 0 && exists(p), "--out .%s written: %s", ext[i], err);
        CHECK(!strstr(err, "saved to"), "--no-save: nothing saved");
    }
    snprintf(args, sizeof args, "%s --no-save --out %s/out.md", q, dir);
    CHECK(sh(args) == 2 && strstr(err, "--force"), "--out: no clobber");

    snprintf(args, sizeof args, "%s --against tests/data/epyc-milan.csv", q);
    CHECK(sh(args) == 0 && strstr(out, "A  vm / ") && strstr(out, "B/A") &&
          strstr(out, "this run"), "--against: the compare table after the run: %s", err);
    CHECK(!strstr(out, "md5") && !strstr(out, "16 KiB"), "--against: only what this run "
          "measured, not every row of the saved file");

    snprintf(xdg, sizeof xdg, "%s/xdg/accelscope/results/", dir);
    CHECK(sh(q) == 0 && strstr(err, "saved to ") && strstr(err, xdg), "run saved under "
          "$XDG_DATA_HOME: %s", err);
    char *path = strstr(err, xdg), first[600];
    snprintf(first, sizeof first, "%.*s", path ? (int)strcspn(path, "\n") : 0, path ? path : "");
    snprintf(args, sizeof args, "compare %s", first);
    CHECK(*first && sh(args) == 0 && strstr(out, "hardware"), "the saved run loads: %s", err);
    CHECK(sh(q) == 0 && strstr(err, xdg) && !strstr(err, first), "a second run, another file");
    snprintf(p, sizeof p, "%s/out.csv", dir);
    setenv("XDG_DATA_HOME", p, 1); /* a file where the folder should be */
    snprintf(args, sizeof args, "%s --csv %s/kept.csv", q, dir);
    CHECK(sh(args) == 0 && strstr(err, "not saved") && strstr(out, "openssl"),
          "a run that cannot be saved says so, keeps its table and exit 0: %s", err);
    snprintf(p, sizeof p, "%s/kept.csv", dir);
    CHECK(exists(p), "... and its --csv file");
    snprintf(p, sizeof p, "%s/xdg", dir);
    setenv("XDG_DATA_HOME", p, 1);
}

/* One field, quoted as RFC 4180 asks. */
static void quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++)
        fprintf(f, *s == '"' ? "\"\"" : "%c", *s);
    fputc('"', f);
}

/* The machine accelscope says it runs on (the JSON's "machine"): under check-cpus' qemu it is
 * the emulated CPU, not the one this test runs on. */
struct seen {
    char host[256], cpu[256], openssl[256];
};

/* The JSON string after "key": in json, unescaped (\" and \\ only: what these hold). */
static void json_str(const char *json, const char *key, char *buf, size_t n)
{
    char k[64];
    snprintf(k, sizeof k, "\"%s\": \"", key);
    const char *at = json ? strstr(json, k) : NULL;
    size_t j = 0;
    for (at = at ? at + strlen(k) : NULL; at && *at && *at != '"' && j + 1 < n; at++)
        buf[j++] = *at == '\\' && at[1] ? *++at : *at;
    buf[j] = 0;
}

/* A saved run, one row: sha256 hw/openssl 16 B of host (the CPU and OpenSSL of m) at clock
 * MHz, mb MB/s quiet within +-1 % (a figure it could claim) with capability vector caps. */
static void saved_run(const char *path, const char *host, const struct seen *m, double mhz,
                      double mb, const char *caps)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        CHECK(0, "cannot write %s", path);
        return;
    }
    fprintf(f, "timestamp,host,cpu,openssl,capabilities,algorithm,direction,path,implementation,"
               "bytes,threads,mb_per_s,status,quality,ci_pct,absolute,clock_mhz\n2026-12-05T09:00:00Z,");
    quoted(f, host), fputc(',', f), quoted(f, m->cpu), fputc(',', f), quoted(f, m->openssl);
    fputc(',', f), quoted(f, caps);
    fprintf(f, ",sha256,,hw,openssl,16,1,%.3f,ok,quiet,1.00,quiet,%.0f\n", mb, mhz);
    fclose(f);
}

/* A number from this run's JSON (clock.json of test_last_run): the first "key": value. */
static double json_num(const char *json, const char *key)
{
    char k[64];
    snprintf(k, sizeof k, "\"%s\": ", key);
    const char *at = json ? strstr(json, k) : NULL;
    return at ? atof(at + strlen(k)) : 0;
}

/* The last saved run (lastrun.h): a cell whose clock is a third off its clock there, or whose
 * figure is half the one it claimed, says so after the table; another machine's run, or
 * none, is no reference. */
static void test_last_run(const char *dir)
{
    char args[1024], xdg[512], res[600], p[700], caps[256] = "";
    snprintf(xdg, sizeof xdg, "%s/xdg-clock", dir);
    setenv("XDG_DATA_HOME", xdg, 1);
    snprintf(args, sizeof args, "run -a sha256 -s 16 -p hw -i openssl --time 0.01 --no-save "
             "-f --out %s/clock.json", dir);
    CHECK(sh(args) == 0 && !strstr(out, "Clock:") && !strstr(out, "Repeat:"),
          "no saved run: nothing said of the clock or the figure: %s", out);
    snprintf(p, sizeof p, "%s/clock.json", dir);
    char *j = csvr_slurp(p), *at = j ? strstr(j, "\"cells\"") : NULL;
    double mhz = json_num(at, "clock_mhz"), mb = json_num(at, "mb_per_s");
    struct seen m;
    json_str(j, "host", m.host, sizeof m.host);
    json_str(j, "cpu", m.cpu, sizeof m.cpu);
    json_str(j, "openssl", m.openssl, sizeof m.openssl);
    if (at && (at = strstr(at, "\"capabilities\": \"")))
        snprintf(caps, sizeof caps, "%.*s", (int)strcspn(at + 17, "\""), at + 17);
    free(j);
    if (mhz <= 0 || mb <= 0 || !*m.host || !*m.cpu) {
        printf("UNAVAILABLE: the last run's clock: no core clock measured here (%g MHz, "
               "%g MB/s) or no machine in the JSON ('%s', '%s')\n", mhz, mb, m.host, m.cpu);
        return;
    }
    snprintf(res, sizeof res, "%s/accelscope/results", xdg);
    snprintf(p, sizeof p, "%s/accelscope", xdg);
    mkdir(xdg, 0700), mkdir(p, 0700), mkdir(res, 0700);
    snprintf(p, sizeof p, "%s/other.csv", res);
    saved_run(p, "not-this-host", &m, mhz * 1.5, mb * 2, caps);
    CHECK(sh(args) == 0 && !strstr(out, "Clock:") && !strstr(out, "Repeat:"),
          "another machine's run is no reference: %s", out);
    unlink(p);
    snprintf(p, sizeof p, "%s/this.csv", res);
    saved_run(p, m.host, &m, mhz * 1.5, mb * 2, caps);
    int rc = sh(args);
    snprintf(p, sizeof p, "%s/clock.json", dir);
    j = csvr_slurp(p);
    at = j ? strstr(j, "\"cells\"") : NULL;
    double a = json_num(at, "clock_mhz"), b = json_num(at, "clock_ref_mhz"),
           now = json_num(at, "mb_per_s"), last = json_num(at, "last_mb_per_s");
    CHECK(rc == 0 && fabs(b - mhz * 1.5) <= 0.5 && fabs(last - mb * 2) < 0.01,
          "the cell set beside the saved run's %.0f MHz and %.3f MB/s: %.0f, %.3f",
          round(mhz * 1.5), mb * 2, b, last);
    /* this run's clock and figure may move from the first's: the JSON says by how much */
    int moved = a > 0 && b > 0 && fabs(a / b - 1) > STATS_CLOCK_REF_PCT / 100;
    int off = now > 0 && last > 0 && fabs(now / last - 1) > STATS_ABSOLUTE_REPEAT_PCT / 100;
    CHECK(moved == (strstr(out, "Clock: 1 of 1 cells ran at a core clock ") != NULL) &&
          off == (strstr(out, "Repeat: 1 of 1 cells differ by ") != NULL) &&
          ((!moved && !off) || (strstr(out, "this.csv") && j &&
                                strstr(j, "\"absolute\": \"noisy\""))),
          "at %.0f MHz beside %.0f, %.3f MB/s beside %.3f: said under the table with the run's "
          "file, the absolute figure not claimed, exactly when the clock moved more than %.2f %% "
          "or the figure more than %.0f %%: %s", a, b, now, last, STATS_CLOCK_REF_PCT,
          STATS_ABSOLUTE_REPEAT_PCT, out);
    free(j);
    /* the same figure, claimed for other code (a user's mask): no reference for it */
    snprintf(p, sizeof p, "%s/this.csv", res);
    saved_run(p, m.host, &m, mhz, mb * 2, "CPUINFO: OPENSSL_ia32cap=0x0:0x0");
    rc = sh(args);
    snprintf(p, sizeof p, "%s/clock.json", dir);
    j = csvr_slurp(p);
    at = j ? strstr(j, "\"cells\"") : NULL;
    CHECK(rc == 0 && !strstr(out, "Repeat:") && json_num(at, "clock_ref_mhz") > 0 && at &&
              strstr(at, "\"last_mb_per_s\": null"),
          "a figure of other code is no reference, the run still is (its clock): %s", out);
    free(j);
    snprintf(p, sizeof p, "%s/xdg", dir);
    setenv("XDG_DATA_HOME", p, 1);
}

/* The capability vector a row of OpenSSL's ran with (impl "openssl" or "openssl-simd", alg
 * aes-128-ctr or sha256) in a run of theirs under the environment env (ACCELSCOPE_DENY=...,
 * and a user's mask where given): its capabilities field in caps, decoded into w; how many
 * words (0 when the row or its vector is missing). */
static int row_vector(const char *env, const char *impl, const char *alg, uint64_t w[2],
                      char *caps, size_t n)
{
    char prefix[256];
    snprintf(prefix, sizeof prefix, "env -u OPENSSL_ia32cap -u OPENSSL_armcap %s", env);
    int rc = shell_run(prefix, bin, "run -q -a aes-128-ctr,sha256 -s 64 -i openssl,openssl-simd "
                                    "--time 0.01 --csv -", NULL);
    CHECK(rc == 0, "%s: OpenSSL's rows run (exit %d): %s", env, rc, err);
    static struct csvr c;
    int nw = 0;
    caps[0] = 0;
    if (rc || csvr_parse(&c, out))
        return 0;
    int a = csvr_col(&c, "algorithm"), im = csvr_col(&c, "implementation"),
        cap = csvr_col(&c, "capabilities");
    for (int r = 1; r < c.nrows && a >= 0 && im >= 0 && cap >= 0; r++)
        if (!strcmp(c.f[r][a], alg) && !strcmp(c.f[r][im], impl)) {
            snprintf(caps, n, "%s", c.f[r][cap]);
            nw = osslcap_parse(caps, w);
        }
    csvr_free(&c);
    return nw;
}

/* ACCELSCOPE_DENY reaches OpenSSL's rows: the workers' vectors lack what was denied (and what
 * no CPU has without it), whatever this CPU has; on top of the asm row's mask and of a user's
 * own; a user's mask it cannot read is left as it is, and said; without a denial no mask is
 * added. */
static void test_deny_openssl(void)
{
    uint64_t w[2];
    char caps[256];
    int nw = row_vector("ACCELSCOPE_DENY=", "openssl", "aes-128-ctr", w, caps, sizeof caps);
    CHECK(nw >= 1 && !strstr(caps, "env:"), "no denial: no mask added: '%s'", caps);
#if defined(__x86_64__) || defined(__i386__)
    static const struct {
        const char *env, *impl, *alg;
        enum feature f[3]; /* each off in the row's vector */
    } cases[] = {
        { "ACCELSCOPE_DENY=aesni", "openssl", "aes-128-ctr",
          { FEAT_AESNI, FEAT_VAES, FEAT_AESNI } },
        { "ACCELSCOPE_DENY=sha,vaes", "openssl", "sha256", { FEAT_SHA, FEAT_VAES, FEAT_SHA } },
        { "ACCELSCOPE_DENY='pclmulqdq avx'", "openssl", "aes-128-ctr",
          { FEAT_PCLMULQDQ, FEAT_AVX2, FEAT_AVX512F } },
        { "ACCELSCOPE_DENY=avx2", "openssl-simd", "sha256", { FEAT_AVX2, FEAT_AESNI, FEAT_SHA } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        nw = row_vector(cases[i].env, cases[i].impl, cases[i].alg, w, caps, sizeof caps);
        CHECK(nw == 2 && strstr(caps, "env:~") && osslcap_has(w, nw, cases[i].f[0]) == 0 &&
                  osslcap_has(w, nw, cases[i].f[1]) == 0 && osslcap_has(w, nw, cases[i].f[2]) == 0,
              "%s: the %s row's workers lack it: '%s'", cases[i].env, cases[i].impl, caps);
    }
    /* the asm-simd row's own mask kept beside the denial, the bits as OpenSSL numbers them */
    row_vector("ACCELSCOPE_DENY=avx2", "openssl-simd", "sha256", w, caps, sizeof caps);
    CHECK(strstr(caps, "env:~0x200000200000000:~0x6") != NULL, "asm mask and denial: '%s'", caps);
    /* a user's mask takes the denial too */
    row_vector("OPENSSL_ia32cap='~0x200000000000000:~0x0' ACCELSCOPE_DENY=sha", "openssl",
               "sha256", w, caps, sizeof caps);
    CHECK(strstr(caps, "env:~0x200000000000000:~0x20000000") != NULL,
          "the user's mask with the denial: '%s'", caps);
    /* one it cannot read as OpenSSL does is left alone, and the run says so */
    row_vector("OPENSSL_ia32cap=zzz ACCELSCOPE_DENY=sha", "openssl", "sha256", w, caps,
               sizeof caps);
    CHECK(strstr(caps, "env:zzz") != NULL, "an unreadable user's mask left alone: '%s'", caps);
    static const char unread[] = "env -u OPENSSL_armcap OPENSSL_ia32cap=zzz ACCELSCOPE_DENY=sha";
    CHECK(shell_run(unread, bin, "run -a sha256 -s 64 -i openssl --time 0.01", NULL) == 0 &&
              strstr(err, "does not reach OpenSSL's hw rows") && strstr(err, "zzz"),
          "the run says so: %s", err);
    CHECK(shell_run(unread, bin, "info", NULL) == 0 &&
              strstr(out, "does not reach OpenSSL's hw rows") && strstr(out, "zzz"),
          "info says so");
    CHECK(shell_run("env -u OPENSSL_ia32cap ACCELSCOPE_DENY=aesni", bin, "info", NULL) == 0 &&
              strstr(out, "hw rows' workers get (ACCELSCOPE_DENY): OPENSSL_ia32cap=~0x2"),
          "info shows the workers' mask");
#else
    UNAVAILABLE("deny reaches OpenSSL", "the denied features are checked on x86 only");
#endif
}

int main(void)
{
    bin = getenv("ACCELSCOPE_BIN");
    if (!bin)
        bin = "./accelscope";
    char dir[] = "/tmp/accelscope-t_cli-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    /* Runs are saved: into this test's folder, never the user's home. */
    char xdg[sizeof dir + 8];
    snprintf(xdg, sizeof xdg, "%s/xdg", dir);
    setenv("XDG_DATA_HOME", xdg, 1);
    test_help();
    test_bad_input(dir);
    test_run_csv(dir);
    test_threads();
    test_compare(dir);
    test_out_save(dir);
    test_last_run(dir);
    test_deny_openssl();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0, "cleanup");
    shell_done();
    return check_done();
}
