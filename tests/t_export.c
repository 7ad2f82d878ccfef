/* `run --out` / the TUI's export by extension (export.h) on hand-built cells: the SVG parses
 * as XML and renders (rsvg-convert) to a PNG where each measured path's bar shows in its
 * colour and a failed one has none; the JSON parses (python3 -m json.tool) and carries the
 * machine and every cell; the Markdown has a table per algorithm with its rows and statuses;
 * unknown extensions are refused; files are never clobbered without force. */
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "text.h"
#include "stats.h"
#include "csv.h"
#include "derive.h"
#include "export.h"
#include "report.h"
#include "fakecells.h"
#include "csvread.h" /* tests/csvread.h: csvr_slurp */

static char dir[] = "/tmp/acs-export.XXXXXX";

/* Four paths at two sizes, one algorithm with a direction; the kernel cell of the largest
 * size failed when kernel_fails. */
static size_t cells(struct cell *c, int kernel_fails)
{
    size_t n = 0;
    static const char *const impl[] = { "portable", "openssl-int", "openssl", "kernel" };
    for (int i = 0; i < 4; i++)
        for (int s = 0; s < 2; s++)
            c[n++] = fake_cell("sha256", impl[i], s ? 16384 : 16,
                               kernel_fails && i == 3 && s ? RES_UNAVAILABLE : RES_OK,
                               (100.0 + 50 * s) * (1 << i));
    c[n++] = fake_cell("aes-128-gcm", "openssl", 1024, RES_OK, 900);
    c[n++] = fake_cell("aes-128-gcm", "portable", 1024, RES_WRONG, 0);
    derive_cells(c, n);
    return n;
}

static int sh(const char *cmd)
{
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int have(const char *cmd)
{
    char b[256];
    snprintf(b, sizeof b, "command -v %s >/dev/null 2>&1", cmd);
    return sh(b) == 0;
}

/* Pixels of each path colour in png, as "c asm hw kernel" counts. */
static int colour_counts(const char *png, long counts[4])
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "/usr/bin/python3 -c 'import sys\nfrom PIL import Image\n"
             "im = Image.open(sys.argv[1]).convert(\"RGB\")\n"
             "want = [(0xd6,0x27,0x28), (0xe8,0xb1,0x00), (0x2c,0xa0,0x2c), (0x17,0xbe,0xcf)]\n"
             "n = [0, 0, 0, 0]\n"
             "for p in im.getdata():\n"
             "    for i, w in enumerate(want):\n"
             "        if max(abs(p[k] - w[k]) for k in range(3)) <= 6: n[i] += 1\n"
             "print(*n)' %s > %s/counts", png, dir);
    if (sh(cmd))
        return -1;
    snprintf(cmd, sizeof cmd, "%s/counts", dir);
    FILE *f = fopen(cmd, "r");
    int k = f ? fscanf(f, "%ld %ld %ld %ld", &counts[0], &counts[1], &counts[2], &counts[3]) : 0;
    if (f)
        fclose(f);
    return k == 4 ? 0 : -1;
}

