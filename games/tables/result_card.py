"""The picture of a shared result that messaging apps show under its link: a 1200 × 630 PNG
(Open Graph's large image), drawn with Pillow and kept in the shared cache.

A chat shows it 300 to 500 pixels wide, a third of its size or less, so what matters is
drawn large: the game, who won, each seat's final total, and the app's name.

The font ships with the code (``fonts/``: DejaVu Sans Bold, cut to the Latin, Greek and
Cyrillic alphabets, licence beside it). Pillow's own scalable default has no accented
letters (Niccolò, Attilà), and the server must not depend on the fonts a machine happens
to have.
"""

import hashlib
import io
from functools import lru_cache
from pathlib import Path

from django.core.cache import cache
from django.utils.translation import get_language, gettext, ngettext
from PIL import Image, ImageDraw, ImageFont

from games.tables.sharing import SharedMatch

WIDTH, HEIGHT = 1200, 630
# Bump when the drawing changes: pictures cached or held by browsers are drawn again.
VERSION = 1
# A picture is drawn again when its table's head moves (an amended hand) and in each
# language, so a kept one is never wrong: it is kept as long as a day.
CACHE_SECONDS = 24 * 60 * 60

FONT = Path(__file__).resolve().parent / "fonts" / "DejaVuSans-Bold-subset.ttf"
FELT = (15, 81, 50)  # the app's theme colour (#0f5132)
GOLD = (255, 232, 163)  # the winner's colour on the table page (#ffe8a3)
FACE = (244, 244, 240)  # a card's face, as the dark theme draws cards
INK = (27, 27, 27)
PALE = (214, 232, 222)  # small text on the felt: 9:1 against it
MARGIN = 60
INNER = WIDTH - 2 * MARGIN
ELLIPSIS = "…"


@lru_cache(maxsize=64)
def _font(size: int) -> ImageFont.FreeTypeFont:
    # The basic layout: Latin, Greek and Cyrillic need no shaping, and it is the same on
    # every machine, with or without libraqm.
    return ImageFont.truetype(str(FONT), size, layout_engine=ImageFont.Layout.BASIC)


def _shortened(text: str, font: ImageFont.FreeTypeFont, width: float) -> str:
    """Return ``text``, cut and ended with an ellipsis if it is wider than ``width``."""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + ELLIPSIS) > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS


def _fitted(texts: list[str], width: float, largest: int, smallest: int):
    """Return the largest font (down to ``smallest``) that fits each of ``texts`` on one
    line, and the texts, shortened where even the smallest does not: one size for all, so
    that no name or total looks more important than another."""
    for size in range(largest, smallest - 1, -2):
        font = _font(size)
        if all(font.getlength(text) <= width for text in texts):
            return font, texts
    font = _font(smallest)
    return font, [_shortened(text, font, width) for text in texts]


def _wrapped(text: str, font: ImageFont.FreeTypeFont, width: float) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and font.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines or [""]


def _headline(text: str, width: float, height: float):
    """Return the font and lines that set ``text`` largest within the box: one line if it
    is still large there, else two (the second shortened if a third would be needed)."""
    for size in range(112, 79, -4):
        if _font(size).getlength(text) <= width:
            return _font(size), [text]
    for size in range(112, 55, -4):
        font = _font(size)
        lines = _wrapped(text, font, width)
        fits = all(font.getlength(line) <= width for line in lines)
        if fits and len(lines) <= 2 and len(lines) * size * 1.2 <= height:
            return font, lines
    font = _font(56)
    lines = _wrapped(text, font, width)
    rest = " ".join(lines[1:])
    return font, [_shortened(line, font, width) for line in (lines[0], rest) if line]


def result_card_draw(match: SharedMatch) -> bytes:
    """Draw the result's picture in the active language and return it as PNG bytes."""
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(image)

    # The game, large, and the app's name: the picture says where it comes from.
    font, (game,) = _fitted([match.game], INNER * 0.62, 56, 36)
    draw.text((MARGIN, 92), game, font=font, fill=GOLD, anchor="ls")
    draw.text((WIDTH - MARGIN, 92), "RummyRef", font=_font(40), fill=PALE, anchor="rs")

    # Who won, as large as fits in two lines.
    top, bottom = 130, 336
    font, lines = _headline(match.headline, INNER, bottom - top)
    step = font.size * 1.2
    first = top + (bottom - top - step * len(lines)) / 2 + step / 2
    for n, line in enumerate(lines):
        draw.text((WIDTH / 2, first + n * step), line, font=font, fill=GOLD, anchor="mm")

    # Each seat's final total on a card, the winners' in gold.
    seats = len(match.seats)
    gap = 24
    tile = (INNER - gap * (seats - 1)) / seats
    y0, y1 = 360, 548
    name_font, names = _fitted(list(match.seats), tile - 28, 44, 28)
    total_font, totals = _fitted([str(total) for total in match.totals], tile - 28, 104, 40)
    for seat in range(seats):
        x0 = MARGIN + seat * (tile + gap)
        face = GOLD if seat in match.winners else FACE
        draw.rounded_rectangle((x0, y0, x0 + tile, y1), radius=20, fill=face)
        middle = x0 + tile / 2
        draw.text((middle, y0 + 58), names[seat], font=name_font, fill=INK, anchor="ms")
        draw.text((middle, y1 - 28), totals[seat], font=total_font, fill=INK, anchor="ms")

    hands = len(match.hands)
    footer = ngettext("%(hands)s hand", "%(hands)s hands", hands) % {"hands": hands}
    if match.lower_is_better:
        footer += " · " + gettext("Penalty points: lower is better.")
    font, (footer,) = _fitted([footer], INNER, 32, 22)
    draw.text((MARGIN, 604), footer, font=font, fill=PALE, anchor="ls")

    out = io.BytesIO()
    # A few flat colours and their anti-aliased edges: 32 of them lose nothing to the eye,
    # and the PNG is a third of the size and encoded faster than in full colour.
    image.quantize(colors=32, method=Image.Quantize.FASTOCTREE).save(out, "PNG")
    return out.getvalue()


def result_card_etag(match: SharedMatch) -> str:
    """Return the ETag of the result's picture: one per share, head and language."""
    key = f"{VERSION}:{match.token}:{match.head_seq}:{get_language()}"
    return f'"{hashlib.sha256(key.encode()).hexdigest()[:32]}"'


def result_card(match: SharedMatch) -> bytes:
    """Return the result's picture in the active language: from the cache, else drawn."""
    # The token is hashed into the key: the cache's keys are no list of addresses.
    key = "result-card:" + result_card_etag(match).strip('"')
    png = cache.get(key)
    if png is None:
        png = result_card_draw(match)
        cache.set(key, png, CACHE_SECONDS)
    return png
