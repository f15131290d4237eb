"""A squarified treemap layout (Bruls, Huizing and van Wijk, 2000): rectangles whose
areas are proportional to their values, laid in rows that keep them close to squares.

The largest values are placed first, each row along the shorter side of the room
left; a value joins the row while that does not make the row's worst aspect ratio
worse. Equal inputs give equal rectangles, so a page drawn from them is the same
every time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class Tile(NamedTuple):
    key: str
    value: float
    x: float
    y: float
    width: float
    height: float


class _Room(NamedTuple):
    x: float
    y: float
    width: float
    height: float


def squarify(items: Sequence[tuple[str, float]], width: float, height: float) -> list[Tile]:
    """One tile per item of positive value, in ``width`` × ``height``; the largest first
    (ties by key), together filling the whole area."""
    ordered = sorted(
        ((key, value) for key, value in items if value > 0), key=lambda item: (-item[1], item[0])
    )
    total = sum(value for _, value in ordered)
    if not ordered or width <= 0 or height <= 0:
        return []
    scale = width * height / total
    areas = [(key, value, value * scale) for key, value in ordered]
    room = _Room(0.0, 0.0, float(width), float(height))
    tiles: list[Tile] = []
    row: list[tuple[str, float, float]] = []
    for item in areas:
        side = min(room.width, room.height)
        if row and _worst([*row, item], side) > _worst(row, side):
            room = _lay(row, room, tiles)
            row = []
        row.append(item)
    _lay(row, room, tiles)
    return tiles


def _worst(row: Sequence[tuple[str, float, float]], side: float) -> float:
    """The largest aspect ratio (long side over short) of ``row`` laid along ``side``."""
    total = sum(area for _, _, area in row)
    largest = max(area for _, _, area in row)
    smallest = min(area for _, _, area in row)
    if smallest <= 0 or total <= 0:
        return float("inf")
    return max(side * side * largest / (total * total), total * total / (side * side * smallest))


def _lay(row: Sequence[tuple[str, float, float]], room: _Room, tiles: list[Tile]) -> _Room:
    """Lay ``row`` along the shorter side of ``room``; the room that is left."""
    total = sum(area for _, _, area in row)
    if room.width >= room.height:  # a column at the left
        thickness = total / room.height if room.height else 0.0
        y = room.y
        for key, value, area in row:
            length = area / thickness if thickness else 0.0
            tiles.append(Tile(key, value, room.x, y, thickness, length))
            y += length
        return _Room(room.x + thickness, room.y, room.width - thickness, room.height)
    thickness = total / room.width if room.width else 0.0
    x = room.x
    for key, value, area in row:
        length = area / thickness if thickness else 0.0
        tiles.append(Tile(key, value, x, room.y, length, thickness))
        x += length
    return _Room(room.x, room.y + thickness, room.width, room.height - thickness)