static void test_svg(int kernel_fails)
{
    struct cell c[16];
    size_t n = cells(c, kernel_fails);
    char svg[256], png[256], why[512], cmd[1024];
    snprintf(svg, sizeof svg, "%s/chart%d.svg", dir, kernel_fails);
    snprintf(png, sizeof png, "%s/chart%d.png", dir, kernel_fails);
    CHECK(export_write_file(svg, 0, c, n, why, sizeof why) == 0, "svg written: %s", why);
    snprintf(cmd, sizeof cmd, "python3 -c 'import sys, xml.etree.ElementTree as E; "
             "r = E.parse(sys.argv[1]).getroot(); assert r.tag.endswith(\"svg\"), r.tag' %s", svg);
    CHECK(sh(cmd) == 0, "SVG parses as XML");
    char *text = csvr_slurp(svg);
    CHECK(text && strstr(text, "sha256, 16 KiB") && strstr(text, "aes-128-gcm encrypt, 1 KiB"),
          "a chart per algorithm at its largest size");
    free(text);
    if (!have("rsvg-convert") || sh("/usr/bin/python3 -c 'import PIL' 2>/dev/null")) {
        UNAVAILABLE("SVG rendering", "rsvg-convert (librsvg2-bin) or python3-pil missing: run "
                    "tests/install-deps.sh check");
        return;
    }
    snprintf(cmd, sizeof cmd, "rsvg-convert -o %s %s", png, svg);
    CHECK(sh(cmd) == 0, "rsvg-convert renders it");
    long k[4] = { 0 };
    CHECK(colour_counts(png, k) == 0, "PNG colours counted");
    /* The legend's swatch is 16 x 16 = 256 pixels; a bar of 18 px height and at least 60 px
     * wide is over 1000. */
    static const char *const name[] = { "no-asm red", "asm yellow", "hardware green",
                                        "kernel cyan" };
    for (int p = 0; p < 4; p++) {
        int bar = !(kernel_fails && p == 3);
        CHECK(bar ? k[p] > 1000 : k[p] > 100 && k[p] < 400, "%s: %s (%ld pixels)", name[p],
              bar ? "bar drawn" : "legend only, no bar for the failed cell", k[p]);
    }
}

/* Lines of text that end with tail (tail ends in a newline). */
static int lines_ending(const char *text, const char *tail)
{
    int k = 0;
    for (const char *p = strstr(text, tail); p; p = strstr(p + 1, tail))
        k++;
    return k;
}

