#!/usr/bin/env python3
"""Renders a tmux `capture-pane -e` dump (text with SGR escapes) to a PNG, as a terminal
would show it. Block elements (the bars) are drawn as rectangles so they tile exactly.
Usage: ansi2png.py IN.ans OUT.png [COLUMNS ROWS]"""
import re
import sys

from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
SIZE = 15
FG, BG = (208, 208, 208), (18, 18, 18)
BASE = [(0, 0, 0), (205, 49, 49), (13, 188, 121), (229, 229, 16), (36, 114, 200),
        (188, 63, 188), (17, 168, 205), (229, 229, 229), (102, 102, 102), (241, 76, 76),
        (35, 209, 139), (245, 245, 67), (59, 142, 234), (214, 112, 214), (41, 184, 219),
        (255, 255, 255)]


def color256(n):
    if n < 16:
        return BASE[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return steps[n // 36], steps[(n // 6) % 6], steps[n % 6]
    v = 8 + (n - 232) * 10
    return v, v, v


class Style:
    def __init__(self):
        self.reset()

    def reset(self):
        self.fg = self.bg = None
        self.bold = self.dim = self.under = self.rev = False

    def apply(self, params):
        p = [int(x) if x else 0 for x in params.split(";")] if params else [0]
        i = 0
        while i < len(p):
            c = p[i]
            if c == 0:
                self.reset()
            elif c == 1:
                self.bold = True
            elif c == 2:
                self.dim = True
            elif c == 4:
                self.under = True
            elif c == 7:
                self.rev = True
            elif c == 22:
                self.bold = self.dim = False
            elif c == 24:
                self.under = False
            elif c == 27:
                self.rev = False
            elif 30 <= c <= 37:
                self.fg = BASE[c - 30]
            elif c == 39:
                self.fg = None
            elif 40 <= c <= 47:
                self.bg = BASE[c - 40]
            elif c == 49:
                self.bg = None
            elif 90 <= c <= 97:
                self.fg = BASE[c - 90 + 8]
            elif 100 <= c <= 107:
                self.bg = BASE[c - 100 + 8]
            elif c in (38, 48) and i + 1 < len(p):
                if p[i + 1] == 5 and i + 2 < len(p):
                    col = color256(p[i + 2])
                    i += 2
                elif p[i + 1] == 2 and i + 4 < len(p):
                    col = tuple(p[i + 2:i + 5])
                    i += 4
                else:
                    col = None
                if c == 38:
                    self.fg = col
                else:
                    self.bg = col
            i += 1

    def colors(self):
        fg = self.fg or FG
        if self.bold and self.fg in BASE[:8]:
            fg = BASE[BASE.index(self.fg) + 8]
        if self.dim:
            fg = tuple(int(v * 0.6) for v in fg)
        bg = self.bg or BG
        return (bg, fg) if self.rev else (fg, bg)


def parse(text, cols, rows):
    grid = [[(" ", FG, BG, False, False) for _ in range(cols)] for _ in range(rows)]
    st = Style()
    for y, line in enumerate(text.split("\n")[:rows]):
        x = 0
        for m in re.finditer(r"\x1b\[([0-9;]*)m|\x1b[^a-zA-Z]*[a-zA-Z]|(.)", line):
            if m.group(2) is None:
                if m.group(0).endswith("m") and m.group(0).startswith("\x1b["):
                    st.apply(m.group(1))
                continue
            if x < cols:
                fg, bg = st.colors()
                grid[y][x] = (m.group(2), fg, bg, st.bold, st.under)
            x += 1
        # the rest of the line keeps the last background (tmux trims trailing blanks)
    return grid


def render(grid, out):
    font = ImageFont.truetype(FONT, SIZE)
    bold = ImageFont.truetype(BOLD, SIZE)
    cw = int(round(font.getlength("M")))
    asc, desc = font.getmetrics()
    ch = asc + desc + 2
    rows, cols = len(grid), len(grid[0])
    img = Image.new("RGB", (cols * cw + 16, rows * ch + 16), BG)
    d = ImageDraw.Draw(img)
    for y, row in enumerate(grid):
        for x, (c, fg, bg, b, u) in enumerate(row):
            px, py = 8 + x * cw, 8 + y * ch
            if bg != BG:
                d.rectangle([px, py, px + cw - 1, py + ch - 1], fill=bg)
            o = ord(c)
            if o == 0x2588:
                d.rectangle([px, py + 1, px + cw - 1, py + ch - 2], fill=fg)
            elif 0x2589 <= o <= 0x258F:
                eighths = 0x2590 - o  # U+2589 is seven eighths ... U+258F one eighth
                d.rectangle([px, py + 1, px + max(1, cw * eighths // 8) - 1, py + ch - 2], fill=fg)
            elif c != " ":
                d.text((px, py + 1), c, font=bold if b else font, fill=fg)
            if u:
                d.line([px, py + ch - 2, px + cw - 1, py + ch - 2], fill=fg)
    img.save(out)


def main():
    src, out = sys.argv[1], sys.argv[2]
    text = open(src, encoding="utf-8", errors="replace").read().rstrip("\n")
    lines = text.split("\n")
    cols = int(sys.argv[3]) if len(sys.argv) > 3 else 120
    rows = int(sys.argv[4]) if len(sys.argv) > 4 else len(lines)
    render(parse(text, cols, rows), out)


if __name__ == "__main__":
    main()
