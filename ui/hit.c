/* Clickable regions: screens register them while drawing, a click finds the topmost one. */
#include "app.h"

#define HIT_MAX 512

static struct hit {
    int y, x, w, arg;
    ui_hit_fn fn;
} hits[HIT_MAX];
static int nhits;

void hit_clear(void)
{
    nhits = 0;
}

void hit_add(int y, int x, int w, ui_hit_fn fn, int arg)
{
    if (nhits < HIT_MAX && w > 0)
        hits[nhits++] = (struct hit){ .y = y, .x = x, .w = w, .arg = arg, .fn = fn };
}

int hit_click(int y, int x)
{
    /* Later regions are drawn over earlier ones (dialogs over views): search backwards. */
    for (int i = nhits - 1; i >= 0; i--) {
        const struct hit *h = &hits[i];
        if (h->y == y && x >= h->x && x < h->x + h->w) {
            h->fn(h->arg, y, x);
            return 1;
        }
    }
    return 0;
}
