"""Just enough PNG decoding (8-bit RGB, RGBA or palette, non-interlaced: Chromium's screenshots, pbem's maps) to
tell a drawn picture from a blank one without an imaging library."""
from __future__ import annotations

import struct
import zlib


def decode(png: bytes) -> tuple[int, int, int, list[bytes]]:
    """Width, height, bytes per pixel and the unfiltered rows (palette images as RGB)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, head, palette = 8, b"", None, b""
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert head is not None
    width, height, depth, colour, _, _, interlace = head
    assert depth == 8 and colour in (2, 3, 6) and interlace == 0, f"unsupported PNG {head}"
    bpp = {2: 3, 3: 1, 6: 4}[colour]
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
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
        rows.append(bytes(line) if colour != 3 else b"".join(palette[3 * i:3 * i + 3] for i in line))
        prev = line
    return width, height, 3 if colour == 3 else bpp, rows


def colours(png: bytes, step: int = 3) -> int:
    """How many distinct colours a sample of the pixels (every `step`-th in both directions) holds."""
    width, height, bpp, rows = decode(png)
    seen = set()
    for y in range(0, height, step):
        row = rows[y]
        for x in range(0, width, step):
            seen.add(row[x * bpp:x * bpp + 3])
    return len(seen)
