/* Text from outside (a shared CSV, a file name) made fit to print where a terminal reads it. */
#ifndef ACCELSCOPE_TEXT_H
#define ACCELSCOPE_TEXT_H

#include <stddef.h>

/* s with each control character (C0, DEL, C1) and each byte that is no well-formed UTF-8
 * (RFC 3629) as '?', so that it cannot move the cursor, recolour the terminal or set its
 * title; other UTF-8 is kept. s itself when it holds none of them; else the copy in buf (n
 * bytes, cut short between characters if need be; "" when n is 0). */
const char *text_shown(const char *s, char *buf, size_t n);

/* In place: text_shown of s (n bytes of room). */
void text_clean(char *s, size_t n);

/* The code point of the well-formed UTF-8 character at s and its length, or 0. */
size_t text_utf8_char(const char *s, unsigned *cp);

/* A number as the project writes it (CSV figures, --time): digits, point, exponent, finite,
 * nothing else, where strtod alone also takes " 1", "0x10", "0x1p-3" and "inf". 0 and *v,
 * or -1. */
int text_decimal(const char *s, double *v);

/* 1 for C0, DEL and C1: the code points a terminal may act on. */
int text_control(unsigned cp);

#endif
