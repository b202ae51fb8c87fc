#!/usr/bin/env python3
"""png_check.py FILE: prints the PNG's size and whether it shows more than a
blank page (standard library: zlib-decompresses the image data and counts
distinct byte values)."""
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    print("not a PNG")
    sys.exit(1)
pos, idat, w, h = 8, b"", 0, 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h = struct.unpack(">II", body[:8])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
pixels = zlib.decompress(idat)
print(f"PNG {w}x{h}, {len(set(pixels))} distinct byte values"
      f" ({'content' if len(set(pixels)) > 16 else 'blank'})")
