#!/usr/bin/env python3
"""pngedge.py PNG: the geometry of a page's screenshot, for term.sh.

Standard library only (zlib): reads an 8-bit RGB or RGBA PNG as Chromium
writes it and prints its size, how many pixels of its last three columns
differ from the background (the top-right pixel) -- content cut at the
right edge, a page wider than the window -- and the rightmost column that
holds content.  Exit 0; an unreadable PNG raises.
"""
import struct
import sys
import zlib

def read_png(p):
    d = open(p, 'rb').read()
    assert d[:8] == b'\x89PNG\r\n\x1a\n'
    i = 8; idat = b''; w = h = bd = ct = None
    while i < len(d):
        n, = struct.unpack('>I', d[i:i+4]); t = d[i+4:i+8]; c = d[i+8:i+8+n]; i += 12 + n
        if t == b'IHDR': w, h, bd, ct = struct.unpack('>IIBB', c[:10])
        elif t == b'IDAT': idat += c
    assert bd == 8 and ct in (2, 6)
    bpp = 3 if ct == 2 else 4
    raw = zlib.decompress(idat); stride = w * bpp; rows = []; prev = bytearray(stride); k = 0
    for y in range(h):
        f = raw[k]; k += 1; line = bytearray(raw[k:k+stride]); k += stride
        for x in range(stride):
            a = line[x-bpp] if x >= bpp else 0; b = prev[x]; c = prev[x-bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + ((a + b) >> 1)) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2*c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pr) & 255
        rows.append(line); prev = line
    return w, h, bpp, rows
w, h, bpp, rows = read_png(sys.argv[1])
# the page's background: the top-right pixel; content in the last 3 columns = clipped at the right edge
bg = tuple(rows[0][(w-1)*bpp:(w-1)*bpp+3])
bad = 0
for y in range(h):
    for x in range(w-3, w):
        if tuple(rows[y][x*bpp:x*bpp+3]) != bg: bad += 1
# rightmost non-background column
right = 0
for y in range(0, h, 2):
    r = rows[y]
    for x in range(w-1, right, -1):
        if tuple(r[x*bpp:x*bpp+3]) != bg: right = x; break
print(f"{sys.argv[1]}: {w}x{h} edge_pixels_not_bg={bad} rightmost_content_x={right}")
