"""Piece colours for colour-blind players. The colours are the real game's (the rulebooks'),
so some pairs look alike to a colour-blind eye: protanopia, deuteranopia and tritanopia are
simulated with the Machado, Oliveira and Fernandes (2009) matrices (severity 1) and two colours
closer than CIEDE2000 10 are taken to be confusable. Every piece carries a second cue, its
letter or number drawn on it (web/src/board/draw.ts, board3d/scene.ts): the test requires that
every confusable pair differs in that cue, and it measures the colours so that a palette change
that makes more pairs confusable, or one pair the same to a normal eye, is caught."""

from __future__ import annotations

import itertools
import math

import pytest

from ubongo.catalogue import edition_catalogue

Vec = tuple[float, float, float]

# Machado, Oliveira, Fernandes, "A Physiologically-based Model for Simulation of Color Vision
# Deficiency", IEEE TVCG 15(6), 2009: severity 1.0, on linear RGB
MACHADO = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
CONFUSABLE = 10.0  # CIEDE2000 below which two piece colours are hard to tell apart


def linear(hex_colour: str) -> Vec:
    def one(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (one(int(hex_colour[i : i + 2], 16) / 255) for i in (1, 3, 5))
    return r, g, b


def simulate(rgb: Vec, vision: str) -> Vec:
    if vision == "normal":
        return rgb
    m = MACHADO[vision]
    r, g, b = (min(1.0, max(0.0, sum(m[i][j] * rgb[j] for j in range(3)))) for i in range(3))
    return r, g, b


def lab(rgb: Vec) -> Vec:
    """CIELAB (D65) of a linear sRGB colour."""
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(c1: Vec, c2: Vec) -> float:
    """CIEDE2000 colour difference (Sharma, Wu, Dalal 2005, the formula as they state it)."""
    l1, a1, b1 = c1
    l2, a2, b2 = c2
    cbar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cbar**7 / (cbar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    big_dh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lbar, cbarp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbar = (h1p + h2p) / 2
    else:
        hbar = (h1p + h2p + (360 if h1p + h2p < 360 else -360)) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hbar - 30))
        + 0.24 * math.cos(math.radians(2 * hbar))
        + 0.32 * math.cos(math.radians(3 * hbar + 6))
        - 0.20 * math.cos(math.radians(4 * hbar - 63))
    )
    dtheta = 30 * math.exp(-(((hbar - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbarp**7 / (cbarp**7 + 25**7))
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc = 1 + 0.045 * cbarp
    sh = 1 + 0.015 * cbarp * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    return math.sqrt(
        (dl / sl) ** 2 + (dc / sc) ** 2 + (big_dh / sh) ** 2 + rt * (dc / sc) * (big_dh / sh)
    )


@pytest.mark.parametrize(
    ("one", "two", "expected"),
    [  # Sharma, Wu, Dalal's test data, pairs 1, 7 and 17
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ],
)
def test_ciede2000_matches_the_published_pairs(one: Vec, two: Vec, expected: float) -> None:
    assert ciede2000(one, two) == pytest.approx(expected, abs=1e-4)


def test_the_simulations_confuse_what_they_should() -> None:
    # red and green are one colour to a protanope and a deuteranope, not to a tritanope
    red, green = linear("#d63031"), linear("#2ea043")
    near = {v: ciede2000(lab(simulate(red, v)), lab(simulate(green, v))) for v in MACHADO}
    assert near["deuteranopia"] < CONFUSABLE < near["tritanopia"]
    assert ciede2000(lab(red), lab(green)) > 40


# the confusable pairs measured today (colours of different pieces, any simulated vision): a
# palette change that adds one fails here, and must be looked at
CONFUSABLE_TODAY = {"classic": 18, "3d": 1, "extreme": 9, "trigo": 4}


@pytest.mark.parametrize("edition_name", sorted(CONFUSABLE_TODAY))
def test_pieces_alike_in_colour_differ_in_their_drawn_cue(edition_name: str) -> None:
    pieces = edition_catalogue(edition_name)["pieces"]
    colours = {p["colour"] for p in pieces}
    confusable: set[tuple[str, str]] = set()
    for vision in ("normal", *MACHADO):
        seen = {c: lab(simulate(linear(c), vision)) for c in colours}
        for a, b in itertools.combinations(sorted(colours), 2):
            distance = ciede2000(seen[a], seen[b])
            if vision == "normal":
                # to a normal eye, different colours are clearly different
                assert distance >= 8, (edition_name, a, b, distance)
            if distance < CONFUSABLE:
                confusable.add((a, b))
    assert len(confusable) <= CONFUSABLE_TODAY[edition_name], sorted(confusable)
    # the cue drawn on each piece (its id, or its number on the 3D board) tells apart any two
    # pieces, whatever their colours
    ids = [p["id"] for p in pieces]
    assert len(set(ids)) == len(ids)
    for a, b in confusable:
        names = {p["id"] for p in pieces if p["colour"] in (a, b)}
        assert len(names) >= 2, (a, b)
