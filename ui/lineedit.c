/* A one-line text field: typing, Backspace, Delete, arrows, Home/End, Ctrl-U. */
#include <curses.h>
#include <string.h>

#include "app.h"

void lineedit_set(struct lineedit *l, const char *s)
{
    size_t n = strlen(s);
    if (n >= sizeof l->text)
        n = sizeof l->text - 1;
    memcpy(l->text, s, n);
    l->text[n] = 0;
    l->len = l->pos = n;
}

int lineedit_key(struct lineedit *l, int ch)
{
    switch (ch) {
    case KEY_LEFT: if (l->pos) l->pos--; return 1;
    case KEY_RIGHT: if (l->pos < l->len) l->pos++; return 1;
    case KEY_HOME: case 1: l->pos = 0; return 1;
    case KEY_END: case 5: l->pos = l->len; return 1;
    case 21: l->len = l->pos = 0; l->text[0] = 0; return 1; /* Ctrl-U */
    case KEY_BACKSPACE: case 127: case 8:
        if (!l->pos)
            return 1;
        memmove(l->text + l->pos - 1, l->text + l->pos, l->len - l->pos + 1);
        l->pos--;
        l->len--;
        return 1;
    case KEY_DC:
        if (l->pos < l->len) {
            memmove(l->text + l->pos, l->text + l->pos + 1, l->len - l->pos);
            l->len--;
        }
        return 1;
    }
    if (ch >= 32 && ch < 127 && l->len + 1 < sizeof l->text) {
        memmove(l->text + l->pos + 1, l->text + l->pos, l->len - l->pos + 1);
        l->text[l->pos++] = (char)ch;
        l->len++;
        return 1;
    }
    return 0;
}

void lineedit_draw(const struct lineedit *l, int y, int x, int w, int attr)
{
    if (w < 2)
        return;
    /* Scroll so the cursor stays in the field. */
    size_t first = l->pos >= (size_t)w ? l->pos - (size_t)w + 1 : 0;
    ui_fill(y, x, w, attr);
    ui_text(y, x, w, attr, l->text + first);
    attrset(attr ^ A_REVERSE);
    mvaddch(y, x + (int)(l->pos - first), l->pos < l->len ? (chtype)(unsigned char)l->text[l->pos] : ' ');
    attrset(A_NORMAL);
}