static void test_md_json_csv(void)
{
    struct cell c[16];
    size_t n = cells(c, 1);
    char p[256], why[512], cmd[2048];
    /* the first cell had rounds retaken: 3 in a slow spell, one of them descheduled too */
    c[0].r.disturbed = 3;
    c[0].r.retaken[RESULT_RETAKEN_SLOW_PHASE] = 3;
    c[0].r.retaken[RESULT_RETAKEN_DESCHEDULED] = 1;
    c[7].r.retaken[RESULT_RETAKEN_STOLEN] = 2; /* a failed cell: its rounds are no figure */
    /* absolute: quiet within +-2.1 % (the first), a quiet cell at +-2.5 % is not (the second),
     * nor a noisy one within it (the third) */
    double ci[3] = { 1.9, 2.5, 1.0 };
    int q[3] = { RESULT_QUIET, RESULT_QUIET, RESULT_NOISY };
    for (int i = 0; i < 3; i++)
        c[i].r.quality = q[i], c[i].r.ci_pct = ci[i], c[i].r.ci_hi = c[i].r.mb_per_s * 1.01;
    /* the first cell's two worker processes read 100 and 96.5 MB/s; the others say nothing */
    c[0].r.process_mb[0] = 100, c[0].r.process_mb[1] = 96.5;
    c[7].r.process_mb[0] = 100, c[7].r.process_mb[1] = 50; /* failed: no figure, no processes */
    c[7].r.quality = RESULT_QUIET; /* a failed cell claims nothing, whatever its quality said */
    c[7].r.ci_pct = 1.0, c[7].r.ci_hi = 1;
    /* beside the last saved run's clock (STATS_CLOCK_REF_PCT 0.75 %): the first 0.5 % off,
     * still quiet; the fourth, quiet and tight, 3.2 % off: absolute noisy */
    c[0].r.clock_mhz = 3000, c[0].r.clock_ref_mhz = 3015;
    c[3].r.quality = RESULT_QUIET, c[3].r.ci_pct = 1.0, c[3].r.ci_hi = c[3].r.mb_per_s * 1.01;
    c[3].r.clock_mhz = 3000, c[3].r.clock_ref_mhz = 3100;
    /* beside the last saved run's claimed figure (STATS_ABSOLUTE_KEPT_PCT 1.5 %): the first
     * 1 % under it, still quiet; the fifth (400 MB/s), quiet and tight, 4.8 % under 420 */
    c[0].r.last_mb_per_s = 101;
    c[4].r.quality = RESULT_QUIET, c[4].r.ci_pct = 1.0, c[4].r.ci_hi = c[4].r.mb_per_s * 1.01;
    c[4].r.last_mb_per_s = 420;
    snprintf(p, sizeof p, "%s/t.md", dir);
    CHECK(export_write_file(p, 0, c, n, why, sizeof why) == 0, "md written: %s", why);
    char *md = csvr_slurp(p);
    CHECK(md && lines_starting(md, "| Path | Implementation | 16 B | 16 KiB |") == 1 &&
          lines_starting(md, "| Path | Implementation | 1 KiB |") == 1, "Markdown: a table per "
          "algorithm, sizes as columns");
    CHECK(md && lines_starting(md, "| ") == 2 + 4 + 2, "Markdown: 4 + 2 implementation rows");
    CHECK(md && strstr(md, "| kernel | kernel | 800.0 ×8.00 | n/a |") &&
          strstr(md, "| no-asm | portable | WRONG |"), "Markdown: figures with xN over the "
          "slowest; failed cells show their status, no figure");
    CHECK(md && strstr(md, "## aes-128-gcm encrypt") && strstr(md, "- no-asm portable: no"),
          "Markdown: direction in the heading, reasons listed");
    free(md);

    snprintf(p, sizeof p, "%s/t.JSON", dir);
    CHECK(export_write_file(p, 0, c, n, why, sizeof why) == 0, "json written (case-insensitive "
          "extension): %s", why);
    snprintf(cmd, sizeof cmd, "python3 -m json.tool %s >/dev/null", p);
    CHECK(sh(cmd) == 0, "python3 -m json.tool parses the JSON");
    snprintf(cmd, sizeof cmd, "python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); "
             "m = d[\"machine\"]; c = d[\"cells\"]; assert len(c) == %zu; "
             "assert m[\"cpu\"] and m[\"kernel\"] and \"features\" in m and \"openssl_capabilities\" in m; "
             "assert c[7][\"status\"] == \"unavailable\" and c[7][\"mb_per_s\"] is None and c[7][\"reason\"]; "
             "assert c[0][\"mb_per_s\"] == 100.0 and d[\"accelscope\"]; "
             "assert c[0][\"retaken\"] == {\"descheduled\": 1, \"slow-memory\": 3}, c[0]; "
             "assert c[1][\"retaken\"] == {} and c[7][\"retaken\"] == {}; "
             "assert [x[\"absolute\"] for x in c[:5]] == [\"quiet\", \"noisy\", \"noisy\", \"noisy\", \"noisy\"], c[:5]; "
             "assert (c[0][\"last_mb_per_s\"], c[4][\"last_mb_per_s\"], c[1][\"last_mb_per_s\"]) == (101, 420, None); "
             "assert (c[0][\"clock_mhz\"], c[0][\"clock_ref_mhz\"], c[3][\"clock_ref_mhz\"]) == (3000, 3015, 3100); "
             "assert c[1][\"clock_ref_mhz\"] is None and c[7][\"clock_ref_mhz\"] is None; "
             "assert c[7][\"absolute\"] == \"\" and c[7][\"quality\"] == \"\", c[7]; "
             "assert c[0][\"processes_pct\"] == -3.5 and c[1][\"processes_pct\"] is None; "
             "assert c[7][\"processes_pct\"] is None' %s", n, p);
    CHECK(sh(cmd) == 0, "JSON: machine metadata, every cell, no figure for a failed one");

    snprintf(p, sizeof p, "%s/t.csv", dir);
    CHECK(export_write_file(p, 0, c, n, why, sizeof why) == 0, "csv written: %s", why);
    char *csv = csvr_slurp(p);
    CHECK(csv && !strncmp(csv, "timestamp,host,cpu,", 19) && lines_starting(csv, "20") == n,
          "CSV: the run --csv schema, a row per cell");
    CHECK(csv && strstr(csv, ",us_per_op,retaken_why,absolute,processes_pct,clock_ref_mhz,"
                             "last_mb_per_s,last_ops_per_s\n") &&
              strstr(csv, ",descheduled:1 slow-memory:3,quiet,-3.50,3015,101.000,\n") &&
              !strstr(csv, "stolen:"),
          "CSV: retaken_why, each reason with its count; none for a failed cell; the second "
          "process against the first");
    CHECK(csv && lines_ending(csv, ",quiet,-3.50,3015,101.000,\n") == 1 &&
              lines_ending(csv, ",noisy,,,,\n") == 2 && lines_ending(csv, ",noisy,,3100,,\n") == 1 &&
              lines_ending(csv, ",noisy,,,420.000,\n") == 1,
          "CSV: absolute quiet only for a quiet cell within +-%.1f %% whose clock stayed within "
          "%.2f %% of the last saved run's and whose MB/s within %.1f %% of its claimed figure "
          "(%d quiet, %d noisy, %d clock moved, %d figure moved)",
          STATS_ABSOLUTE_CI_PCT, STATS_CLOCK_REF_PCT, STATS_ABSOLUTE_KEPT_PCT,
          csv ? lines_ending(csv, ",quiet,-3.50,3015,101.000,\n") : -1,
          csv ? lines_ending(csv, ",noisy,,,,\n") : -1,
          csv ? lines_ending(csv, ",noisy,,3100,,\n") : -1,
          csv ? lines_ending(csv, ",noisy,,,420.000,\n") : -1);
    free(csv);
    FILE *t = tmpfile();
    char line[512];
    int said = 0;
    if (t)
        report_table(t, c, n), rewind(t);
    while (t && fgets(line, sizeof line, t))
        said += strstr(line, "3 of ") == line && strstr(line, "rounds retaken") &&
                strstr(line, "3 host slowing the memory path (load probe), 1 descheduled (");
    CHECK(said == 1, "run's table says how many rounds were retaken and why, commonest first, "
          "not a failed cell's");
    if (t)
        fclose(t);
    /* A column measured anew: the totals under the table are of the figures shown, and say
     * so (the time line counts every visit); without one they do not. */
    for (int visit = 0; visit < 2; visit++) {
        int again = c[0].again;
        uint64_t waited = c[0].r.waited_ns;
        c[0].again = visit, c[0].r.waited_ns = 5000000;
        t = tmpfile();
        int retaken_shown = 0, waited_shown = 0, waited_said = 0;
        if (t)
            report_table(t, c, n), rewind(t);
        while (t && fgets(line, sizeof line, t)) {
            retaken_shown +=
                strstr(line, "rounds retaken") &&
                strstr(line, "; of the figures shown only: a cell measured anew counts one visit");
            waited_said += strstr(line, "5 ms waited in 1 cells") != NULL;
            waited_shown += strstr(line, "5 ms waited") &&
                            strstr(line, "; of the figures shown only: the time line counts every");
        }
        CHECK(waited_said == 1 && retaken_shown == visit && waited_shown == visit,
              "%s: the retaken and waited totals %s (said %d, %d, %d)",
              visit ? "a cell measured anew" : "one visit each",
              visit ? "say they are the figures shown's" : "say nothing of visits", waited_said,
              retaken_shown, waited_shown);
        if (t)
            fclose(t);
        c[0].again = again, c[0].r.waited_ns = waited;
    }
    /* Where the run's time went: the parts, the rest per round, nothing for a run not ended. */
    t = tmpfile();
    if (t) {
        report_time(t, 10, 4, 3, 1, 1000);
        report_time(t, 10, 4, 0, 1, 1000);
        report_time(t, 0, 4, 3, 1, 1000);
        report_time(t, 0.5, 0, 0, 0.5, 0); /* every cell unavailable: nothing measured */
        rewind(t);
    }
    char l1[512] = "", l2[512] = "", l3[512] = "";
    if (!t || !fgets(l1, sizeof l1, t) || !fgets(l2, sizeof l2, t) || fgets(l3, sizeof l3, t))
        l1[0] = 0;
    CHECK(!strncmp(l1, "Measuring took 10.0 s: 4.0 s in timed windows, 3.0 s waiting out slow "
                       "spells of the memory path, 1.0 s starting and verifying workers, 2.0 s "
                       "(2.0 ms a round) warming up before each of the 1000 rounds", 199),
          "the run's time in parts: %s", l1);
    CHECK(!strstr(l2, "waiting") && strstr(l2, ", 5.0 s (5.0 ms a round)"),
          "no wait said when there was none; the rest grows: %s", l2);
    if (t)
        fclose(t);
    CHECK(export_write_file(p, 0, c, n, why, sizeof why) == -1 && strstr(why, "--force"),
          "an existing file is not replaced without force: %s", why);
    CHECK(export_write_file(p, 1, c, n, why, sizeof why) == 0, "with force it is");
}

