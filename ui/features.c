/* The header (CPU, OpenSSL, kernel) and the strip of crypto features: present, present but
 * not usable, absent; told apart by symbol as well as colour. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "cpu.h"
#include "machine.h"

/* 0 absent, 1 present but not usable here, 2 usable. */
static int feature_state(int f)
{
    const struct cpu_info *c = cpu_get();
    if (cpu_feature_status((enum feature)f, NULL, 0))
        return 2;
    return c->present[f] ? 1 : 0;
}

/* Lays the strip out from row y (draw = 0 only counts the rows it needs). */
static int strip(int y, int w, int draw)
{
    static const enum ui_glyph sym[3] = { G_NO, G_PART, G_YES };
    static const enum ui_role role[3] = { ROLE_ABSENT, ROLE_WARN, ROLE_OK };
    int row = 0, x = 1;
    if (draw)
        ui_text(y, x, w, ui_attr(ROLE_DIM), "features:");
    x += 10;
    /* Five PadLock units, absent on every CPU but VIA/Zhaoxin: one item says so. */
    int padlock_any = 0;
    for (int f = FEAT_PL_RNG; f <= FEAT_PL_PMM; f++)
        padlock_any |= feature_state(f) != 0;
    for (int f = 0; f < FEAT_COUNT; f++) {
        if (feature_table[f].arch != feature_host_arch())
            continue;
        if (!padlock_any && f > FEAT_PL_RNG && f <= FEAT_PL_PMM)
            continue;
        int st = feature_state(f);
        const char *label = !padlock_any && f == FEAT_PL_RNG ? "PadLock" : feature_table[f].label;
        int len = (int)strlen(label) + 1;
        if (x + len >= w) {
            row++;
            x = 11;
        }
        if (draw)
            ui_textf(y + row, x, len, ui_attr(role[st]), "%s%s", ui_glyph(sym[st]), label);
        x += len + 1;
    }
    return row + 1;
}

int header_lines(int cols)
{
    return 1 + strip(0, cols, 0);
}

/* The CPU as machine.h names it, without the runs of blanks of libcpuid's brand strings. */
const char *header_cpu(char *buf, size_t n)
{
    size_t k = 0;
    for (const char *s = machine_get()->cpu; *s && k + 1 < n; s++)
        if (*s != ' ' || (k && buf[k - 1] != ' '))
            buf[k++] = *s;
    buf[k] = 0;
    return buf;
}

void header_draw(struct rect r)
{
    const struct machine *m = machine_get();
    int t = ui_attr(ROLE_TITLE);
    ui_fill(r.y, 0, r.w, t);
    /* OpenSSL's version string ends with a date: the first two words say enough. */
    char cpu[160], ossl[64];
    header_cpu(cpu, sizeof cpu);
    int words = 0;
    size_t k = 0;
    for (const char *s = m->openssl; *s && k + 1 < sizeof ossl; s++) {
        if (*s == ' ' && ++words == 2)
            break;
        ossl[k++] = *s;
    }
    ossl[k] = 0;
    char tail[256];
    int tl = snprintf(tail, sizeof tail, " %s %s %s Linux %s", ui_glyph(G_DOT), ossl,
                      ui_glyph(G_DOT), m->kernel) - (ui.utf8 ? 2 : 0);
    int room = r.w - 2 - 13 - tl; /* the CPU gives way first */
    if (room < 10)
        room = 10;
    ui_textf(r.y, 1, r.w - 2, t, "accelscope %s %.*s%s", ui_glyph(G_DOT), room, cpu, tail);
    strip(r.y + 1, r.w, 1);
}
