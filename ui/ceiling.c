/* The silicon's ceilings (src/silicon.h), as the machine-info child prints them
 * (`accelscope info --clock --limits`: "limits ceiling ALG: encrypt X MB/s, decrypt Y MB/s"
 * or "...: X MB/s"). Measuring them in the child keeps the microbenchmarks' buffers (tens of
 * MB) and their CPU time out of the TUI, and after the clock measurement, never beside it.
 * Every hardware bar then gets a marker at its algorithm's ceiling. A run asked for before
 * they are known waits for them, as `run` measures them before any worker starts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"

#define MAX_CEIL 64

static struct ceil {
    char alg[48];
    double enc, dec;
} table[MAX_CEIL];
static int ntable, ready, run_waiting;

static void parse(const char *text)
{
    static const char key[] = "limits ceiling ";
    for (const char *s = text; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL) {
        if (strncmp(s, key, sizeof key - 1) || ntable == MAX_CEIL)
            continue;
        struct ceil c = { 0 };
        char rest[128];
        if (sscanf(s + sizeof key - 1, "%47[^:]: %127[^\n]", c.alg, rest) != 2)
            continue;
        if (sscanf(rest, "encrypt %lf MB/s, decrypt %lf MB/s", &c.enc, &c.dec) == 2 ||
            (sscanf(rest, "%lf MB/s", &c.enc) == 1 && (c.dec = c.enc) > 0))
            table[ntable++] = c;
    }
}

/* Called once the info child has finished: its text holds the ceilings (or says why not). */
void ceiling_load(const char *info)
{
    parse(info);
    ready = 1;
    if (!ui.run.active)
        model_rebuild(); /* every cell picks up its ceiling */
    if (run_waiting) {
        run_waiting = 0;
        measure_toggle();
    }
}

/* 1 when a run may start now; else the run is remembered and starts when they are known. */
int ceiling_ready_for_run(void)
{
    if (ready)
        return 1;
    run_waiting = 1;
    ui_set_status(0, "measuring the clock and the silicon's limits first (under a second)%s",
                  ui_glyph(G_ELLIPSIS));
    return 0;
}

/* r or Esc before the ceilings are known: the run that waited for them is dropped. */
int ceiling_cancel_wait(void)
{
    int was = run_waiting;
    run_waiting = 0;
    return was;
}

double chart_ceiling(const struct cell *c)
{
    for (int i = 0; i < ntable; i++)
        if (!strcmp(table[i].alg, c->impl->alg))
            return c->decrypt ? table[i].dec : table[i].enc;
    return 0;
}
