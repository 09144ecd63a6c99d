#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Says whether a screenshot shows a rendered page: decodes the PNG (8-bit RGB or RGBA, with zlib
only) and checks that it is not blank (enough pixels that are not the background, enough distinct
colours) and that the colours the plots draw with appear.

usage: png_check.py SHOT.png [--color RRGGBB ...]"""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError("PNG of depth %d colour type %d interlace %d" % (depth, ctype, interlace))
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def main():
    args = sys.argv[1:]
    path = args[0]
    want = [a for a in args[1:] if a != "--color"]
    w, h, bpp, rows = decode(path)
    colors = {}
    for line in rows[::2]:
        for x in range(0, w * bpp, bpp * 2):
            px = bytes(line[x:x + 3])
            colors[px] = colors.get(px, 0) + 1
    total = sum(colors.values())
    bg = max(colors, key=colors.get)
    other = 1 - colors[bg] / total
    errors = []
    if len(colors) < 20:
        errors.append("only %d colours" % len(colors))
    if other < 0.02:
        errors.append("%.2f %% of the pixels differ from the background" % (100 * other))
    for c in want:
        rgb = bytes.fromhex(c)
        near = sum(n for px, n in colors.items() if all(abs(px[i] - rgb[i]) <= 24 for i in range(3)))
        if near < 10:
            errors.append("colour #%s is not drawn (%d pixels near it)" % (c, near))
    for e in errors:
        print("FAIL: %s: %s" % (path, e))
    if not errors:
        print("ok: %s: %dx%d, %d colours, %.1f %% not background" % (path, w, h, len(colors), 100 * other))
    return 1 if errors else 0


sys.exit(main())
