"""Axes of a picture drawn with Pillow, without Qt: data to pixels, the frame with round
ticks, the axis titles (the y title turned upright) and text in a font with Greek letters.

The command line draws its pictures with these (``flexmech map --png``,
``flexmech optimize --png``: :mod:`.map_image`, :mod:`.optimum_image`), so they work on
a server without Qt's system libraries.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

#: a font with Greek letters, looked up in the system's font folders
FONT_FILE = "DejaVuSans.ttf"
#: Greek letters spelled out when no font has them
SPELLED = str.maketrans({"μ": "mu_", "φ": "phi", "ζ": "zeta"})


def nice_ticks(low: float, high: float, count: int = 6) -> list[float]:
    """About ``count`` round tick values within ``[low, high]``.

    >>> nice_ticks(0.0, 1.0)
    [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    """
    raw = (high - low) / max(count - 1, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw * 0.999)
    first = math.ceil(low / step - 1e-9) * step
    return [round(first + k * step, 12) for k in range(int((high - first) / step + 1e-9) + 1)]


class Pen:
    """Writes text on a Pillow image in a normal (15 px) or small (13 px) font; Greek
    letters are spelled out where the system has no font with them."""

    def __init__(self, image: Image.Image):
        self.draw = ImageDraw.Draw(image)
        try:
            self.font, self.small = ImageFont.truetype(FONT_FILE, 15), ImageFont.truetype(FONT_FILE, 13)
            self.greek = True
        except OSError:
            self.font, self.small = ImageFont.load_default(size=15), ImageFont.load_default(size=13)
            self.greek = False

    def write(self, xy, text: str, big: bool = False, draw: ImageDraw.ImageDraw | None = None, **kw) -> None:
        """Write ``text`` at ``xy`` (Pillow's ``anchor`` and ``fill`` accepted; black by default)."""
        (draw or self.draw).text(xy, text if self.greek else text.translate(SPELLED), fill=kw.pop("fill", "black"),
                                 font=self.font if big else self.small, **kw)


@dataclass(frozen=True)
class Axes:
    """The plot area ``box`` (left, top, right, bottom px) of ``image`` showing ``x_range``
    and ``y_range`` (data units, low to high)."""

    image: Image.Image
    pen: Pen
    box: tuple[int, int, int, int]
    x_range: tuple[float, float]
    y_range: tuple[float, float]

    def px(self, x: float, y: float) -> tuple[float, float]:
        """The pixel of the data point ``(x, y)``."""
        left, top, right, bottom = self.box
        u = (x - self.x_range[0]) / (self.x_range[1] - self.x_range[0])
        v = (y - self.y_range[0]) / (self.y_range[1] - self.y_range[0])
        return left + u * (right - left), bottom - v * (bottom - top)

    def frame(self, x_title: str, y_title: str, grid: bool = False) -> None:
        """The box, round ticks with their values (and grid lines), and both axis titles."""
        left, top, right, bottom = self.box
        draw, write = self.pen.draw, self.pen.write
        for t in nice_ticks(*self.x_range):
            x, _ = self.px(t, self.y_range[0])
            if grid:
                draw.line([(x, top), (x, bottom)], fill="#e4e4e4")
            draw.line([(x, bottom), (x, bottom + 6)], fill="black")
            write((x, bottom + 8), f"{t:g}", anchor="ma")
        for t in nice_ticks(*self.y_range):
            _, y = self.px(self.x_range[0], t)
            if grid:
                draw.line([(left, y), (right, y)], fill="#e4e4e4")
            draw.line([(left - 6, y), (left, y)], fill="black")
            write((left - 9, y), f"{t:g}", anchor="rm")
        draw.rectangle(self.box, outline="black", width=1)
        write(((left + right) / 2, bottom + 30), x_title, big=True, anchor="ma")
        label = Image.new("RGBA", (bottom - top, 22), (255, 255, 255, 0))
        write(((bottom - top) / 2, 0), y_title, big=True, draw=ImageDraw.Draw(label), anchor="ma")
        label = label.rotate(90, expand=True)
        self.image.paste(label, (12, top), label)