/* report_lastrun_of and its lines: the cells whose clock moved from the last saved run's,
 * and those whose MB/s moved from the figure that run could claim, with their extremes. */
static void test_report_lastrun(void)
{
    struct cell c[16];
    size_t n = cells(c, 1);
    static const struct {
        double clock, ref, mb_pct; /* mb_pct: the figure's % off its last one, 0 none */
    } k[] = {
        { 3000, 3000, +4.0 },  /* off, faster, at the same clock */
        { 3000, 3100, -5.0 },  /* off, slower, the clock moved too (-3.2 %) */
        { 0, 3000, +3.5 },     /* off, no clock of its own: not "at the same clock" */
        { 3000, 3000, +1.0 },  /* within */
        { 3300, 3000, 0 },     /* clock moved +10 %, no figure to compare */
        { 3000, 0, 0 },        /* nothing to compare */
        { 3000, 3000, -2.0 },  /* near: within 3 %, beyond 1.5 % */
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        struct result *r = &c[i].r;
        r->clock_mhz = k[i].clock, r->clock_ref_mhz = k[i].ref;
        r->last_mb_per_s = k[i].mb_pct ? r->mb_per_s / (1 + k[i].mb_pct / 100) : 0;
    }
    struct report_lastrun o;
    report_lastrun_of(c, n, &o);
    CHECK(o.claimed == 5 && o.off == 3 && o.off_faster == 2 && o.off_same_clock == 1 &&
              fabs(o.off_lo - 3.5) < 1e-9 && fabs(o.off_hi - 5.0) < 1e-9 && o.near == 1,
          "figures: 5 with a claim, 3 off (2 faster, 1 at the same clock), 3.5..5.0 %%, 1 near: "
          "%zu, %zu (%zu, %zu), %.2f..%.2f, %zu", o.claimed, o.off, o.off_faster,
          o.off_same_clock, o.off_lo, o.off_hi, o.near);
    CHECK(o.known == 5 && o.moved == 2 && fabs(o.lo_pct + 100.0 / 31) < 1e-9 &&
              fabs(o.hi_pct - 10) < 1e-9 && o.lo_mhz == 3000 && o.hi_mhz == 3300,
          "clocks: 5 known, 2 moved (-3.2, +10 %%), this run 3000..3300 MHz: %zu, %zu (%.2f, "
          "%.2f), %.0f..%.0f", o.known, o.moved, o.lo_pct, o.hi_pct, o.lo_mhz, o.hi_mhz);
    FILE *t = tmpfile();
    char text[4096] = "";
    if (t) {
        CHECK(report_lastrun(t, c, n, "last.csv") == 6, "6 cells concerned");
        rewind(t);
        size_t got = fread(text, 1, sizeof text - 1, t);
        text[got] = 0;
        fclose(t);
    }
    CHECK(strstr(text, "Clock: 2 of 5 cells ran at a core clock -3.2..+10.0 % off the last saved "
                       "run's (last.csv; this run 3000..3300 MHz)") &&
              strstr(text, "Repeat: 3 of 5 cells differ by 3.5..5.0 % (2 faster, 1 slower; 1 at "
                           "the same clock) from the figures the last saved run (last.csv)") &&
              strstr(text, "Near: 1 of 5 cells are within 3 % of the figures the last saved run "
                           "(last.csv) claimed, but more than 1.5 % off them"),
          "the lines say it: %s", text);
    for (size_t i = 0; i < n; i++)
        c[i].r.clock_ref_mhz = c[i].r.last_mb_per_s = 0;
    t = tmpfile();
    CHECK(t && report_lastrun(t, c, n, "x") == 0 && ftell(t) == 0, "no reference: nothing said");
    if (t)
        fclose(t);
}

