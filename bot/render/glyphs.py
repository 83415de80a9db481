"""The fonts shipped with the bot, and which characters they can draw.

Pillow draws a character the font lacks as the font's .notdef box, and offers
no way to ask whether a glyph exists. Comparing the drawn mask with the box's
is fragile (a real glyph can look like a box, and a space draws nothing), so
the answer comes from the font's own table: the `cmap` maps code points to
glyphs, and a code point is drawable exactly when it maps to a glyph other
than 0. The table is read once with `struct` (formats 4 and 12, the ones
every TrueType font carries), which keeps fontTools out of the bot.

Boards repeat the same words picture after picture, so what a text becomes
(`drawable`, `fit`) is remembered per process.

A name is drawn with what the font has: characters it lacks are first
decomposed (NFKD) so that a letter with an unusual accent keeps its base
letter, then dropped; a name left with no letter or digit is replaced by the
seat's label the caller gives ("Seat 3"), so nothing is ever drawn as boxes.
"""

from __future__ import annotations

import struct
import unicodedata
from functools import cache, lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).parent / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
ELLIPSIS = "…"


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped font at `size` pixels; basic layout, so the same text always draws the
    same pixels whatever libraqm the machine has (the replay GIF must be byte-stable)."""
    path = str(BOLD if bold else REGULAR)
    return ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.BASIC)


@cache
def coverage(path: Path = REGULAR) -> frozenset[int]:
    """Every code point the font maps to a real glyph."""
    return frozenset(_cmap(path.read_bytes()))


def _cmap(data: bytes) -> set[int]:
    tables = struct.unpack_from(">H", data, 4)[0]
    offset = None
    for i in range(tables):
        tag, _checksum, start, _length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            offset = start
    if offset is None:
        raise ValueError("the font has no cmap table")
    count = struct.unpack_from(">H", data, offset + 2)[0]
    points: set[int] = set()
    for i in range(count):
        platform, encoding, sub = struct.unpack_from(">HHI", data, offset + 4 + 8 * i)
        if (platform == 3 and encoding in (1, 10)) or platform == 0:
            points |= _subtable(data, offset + sub)
    return points


def _subtable(data: bytes, at: int) -> set[int]:
    kind = struct.unpack_from(">H", data, at)[0]
    points: set[int] = set()
    if kind == 4:
        segments = struct.unpack_from(">H", data, at + 6)[0] // 2
        ends = struct.unpack_from(f">{segments}H", data, at + 14)
        starts_at = at + 16 + 2 * segments
        starts = struct.unpack_from(f">{segments}H", data, starts_at)
        deltas = struct.unpack_from(f">{segments}h", data, starts_at + 2 * segments)
        ranges_at = starts_at + 4 * segments
        offsets = struct.unpack_from(f">{segments}H", data, ranges_at)
        for s in range(segments):
            for code in range(starts[s], ends[s] + 1):
                if code == 0xFFFF:
                    continue
                if offsets[s] == 0:
                    glyph = (code + deltas[s]) & 0xFFFF
                else:
                    where = ranges_at + 2 * s + offsets[s] + 2 * (code - starts[s])
                    glyph = struct.unpack_from(">H", data, where)[0]
                    glyph = (glyph + deltas[s]) & 0xFFFF if glyph else 0
                if glyph:
                    points.add(code)
    elif kind == 12:
        groups = struct.unpack_from(">I", data, at + 12)[0]
        for g in range(groups):
            first, last, glyph = struct.unpack_from(">III", data, at + 16 + 12 * g)
            points.update(range(first if glyph else first + 1, last + 1))
    return points


def missing(text: str, path: Path = REGULAR) -> list[str]:
    """The characters of `text` the font would draw as boxes (spaces and controls aside)."""
    have = coverage(path)
    return [ch for ch in text if ord(ch) not in have and not ch.isspace()]


@lru_cache(maxsize=8192)
def drawable(text: str, fallback: str, path: Path = REGULAR) -> str:
    """`text` with only what the font can draw; `fallback` if no letter or digit is left."""
    have = coverage(path)
    text = unicodedata.normalize("NFC", text)
    if all(ord(ch) in have or ch.isspace() for ch in text):
        return text
    kept = []
    for ch in text:
        if ord(ch) in have:
            kept.append(ch)
            continue
        # A letter the font lacks may still have a drawable base letter (and accents).
        kept.extend(
            part
            for part in unicodedata.normalize("NFKD", ch)
            if ord(part) in have and not unicodedata.combining(part)
        )
    result = " ".join("".join(kept).split())
    return result if any(ch.isalnum() for ch in result) else fallback


@lru_cache(maxsize=8192)
def fit(text: str, width: int, size: int, bold: bool = False) -> str:
    """`text` cut with an ellipsis so that it is at most `width` pixels wide at `size`."""
    face = font(size, bold)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text.rstrip() + ELLIPSIS) > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS if text else ""


def fit_chars(text: str, limit: int) -> str:
    """`text` cut with an ellipsis to at most `limit` characters (a description, not a picture)."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + ELLIPSIS
