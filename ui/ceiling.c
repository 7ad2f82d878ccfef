/* The silicon's ceilings (src/limits.h): microbenchmarks run once in a thread after the
 * machine-info child has finished (so the two never compete for a core), then every hardware
 * bar gets a marker at its algorithm's ceiling. A run asked for before they are ready waits
 * for them, as `run` measures them before any worker starts. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "limits.h"

static int state; /* 0 not started, 1 measuring, 2 ready */
static int pipefd[2] = { -1, -1 };
static pthread_t thread;
static int run_waiting;

static void *measure(void *arg)
{
    (void)arg;
    limits_measure();
    if (write(pipefd[1], "d", 1) < 0) {
        /* the main thread then never learns: ceilings stay off, nothing else breaks */
    }
    return NULL;
}

void ceiling_start(void)
{
    if (state)
        return;
    if (pipe2(pipefd, O_CLOEXEC) || pthread_create(&thread, NULL, measure, NULL)) {
        state = 2; /* no ceilings; runs go ahead without them */
        return;
    }
    state = 1;
}

int ceiling_pollfd(struct pollfd *fd)
{
    if (state != 1)
        return 0;
    *fd = (struct pollfd){ .fd = pipefd[0], .events = POLLIN };
    return 1;
}

void ceiling_input(void)
{
    char c;
    if (read(pipefd[0], &c, 1) != 1)
        return;
    pthread_join(thread, NULL);
    close(pipefd[0]);
    close(pipefd[1]);
    state = 2;
    char *d = ceiling_describe();
    if (d) {
        machine_view_append(d);
        free(d);
    }
    if (!ui.run.active)
        model_rebuild(); /* every cell picks up its ceiling */
    if (run_waiting) {
        run_waiting = 0;
        measure_toggle();
    }
}

/* 1 when a run may start now; else the run is remembered and starts when they are ready. */
int ceiling_ready_for_run(void)
{
    if (state == 2)
        return 1;
    run_waiting = 1;
    ceiling_start();
    ui_set_status(0, "measuring the silicon's limits first (microbenchmarks, well under a second)%s",
                  ui_glyph(G_ELLIPSIS));
    return 0;
}

/* r or Esc before the ceilings are ready: the run that waited for them is dropped. */
int ceiling_cancel_wait(void)
{
    int was = run_waiting;
    run_waiting = 0;
    return was;
}

double chart_ceiling(const struct csv_row *c)
{
    double mb;
    char why[256];
    if (state != 2 || limits_ceiling(c->impl->alg, c->decrypt, &mb, why, sizeof why))
        return 0;
    return mb;
}

/* The limits table, as `info --limits` prints it, for the machine view. */
char *ceiling_describe(void)
{
    if (state != 2)
        return NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    fprintf(f, "\nSilicon limits (measured by the TUI after start-up)\n");
    limits_describe(f);
    fclose(f);
    return buf;
}