static void test_bad_names(void)
{
    static const char *const bad[] = { "x.txt", "x", "x.svg.bak", "-", "dir.md/x" };
    char why[512];
    enum export_format f;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(export_format_of(bad[i], &f, why, sizeof why) == -1 && strstr(why, ".csv") &&
              strstr(why, ".md") && strstr(why, ".json") && strstr(why, ".svg"),
              "'%s' refused, accepted extensions named: %s", bad[i], why);
    CHECK(export_format_of("a/b.c/run.Svg", &f, why, sizeof why) == 0 && f == EXPORT_SVG,
          "extension of the file name, any case");
    CHECK(export_check_dest("/no/such/dir/x.md", 0, why, sizeof why) != 0 &&
          strstr(why, "does not exist"), "destination checked as --csv's: %s", why);
}

/* text_shown: what reaches a terminal from a field; RFC 3629 for what is UTF-8. Then the
 * JSON writer on the same bytes: valid UTF-8 out, every control escaped. */
static void test_shown(void)
{
    static const struct { const char *in, *out; } cases[] = {
        { "plain AMD EPYC 7B13", "plain AMD EPYC 7B13" },
        { "Ryzen\xe2\x84\xa2 \xf0\x9f\x94\x92 caf\xc3\xa9", "Ryzen\xe2\x84\xa2 \xf0\x9f\x94\x92 caf\xc3\xa9" },
        { "a\x1b[2Jb", "a?[2Jb" },             /* ESC */
        { "tab\there\r\nnext", "tab?here??next" }, /* C0 */
        { "del\x7f", "del?" },
        { "csi\xc2\x9b" "2J", "csi?2J" },        /* C1 as UTF-8 */
        { "lone\x9b" "2J", "lone?2J" },          /* C1 as a byte: no UTF-8 */
        { "over\xc0\xaf", "over??" },            /* overlong '/' */
        { "surr\xed\xa0\x80", "surr???" },       /* a surrogate */
        { "cut\xe2\x84", "cut??" },              /* a character cut short */
        { "big\xf4\x90\x80\x80", "big????" },    /* above U+10FFFF */
    };
    char b[64];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *got = text_shown(cases[i].in, b, sizeof b);
        CHECK(!strcmp(got, cases[i].out) && (got == cases[i].in) == !strcmp(cases[i].in, cases[i].out),
              "shown %zu: '%s' (the field itself when clean)", i, got);
    }
    char tiny[6];
    CHECK(!strcmp(text_shown("ab\x1b\xe2\x84\xa2xyz", tiny, sizeof tiny), "ab?"),
          "cut short within the buffer, never inside a character: '%s'", tiny);
    CHECK(!strcmp(text_shown("a\x1b", tiny, 0), ""), "no room: empty, never the raw field");
    char *js = NULL;
    size_t jn = 0;
    FILE *f = open_memstream(&js, &jn);
    export_json_string(f, "q\"\\\x1b\x7f\xc2\x9b\x9b\xe2\x84\xa2");
    fclose(f);
    CHECK(js && !strcmp(js, "\"q\\\"\\\\\\u001b\\u007f\\u009b\\ufffd\xe2\x84\xa2\""),
          "JSON: quote, backslash, ESC, DEL, C1 escaped, a stray byte as U+FFFD, UTF-8 kept: %s",
          js);
    free(js);
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_svg(0);
    test_svg(1);
    test_md_json_csv();
    test_bad_names();
    test_shown();
    test_report_lastrun();
    remove_dir(dir);
    return check_done();
}
