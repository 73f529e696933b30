"""The bag and the lid: drawing tiles, and checking a deal a camera saw against what they could give.

Both are kept as counts per colour. A tile is drawn uniformly from the bag; when the bag is empty, the whole
lid is poured in first (never while the bag still holds tiles); when both are empty, drawing stops.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tracker.explain import InvalidDeal
from tracker.tiles import COLOUR_NAMES

TILES_PER_FACTORY = 4


def draw_deal(bag: list[int], lid: list[int], factories: int, rng: random.Random) -> list[list[int]]:
    """Fill `factories` factory displays with 4 tiles each, in order, drawing from `bag` (mutated).

    If bag and lid run dry the display being filled keeps what it got and later ones stay empty (a short deal).
    """
    return [draw_tiles(bag, lid, TILES_PER_FACTORY, rng) for _ in range(factories)]


def draw_tiles(bag: list[int], lid: list[int], count: int, rng: random.Random) -> list[int]:
    """Draw up to `count` tiles from the bag (mutated), pouring the lid in whenever the bag is empty.

    Each draw picks position k uniformly in the bag listed colour by colour (blue first)."""
    tiles: list[int] = []
    bag_total = sum(bag)
    for _ in range(count):
        if bag_total == 0:
            bag_total = pour_lid(bag, lid)
            if bag_total == 0:
                break
        k = rng.randrange(bag_total)
        colour = 0
        while k >= bag[colour]:
            k -= bag[colour]
            colour += 1
        bag[colour] -= 1
        bag_total -= 1
        tiles.append(colour)
    return tiles


def pour_lid(bag: list[int], lid: list[int]) -> int:
    """Pour the lid into the bag; returns the bag's new size."""
    for c in range(5):
        bag[c] += lid[c]
        lid[c] = 0
    return sum(bag)


def take_seen_deal(bag: list[int], lid: list[int], deal: Sequence[Sequence[int]], factories: int) -> None:
    """Remove a deal seen on the table from bag and lid (both mutated), or raise InvalidDeal saying why.

    The deal must hold 4 tiles per display unless bag and lid together hold fewer than a full deal, in which
    case it holds all of them. Tiles beyond what the bag holds must come from the lid, which is poured only
    once the bag is empty, so such a deal contains every tile that was in the bag.
    """
    if len(deal) != factories:
        raise InvalidDeal(f"the deal lists {len(deal)} factory displays; this game has {factories}")
    counts = [0] * 5
    for i, tiles in enumerate(deal):
        if len(tiles) > TILES_PER_FACTORY:
            raise InvalidDeal(f"factory display {i + 1} holds {len(tiles)} tiles; a display holds at most 4")
        for colour in tiles:
            counts[colour] += 1
    dealt = sum(counts)
    available = sum(bag) + sum(lid)
    expected = min(TILES_PER_FACTORY * factories, available)
    if dealt != expected:
        if available < TILES_PER_FACTORY * factories:
            raise InvalidDeal(
                f"the deal has {dealt} tiles, but the bag and lid hold {available}: "
                f"all of them must be dealt, the last displays short"
            )
        raise InvalidDeal(f"the deal has {dealt} tiles; every factory display must get 4 ({expected} in all)")
    take_counts(bag, lid, counts)


def take_counts(
    bag: list[int], lid: list[int], counts: list[int], what: str = "deal", lid_name: str = "lid",
    names: tuple[str, ...] = COLOUR_NAMES,
) -> None:
    """Remove tiles seen dealt (`counts` per colour) from bag and lid (both mutated, only if the check passes).

    Beyond what the bag holds they must come from the lid, which is poured only once the bag is empty, so
    such a deal contains every tile that was in the bag."""
    if sum(counts) <= sum(bag):
        for c in range(5):
            if counts[c] > bag[c]:
                raise InvalidDeal(f"the {what} has {counts[c]} {names[c]} tiles but the bag holds only {bag[c]}")
        for c in range(5):
            bag[c] -= counts[c]
        return
    for c in range(5):
        if counts[c] < bag[c]:
            raise InvalidDeal(
                f"the {what} needs the {lid_name}, so it must include every tile left in the bag, "
                f"but it has {counts[c]} {names[c]} of the bag's {bag[c]}"
            )
        if counts[c] - bag[c] > lid[c]:
            raise InvalidDeal(
                f"the {what} has {counts[c]} {names[c]} tiles but bag and {lid_name} hold only {bag[c] + lid[c]}"
            )
    for c in range(5):
        bag[c], lid[c] = lid[c] - (counts[c] - bag[c]), 0
