/* Text from outside shown safely: UTF-8 decoded by RFC 3629, the code points a terminal acts
 * on (C0, DEL, C1) and the bytes that are no UTF-8 replaced (text.h). */
#include "text.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t text_utf8_char(const char *s, unsigned *cp)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len = p[0] < 0x80 ? 1 : p[0] >= 0xc2 && p[0] <= 0xdf ? 2
               : p[0] >= 0xe0 && p[0] <= 0xef ? 3 : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
    unsigned v = len == 1 ? p[0] : len == 2 ? p[0] & 0x1fu : len == 3 ? p[0] & 0x0fu : p[0] & 7u;
    for (size_t i = 1; i < len; i++) { /* a NUL fails here: never read past the end */
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        v = v << 6 | (p[i] & 0x3fu);
    }
    /* overlong forms, surrogates and what lies beyond U+10FFFF are not UTF-8 */
    static const unsigned least[] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (!len || v < least[len] || (v >= 0xd800 && v <= 0xdfff) || v > 0x10ffff)
        return 0;
    *cp = v;
    return len;
}

int text_decimal(const char *s, double *v)
{
    char *end;
    if (!*s || strspn(s, "0123456789.eE+-") != strlen(s))
        return -1;
    errno = 0;
    *v = strtod(s, &end);
    return *end || errno || !isfinite(*v) ? -1 : 0;
}

int text_control(unsigned cp)
{
    return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

const char *text_shown(const char *s, char *buf, size_t n)
{
    const char *p = s;
    unsigned cp;
    size_t len;
    while (*p && (len = text_utf8_char(p, &cp)) && !text_control(cp))
        p += len;
    if (!*p)
        return s;
    if (!n)
        return "";
    size_t k = 0;
    for (p = s; *p && k + 1 < n;) {
        len = text_utf8_char(p, &cp);
        if (!len || text_control(cp)) {
            buf[k++] = '?';
            p += len ? len : 1;
        } else if (k + len < n) {
            memcpy(buf + k, p, len);
            k += len, p += len;
        } else {
            break; /* never half a character */
        }
    }
    buf[k] = 0;
    return buf;
}

void text_clean(char *s, size_t n)
{
    char b[1024];
    if (!n) /* no string fits: nothing to clean */
        return;
    const char *t = text_shown(s, b, sizeof b < n ? sizeof b : n);
    if (t != s)
        memcpy(s, t, strlen(t) + 1);
}
