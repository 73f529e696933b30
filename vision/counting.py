"""Counting tiles by colour inside a factory display or the centre of the table.

Each region is resampled once per frame onto a small canonical grid (one remap, maps built per calibration) and
every pixel is labelled with a tile class (the 5 colours and, in the centre, the first-player marker) or "no tile".
With the empty table captured at setup, a pixel still as it was then is no tile whatever its colour, nor is one
that is the empty table in a tile's shadow (on a pale table the shadow looks like the cream marker), and colours
are read in the light of each display's own cream card (its ring between rosette and rim), less the lamp's
reflection over it (learned at setup), with the same fixed print-lit model as the boards (the centre, which has no
card, in the displays' light, less the reflection its own tiles show); without that capture, a colour model fitted
at setup and the disc's print as background colours stand in. A tile's side faces, its colour darkened, are never
a tile.

Tiles are then found as shapes, not areas: a tile is a square of known side (from the set's proportions, 0.554 of
a display's radius), so a tile is a place where a ring well inside it (its middle, the motif's, left out) is mostly of
one colour. The fullest such
place is taken, its tile's pixels are explained away, and the next is tried: touching tiles of one colour are one
blob but still as many tiles (of places equally full, the one whose surroundings are emptiest: a tile's middle, not
the place between two); a motif, a petal, a shadow or an edge never fills a core. A display never holds more
than 4 tiles: beyond that, the least full cores are doubts, not tiles.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from calibration.colour_model import COLOURS, PRINT_CREAM, PRINT_LIT, TILE_CLASSES, ColourModel
from calibration.sampling import PatchSampler
from vision.board_reader import GLARE_STEPS, GLEAM
from vision.light import from_lab, to_lab
from vision.occlusion import GLARE_LEVEL

FACTORY_GRID = 40  # canonical pixels across a factory display's diameter
BACKGROUND_SIGMA = 9.0  # spread of the non-tile colours, L*a*b* units
SIDE_SHADE = np.array([0.55, 0.6, 0.6], np.float32)  # a side face against the top, per L*a*b* channel
UNCHANGED_DELTA_E = 8.0  # a pixel this close to the empty table's (give or take a pixel's shift) is no tile
# ... but a pixel that reads white only this close: a white tile over some sets' pale blue rosette is within 8 of
# it, and its middle and motif read as no tile (tuning seeds 0-31 at 720p: white tiles missed 37 -> 17).
UNCHANGED_WHITE_DELTA_E = 6.0
SHADOW_SCALE = (0.6, 0.94)  # a shadow's (L*+16) against the empty table's
SHADOW_CHROMA = 4.0  # a shadow's a* and b* stray this little from the empty table's, scaled
STEADY_CHANGE = 30.0  # a channel changed by this much (of 255) changed for real, not by noise
STEADY_SHARE = 0.01  # a region with more of its pixels changed than this is a new view
STEADY_RATE = 0.3  # weight of the newest frame in a steady region's average
# Colours whose side faces are not told apart as background in the print's light: black's own are black enough,
# and white's darkened are where black tiles lie (as background they hid them: tuning seeds 0-7, black tiles
# missed 56 -> 25 without it).
SHADE_FREE = ("black", "white")
# A black tile's top is dark: lit in the print's light, even its teal motif stays under this L* (pixels of true black
# tiles on displays that read black, tuning and check seeds 0-31 and 100-131, colored and gray walls: 99th
# percentile L* 40-59 by tile printing; of the bright printing's 17,447, 3 over 65). The black class's Gaussian
# stretches along that motif towards light cyan, and a pale blue white tile whose display's light reads a little
# greener than the print's falls there before it falls in white's (narrow in a*): its top reads black (such pixels
# on true white tiles: median L* 67-78). Lighter than BLACK_TOP, what black's likelihood wins is white's. Recorded
# tuning game 750 (camera tilted 39 degrees, bright tiles; the far displays' cards, mixed with their rosette and
# rim, read 5-11 % greener against blue than the near ones'): displays 4, 5 and 6 of the first deal read with a black
# tile for their white one, display 4 at confidence 0.9 or more. Regions right, tuning / check seeds, colored and
# gray walls, from 2451 / 2518 (wrong at 0.9 or more: 2 / 3): BLACK_TOP 58: 2449 / 2515; 62: 2451 / 2518 (2 / 3);
# 64: 2452 / 2519 (3 / 3); 66: 2454 / 2519 (3 / 3); 68: 2453 / 2519; 70: 2452 / 2518. Such pixels as no tile
# instead of white (62): 2452 / 2518, but in game 750 display 4 then reads no white tile and display 5 four black.
BLACK_TOP = 62.0
# ... and in the centre this: read in the displays' light less the glare its own tiles show, not in a card's own, a
# black tile's lit motif reads lighter there (pixels of true black tiles in centres that read black, tuning and check
# seeds, colored and gray walls, seed 4's clipped lamp aside: the lightest L* 66.8 of 51,779; of white tiles' read
# black, 702 over 62, 449 over 70, 169 over 74). Recorded tuning game 750: the first move's leftover white tile, pale
# blue, read black in the centre (its lit top L* 72-91), and the tracker waited for good at move 0. Centres of its
# first 45 s read right (379 in view) 203 without; 330 / 329 / 327 / 327 / 322 for 62 / 66 / 70 / 72 / 74. Regions
# right, tuning / check seeds, from 2453 / 2520: 62 2452 / 2518 (a classic black tile's teal motif, L* 62-65, read
# white); 66 and 68 2452 / 2519; 70 2452 / 2520 (a white tile's lit bevel now white beside a black tile took it for
# its side face: CENTRE_BLACK_SIDE); 72 and 74 2453 / 2520, no region changed.
CENTRE_BLACK_TOP = 72.0
UNEXPLAINED_FREE, UNEXPLAINED_SPAN = 0.03, 0.07  # unexplained share that costs nothing, and the span to 10 %
TILE_REACH = 0.95  # what a tile changes round its middle, in tile sides (its corners, side faces and shadow)
CORE = 0.35  # radius of a tile's core, in tile sides (inside the tile at any turn, foreshortened too)
CORE_HOLE = 0.2  # radius of the core's middle left out, in tile sides (the motif)
FULL = 0.5  # share of a tile's core of one colour that makes it a tile (labels are patchy)
DOUBT = 0.25  # a core this much short of FULL is a doubt, not nothing
# A doubt this full is a tile after all where nothing else explains what changed: at least APART tile sides from
# every tile found, on a place whose inscribed disc changed (CHANGED_SHARE of it) since the empty table. A tile
# whose colour reads patchy (black under a blue cast, low resolution) fills its core only so far.
SURE_DOUBT, APART, CHANGED_SHARE = 0.3, 0.9, 0.9
# A tile changes what lies under it: a tile found where less than this share of the square round its core (CORE
# sides from its middle, inside the tile at any turn) changed since the empty table is a doubt. Where the camera's
# noise or its compression's blocks move a patch of the display's print beyond the unchanged test, the print's
# colour (a blue rosette) can fill a core, but the patch is smaller than a tile. Not for white: a white tile's
# middle and motif match the pale print under it (true white tiles' discs, tuning seeds 0-31: 14 of 574 changed
# less than 0.6). Regions right, tuning seeds 0-31: on the inscribed disc
# 1186 without, 1189 / 1189 / 1190 / 1187 for 0.5 / 0.6 / 0.7 / 0.8; later on the square (one box filter, cheaper
# than the disc's windows), 1193 / 1195 / 1195 / 1192.
TILE_CHANGED = 0.6
# ... and in the centre a white tile this much (TILE_CHANGED spares white for the displays' pale print; the table
# under the centre has none): under a strong lamp on a grey table, lit patches of the table read white and filled
# cores (tuning seed 7, check seed 107: discs 0.40-0.70 changed; true white tiles' discs, 1st percentile, 0.89 and
# 0.90). Regions right, tuning seeds 0-31 / check seeds 100-131, from 1207 / 1248: 0.6 / 0.7 / 0.8 / 0.9 give
# 1207 / 1249, 1207 / 1250, 1207 / 1251, 1207 / 1251; on the tuning seeds 0.7 and 0.8 take off one and two of seed
# 7's false white tiles, 0.9 a true one too.
CENTRE_WHITE_CHANGED = 0.8
# ... and a first-player marker this much: on pale tables the blurred halos and lit bevels round the centre's tiles,
# between two of them, read as the cream marker and fill a core, but only part of the square round it changed
# (markers found, their square's share changed, tuning seeds 0-31 colored and gray walls, seed 4's clipped lamp
# aside: true 0.69 and up, 113; false 0.53-0.79, 11; check seeds 100-131: true 0.67 and up, false 0.63, 0.94, 1.0).
# Regions right, tuning / check from 2444 / 2511: 0.6 the same, 0.65 2445 / 2512, 0.7 2444 / 2511, 0.75 2443 / 2508.
MARKER_CHANGED = 0.65
# A tile whose colour reads too patchy for even a doubt (a black tile's teal motif and blue-cast top, a blurred
# frame) still changes a tile's shape since the empty table: on a display, a place beyond every tile found (their
# ERASE discs) whose core and the square round it (CORE sides from the middle) both changed this much is a tile, of
# the colour most of its disc reads as (at least UNSEEN_VOTES of it). Tuning seeds 0-31, regions right of 1280: 1180
# without; 1182-1185 for shares 0.75-0.85 (0.7: 1183, 0.9: 1182, 0.95: 1180), the same for votes 0-0.15 (0.2:
# 1180). The square (a box filter) reads as the inscribed disc did (an 11x11 filter, three times the cost).
UNSEEN_SHARE, UNSEEN_VOTES = 0.8, 0.1
# ... and beside a tile found, what its explained disc (ERASE) takes of a black tile's square no longer counts
# against it: over a pale print a black tile's top reads as the print in shadow (no colour) in part, and 0.9 tile
# sides from a neighbour its square changed over 0.63-0.79 of itself, short of UNSEEN_SHARE. A place whose core
# changed (UNSEEN_SHARE) and whose square changed over UNSEEN_SHARE of what the tiles found leave of it (but of no
# less than UNSEEN_BESIDE[0] of the square) is a black tile where its disc reads black over UNSEEN_BESIDE[1] of it
# (shadows between tiles, at the display's middle, read black less). Regions right, tuning seeds 0-31 / check seeds
# 100-131, colored and gray walls, from 2445 / 2512: (0.7, 0.3) 2448 / 2513, (0.8, 0.3) 2448 / 2513, (0.9, 0.3)
# 2448 / 2514, (0.95, 0.3) 2446 / 2512, (0.9, 0.2) 2448 / 2515, (0.9, 0.25) 2449 / 2515, (0.9, 0.35) 2447 / 2513;
# without the black votes, any colour: 0.7 2420 / 2496.
UNSEEN_BESIDE = (0.9, 0.25)
# ... but a white tile is lighter than the print it hides: where a place seen so reads white but its disc is darker
# than the empty display's (by more than UNSEEN_WHITE, L*, on average) what changed is a neighbour's shadow over the
# pale print. White tiles seen by their shape, tuning seeds 0-31 and check seeds 100-131, colored and gray walls:
# false 8, their discs 3.6-13.8 darker; true 2, 4.4 darker and 11.4 lighter. Regions right, tuning colored / gray,
# check colored / gray: 1217 / 1215, 1258 / 1249 without; 1219 / 1218, 1258 / 1250 under 0, -2 or -3.
UNSEEN_WHITE = 0.0
# ... and a black tile over a pale, neutral print can read as that print in a tile's shadow (SHADOW_SCALE: a black
# tile's top there is 0.6-0.94 of the print's L*+16), which is no tile: its disc then reads as no colour at all.
# A place seen so where no colour reads (under UNSEEN_VOTES) is a black tile where its disc is darker than the empty
# display's by more than UNSEEN_BLACK (L*) on average: a shadow beside a tile is a band, not a tile's shape. Places
# seen by their shape where under UNSEEN_VOTES of the disc read as a colour, tuning seeds 0-31 and check seeds
# 100-131, colored and gray walls, seed 4's clipped lamp aside: a black tile 13.7 darker, none 9.8 darker, two
# lighter (seed 103, 11.4 and 16.2; seed 4's 30 are all lighter too).
UNSEEN_BLACK = 12.0
# Between two touching tiles of one colour a core and its disc are as full as on either tile (fuller, where the
# tiles' motifs read as no tile): a place is also judged by the square ring round it (half-widths SURROUND, in tile
# sides), whose fill counts SURROUND_WEIGHT times its share against it, where a colour covers SURROUND_AREA tile
# areas or more in a region (two touching tiles). Tuning seeds 0-31, regions right of 1280: 1168 without; 1176-1182
# for half-widths 0.45-0.55 and 0.7-0.75, weights 0.5-1.5, areas 1-1.6 (these: 1180).
SURROUND, SURROUND_WEIGHT, SURROUND_AREA = (0.5, 0.75), 1.0, 1.3
SETTLE = 0.4  # how far (tile sides) a white tile may move when touching white tiles are settled (_second_look)
# A doubt is settled with the white tiles found within this many tile sides of it. Taken between two touching white
# tiles, a tile lies half a side from each, so the doubt on the farther one lies a side from it, beyond APART
# (tuning seed 12 frame 3, display 7: 0.93 sides). Regions right, tuning seeds 0-31 / check seeds 100-131: 1197 /
# 1242 within APART (0.9), 1199 / 1245 within 1.0-1.5; taking doubts from 0.25 full instead of SURE_DOUBT: 1195 /
# 1244.
SETTLE_REACH = 1.2
# A white tile's side faces, its white darkened, read as black (white and black are SHADE_FREE): seen obliquely they
# fill a core beside it. On a display, a black tile found within WHITE_SIDE[1] tile sides of a white one whose disc
# reads black over less than WHITE_SIDE[0] of it is that white tile's side face, a doubt. Regions right, tuning seeds
# 0-31: 1195 without; 1196 / 1197 / 1195 for 0.4 / 0.5 / 0.6, 1197 for 0.8-1.2 sides; in the centre too, 1196.
WHITE_SIDE = (0.5, 1.0)
# A blue, yellow or red tile's lit bevel and its washed-out edge over the pale print read white: a crescent beside it
# that fills a core closer to it than another tile could lie. On a display, a faint white tile (its disc white over
# under FAINT_WHITE[0] of it) found within WHITE_BESIDE tile sides of such a tile is that tile's edge, a doubt. White
# tiles found on displays that faint within 0.8 sides of one, tuning / check seeds, colored and gray walls: true 1 / 1,
# false 4 / 3 (beyond, within 1.1: true 21 / 24, false 6 / 2). Regions right, tuning / check, from 2453 / 2520: 0.7
# sides 2455 / 2520, 0.8 2457 / 2521, 0.9 2454 / 2519, 1.0 2451 / 2511; faces under 0.4 / 0.5 (0.8 sides) 2454 / 2521,
# 2457 / 2520 (the latter breaking true white tiles at 0.98 and 0.99).
WHITE_BESIDE = 0.8
# In the centre the side faces and shadows of tiles crowded together read black (black is SHADE_FREE) and fill cores
# between them: a black tile whose face fills under CENTRE_BLACK_SIDE[0] of its disc, within CENTRE_BLACK_SIDE[1]
# tile sides of a tile whose face is fuller, is that tile's side, a doubt. Regions right, tuning seeds 0-31 colored /
# gray walls, from 1213 / 1205: faces under 0.45 / 0.5 / 0.55 within 0.9 sides 1216 / 1204, 1214 / 1208, 1214 /
# 1208; under 0.45 within 1.0 1215 / 1204; under 0.5 within 0.8 1215 / 1208 (check seeds 100-131: 1254 / 1247 ->
# 1256 / 1248; within 0.9: 1256 / 1249).
CENTRE_BLACK_SIDE = (0.5, 0.8)
SAME_PLACE = 0.6  # tiles closer than this (in tile sides) are one (real neighbours lie a side apart, foreshortened)
# Share of its inscribed disc that a piece found in the centre must read as its own class: the marker's face fills
# its disc (see count_labels), and so does a tile's top. A blurred tile's halo on the table round another tile (an
# oak table reads yellow) or a tile's lit bevels make crescents of a colour that fill a core's ring but not a
# disc (tuning seeds 0-31: 18 yellow, 11 white and 7 black tiles too many, their discs 0.24-0.64 full; true tiles'
# 5th percentile 0.48-0.70). Regions right of 1280, tuning seeds 0-31: 1183 without, 1183 / 1186 / 1186 / 1184 /
# 1179 for 0.3 / 0.35 / 0.4 / 0.45 / 0.5. On the displays it changed as many counts for the worse as the better.
FACE = 0.35
# ... and a tile there of the colour the bare table reads as (most of it: an oak table reads yellow) this much: round
# blurred tiles on such a table, their halos of the table's colour fill discs further (oak centres, tuning seeds
# 0-31 and check seeds 100-131: yellow tiles too many had faces 0.35-0.54, true ones 0.54 and up). Regions right,
# tuning / check: 1199 / 1245 with FACE alone, 1199 / 1246, 1201 / 1247, 1200 / 1248 for 0.45 / 0.5 / 0.55; for the
# marker too (white and grey tables read as the cream marker, whose true faces there are 0.3-0.45): 1195 / 1245.
TABLE_FACE = 0.5
# The first-player marker's certainty. A marker whose face fills less than MARKER_FACE of its disc is a marker at
# MARKER_FAINT odds, as is one among several pieces as clear as a marker (MARKER_CLEAR full, MARKER_FACE faced),
# each beyond one costing the centre's counts MARKER_LOOKALIKE; none found, but a core MARKER_DOUBT full of its
# colour, MARKER_MISSED. Tuning seeds 0-31 (128 centres in view): faint markers true 14 of 17, cores of doubt 3 of
# 15; two or more clear pieces in 4 centres, none read right, the marker there 2 of 4 (seed 4: a lamp near
# clipping whitens every tile to the marker's cream).
MARKER_FACE, MARKER_FAINT, MARKER_CLEAR = 0.6, 0.8, 0.7
MARKER_DOUBT, MARKER_MISSED, MARKER_LOOKALIKE = 0.35, 0.2, 0.5
# On a white table the cream marker's top reads as the bare table, and no marker is found by its colour (tuning and
# check seeds 0-31 and 100-131, colored and gray walls: all 13 centres that missed it were on white tables), but its
# edges, side faces and shadow changed the table round it. With none found, a place beyond every tile found (their
# TILE_REACH discs) where what changed, its holes filled, covers MARKER_SHAPE[0] of the square round a core (CORE
# sides from the middle) and of the inscribed disc is the marker at MARKER_SHAPE[1] odds. Tuning seeds, the best
# place's cover: centres without the marker read right, at most 0.64 (116); markers missed mid-game 1.0, 1.0, 0.97,
# 0.71 and four under 0.45 (beside tiles, whose reach takes them); at a round's start, seen obliquely (seed 6, tilt
# 36 degrees), 0.88 and 0.82. Start-of-round deals right, tuning seeds 0-15 colored / gray of 480, 451 / 447
# without; 455 / 454 over 0.9, 457 / 455 over 0.8; mid-game the same over either.
MARKER_SHAPE = (0.8, 0.7)
# ... and beside a tile, whose reach takes part of it, the marker still shows as a piece: with the tiles found as
# walls, what changed, holes filled, covers a place APART from every tile (MARKER_SHAPE[0]), where its top reads as
# the table (the holes) over MARKER_BESIDE[0] of the inscribed disc and its dark "1" changed MARKER_BESIDE[1] of the
# disc MARKER_BESIDE[2] sides round the middle. Gaps enclosed by tiles read as the table in the middle, and blurred
# tiles' halos fill a gap with no table showing. Tried only where a core somewhere is a doubt of the marker's colour
# (its lit bevel): a flood over every tile costs. Centres with no marker found by colour, places passing (recorded
# tuning game 745, white table, 535 frames / tuning seeds 0-31 colored and gray, 128 centres): marker there, seen
# 15 / 3 -> 172 / 5 of 187 / 9; not there, taken 5 / 0 -> 5 / 0. Scanned (745 and the seeds, true / false): (0.3,
# 0.9) 176 / 5, 8 / 1; (0.35, 0.9) 173 / 5, 6 / 0; (0.4-0.45, 0.75-0.9) 169-172 / 5, 5 / 0; (0.5, 0.8) 166 / 5, 5 / 0.
MARKER_BESIDE = (0.4, 0.8, 0.2)
# On a display a white tile is less sure than its core's fill says: the pale print under it fills cores too. Its
# certainty grows with its fill WHITE_SPREAD slowly (tuning seeds 0-31, white tiles found with cores 0.60-0.65 /
# 0.65-0.7 / 0.7-0.8 / 0.8-0.9 full: 0.81 / 0.94 / 0.97 / 0.99 true, where 0.04 said 0.96 / 0.99 / 0.998 /
# 0.999); one whose face fills under FAINT_WHITE[0] of its disc where under FAINT_WHITE[1] of the square round its
# core changed since the empty table is at most FAINT_WHITE[2] sure (tuning: 9 of 16 such tiles true).
WHITE_SPREAD, FAINT_WHITE = 0.06, (0.45, 0.6, 0.6)
# In the centre a tile whose face fills under FAINT_FACE[0] of its disc (FACE, 0.35, would take it off) is at most
# FAINT_FACE[1] sure: tuning seeds 0-31, such tiles 17 of 23 true (0.45-0.55: 40 of 40; the check seeds 9 of 13).
FAINT_FACE = (0.45, 0.75)
# A white tile found on a display whose face fills under PRINT_SHOWING[0] of its disc is a doubt where the disc's
# lightness still follows the empty display's print there (their correlation over PRINT_SHOWING[1]): a tile's top
# hides the print under it, but noise and compression move patches of the pale print past the unchanged test and
# they read white (white tiles found on displays, faces under 0.45: correlation 0.7 or more in 7 of 21 false ones,
# 4 of 570 true ones, tuning seeds 0-31, colored walls). Regions right, tuning seeds 0-31 colored / gray walls, from
# 1207 / 1190: faces under 0.45 and correlations over 0.5 / 0.6 / 0.7 / 0.8: 1207 / 1196, 1209 / 1199, 1208 /
# 1198, 1210 / 1196; under 0.5: 1202-1210 / 1191-1195; under 0.55: 1191-1209 / 1178-1194. At a round's start (4
# tiles on every display, tuning seeds 0-15, 3 deals each, colored / gray: 451 / 447 of 480 without) true white
# tiles between others passed 0.7 (449 / 443); over 0.75 / 0.8 / 0.85: 451 / 446, 451 / 447, 452 / 448, while
# mid-game (with clipped channels read bright) 0.7 / 0.75 / 0.8 / 0.85 give 1211 / 1207, 1211 / 1207, 1213 / 1205,
# 1213 / 1205. The same for blue, yellow and red tiles (the print in a tile's shadow reads blue: tuning seed 20
# frame 3 display 5): faces under 0.45 and correlations over 0.8, tuning / check seeds, true 0 / 0 of 43 / 35, false
# 2 / 1; not for black, whose faint tops over the pale print read as it in shadow (true 5 / 2 of 89 / 55, false 0).
PRINT_SHOWING = (0.45, 0.8)
# A white tile on a display stands on the print: its top is lighter than the print under it, or its side faces and
# shadow darken the display beside it. Where noise or compression move the pale print past the unchanged test it
# reads white but does neither. A white tile found with no other tile within STANDING[0] tile sides, whose disc is
# lighter than the empty display's by under STANDING[1] (L*) on average and where no eighth of the ring round it
# (STANDING[2] to STANDING[3] tile sides from its middle) is darker than the empty display's by STANDING[4], is a
# doubt. Beside another tile the cue fails: that tile's top, sides and shadow fill the ring, and touching tiles hide
# each other's sides. White tiles found on displays, tuning seeds 0-31 colored and gray walls: alone 72, 6 false, 5 of
# them and no true one neither lighter nor darker beside; beside a tile 15 true and 8 false (check seeds 100-131: 24
# true, 3 false). Regions right, tuning colored / gray from 1215 / 1209, (lighter, darker beside) (3, 3) / (4, 4) /
# (4, 5) / (5, 6): 1216 / 1211, 1217 / 1211, 1217 / 1212, 1218 / 1210; alone within 1.5 sides, (3, 3): 1215 / 1211;
# beside tiles too, (3, 3): 1216 / 1213, but check seeds 1257 / 1248 -> 1254 / 1245; with the ring's eighths towards
# other tiles left out, 1208 / 1207 (true tiles' own shadows fall there too).
STANDING = (1.2, 4.0, 0.55, 0.85, 5.0)
# A white reading beside a tile of another colour can be that tile's blur over the display's print: the blue print
# and a yellow tile's halo mix to grey (complementary colours), a black tile's and the pale print to a light grey.
# A white tile found on a display within HALO[0] tile sides of a tile of another colour is a doubt where HALO[2] or
# more of its disc's white pixels lie within HALO[1] (delta E) of a mix of the empty display's print there and that
# tile's colour (the median of its disc's pixels of it). White tiles found on displays, tuning seeds 0-31 / check
# seeds 100-131, colored and gray walls: true 1107 / 1075, none taken off; false 25 / 14, 4 / 2 of them. Scanned
# with the neighbour whose mix fits best, true white tiles beside another colour (690 / 678) taken off: none at 0.6
# within 6; 3 / 3 at 0.5; 8 / 27 within 8 (false: 4 / 2, 4 / 3, 9 / 5).
HALO = (1.3, 6.0, 0.6)
# Tiles never overlap. Between two touching tiles of one colour a core is as full as on either (a white tile's middle
# reads as no tile over the pale rosette), so a tile taken there can leave a crescent of each that fills a core too:
# three tiles found on two, closer together than tiles lie. Where a tile found on a display lies within OVERLAP[0]
# tile sides of another of its colour, the display's pixels of that colour are explained by the tiles of it found and
# by them less that one, each explanation fitted jointly (_fit: each tile a disc of OVERLAP[1] sides, about a tile's
# area, moved to explain the most pixels the others leave, less its overlap with them); where the fewer explain them
# as well, within OVERLAP[2] tile areas, that tile is a doubt. Displays with tiles of a colour within 0.9 sides of
# one another, tuning seeds 0-31, colored and gray walls: white (34 displays) the fit without the closest one worse
# by -0.10 to -0.02 tile areas where it was a tile too many (5, 4 of them left for the capacity to take off), by 0.21
# and up where none was (29); the other colours (34) by 0.02 (a red tile too many), 0.24 and up. Check seeds 100-131:
# white (31) too many -0.02 to 0.09 (5, 4 for the capacity), 0.12, 0.34, none 0.19 and up; the other colours (35)
# too many 0.06-0.33 (5, all for the capacity), none 0.28 and up. Regions right the same on the tuning seeds for
# OVERLAP[2] 0.0-0.2.
OVERLAP = (0.9, 0.56, 0.1)
# ... and a tile no fuller than FULL (seen by its shape alone, a doubt taken for a tile) within OVERLAP_WEAK sides of
# another of its colour: a tile's halo or shadow, seen by its shape and voting its colour, lies about a side from it
# (tuning seed 30 frame 1 display 5, check seed 103 gray frame 2 display 7: a yellow tile too many 0.93 and 1.03
# sides from one). Such tiles 0.9-1.1 sides from one of their colour, tuning and check seeds, colored and gray
# walls: 61, 5 taken off, 2 counts changed (both right now). Every tile within 1.1 sides: the same counts at 8 times
# the fits (+3 % of counting's instructions).
OVERLAP_WEAK = 1.1
# Two touching tiles of one colour seen as one: picked between them (their pixels fill a core there as well as on
# either), a tile's explained disc takes most of both and leaves a crescent of each, too thin to fill a core, on either
# side of it. A blue, yellow or red tile found on a display is two, half a side either way along an axis through it,
# where on both sides of it along that axis (a box TOUCHING[0] to TOUCHING[1] tile sides from its middle and within
# half a side of the axis; on a diagonal, the quarter's square as far) what changed beyond every tile found covers
# TOUCHING[2] tile areas or more, and what of that reads its colour TOUCHING[3]. Not black (a tile's shadow beside it
# reads black) nor white (lit bevels read white). Tuning seeds 0-31 / check seeds 100-131, colored and gray walls,
# seed 4's clipped lamp aside: tiles with both crescents over 0.35 and 0.02, 4 / 1 of touching pairs, none a lone
# tile (white too: one lone tile).
TOUCHING = (0.3, 1.4, 0.35, 0.02)
TOUCHING_COLOURS = tuple(COLOURS.index(c) for c in ("blue", "yellow", "red"))
# A tile's motif is inside its top, but a motif whose colour no class holds (the bright black tile's teal flower)
# reads as no class though it changed since the empty table: a core round it is a ring of the tile's colour broken
# by the hole, and the fullest cores lie off the tile's middle, over its side faces or a neighbour's (a white
# tile's, its white darkened, reads black): two black tiles found on one (tuning seed 132, 640x480, tilted 43
# degrees: its motif 0.1-0.2 tile areas). A patch that changed, reads as no class, has pixels of one class only
# beside it and covers MOTIF[0] to MOTIF[1] tile areas is that class. Regions right, tuning seeds 100-139 / check
# seeds 200-219, colored and gray walls, from 1561 / 774: patches up to 0.25 areas, 1565 / 773 (the speckle of
# patchy matte black tiles, a few pixels each, filled too: two touching black tiles read as one solid blob, one
# tile); from 0.05, 1565 / 774 (no region wrong that was right).
MOTIF = (0.05, 0.25)
# Under a lamp's strong glare a glossy tile's top mirrors it: a black or blue tile gleams pale and reads as white,
# surely (recorded tuning games 862 and 889: a display's setup glare 50-60, black and blue tiles read white at
# 0.94). Where a region's glare is GLEAM_DOUBT or more and it holds a tile read white, the count of every other
# colour there, and the region's confidence (that every count is right), is no surer than GLEAM_TRUST: a move that
# takes from it may tell what it held. Displays so read in the first deal of 25 recorded tuning games (the first
# 30 s, on e6574ba): 69 readings of 73 wrong, 13 of them at a region confidence of 0.85 or more while every other
# colour was held at 0.6 (862's display 5, 2 white tiles for 1 and a black, at 0.95: the deal was made from it).
# White's own count keeps its confidence: there a black tile is often missed, not read white (801's display 5,
# 3 white tiles and a black read as the 3 whites, at 0.99), and held at 0.6 it cost 801 8 of its first 12 moves.
GLEAM_DOUBT, GLEAM_TRUST = 40.0, 0.6
# Under a glare of BLINDING_GLARE or more a region's every count is in doubt, white's and a colour read as none
# included, and no surer than GLEAM_TRUST: the lamp washes the tiles so pale that blue and black read alike and
# either may read as none at all. The first 20 s of 25 recorded tuning games with a lamp (on 8007dbf; regions in
# view, neither flagged nor truly covered): displays read under a glare of 80 or more, 236 of 495 wrong, the centre
# 121 of 123 (recorded tuning game 877: its centre's 2 blue tiles read black, blue as none at 0.999, every move
# waited on it); a colour read as none at 0.9 or more was there after all 309 times in 2,007, against 115 in
# 111,398 under less glare.
BLINDING_GLARE = 80.0
ERASE = 0.65  # radius explained by a tile found, in tile sides (between its inscribed and outer circles)
DISPLAY_GLARE_COST = 0.01  # mean log-likelihood a unit of glare must buy per changed pixel (none unless asked)
GLARE_PIXELS = 400  # at most as many changed pixels as the centre's glare is fitted to
# The centre's glare is fitted to the changed pixels whose 3x3 neighbours changed too (GLARE_INNER: a tile's top,
# not the blurred halo round it nor its edges, mixtures of tile and table that no glare makes tile-like), by how
# well the upper quartile of them fits a tile colour (GLARE_QUANTILE; motifs and side faces fit none at any glare).
# Regions right, tuning seeds 0-31 / check seeds 100-131, before TABLE_FACE: 1199 / 1245 with all of them and the
# mean; the mean of the inner ones 1201 / 1245 (5x5: 1201 / 1246); the quartile of all 1200 / 1247; both 1205 / 1245
# (5x5: 1205 / 1246, 7x7: 1203 / 1246; the median 1201 / 1244, the 90th percentile 1203 / 1243).
GLARE_INNER, GLARE_QUANTILE = 3, 75
WHITE, BLACK = COLOURS.index("white"), COLOURS.index("black")
MARKER_INDEX = TILE_CLASSES.index("first_player")


def circle_grid(center, radius: float, size: int) -> tuple[np.ndarray, np.ndarray]:
    """(1, size, size, 2) image coordinates over a circle's bounding square, and the inside mask."""
    steps = ((np.arange(size) + 0.5) / size) * 2 - 1
    gx, gy = np.meshgrid(steps, steps)
    grid = np.stack([center[0] + gx * radius, center[1] + gy * radius], -1)
    inside = (gx ** 2 + gy ** 2) <= 0.84 ** 2  # keep off the orange rim (yellow-like) and the table beyond
    return grid[None], inside


def polygon_grid(polygon, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """(1, S, S, 2) image coordinates over a polygon's bounding square at `scale` canonical px per image px."""
    pts = np.asarray(polygon, np.float64)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    side = float(max(hi - lo))
    size = int(np.clip(round(side * scale), 8, 256))
    steps = (np.arange(size) + 0.5) / size * side
    gx, gy = np.meshgrid(lo[0] + steps, lo[1] + steps)
    grid = np.stack([gx, gy], -1)
    canon = ((pts - lo) / side * size).astype(np.float32)
    mask = np.zeros((size, size), np.uint8)
    cv2.fillPoly(mask, [np.round(canon * 16).astype(np.int32)], 1, cv2.LINE_8, 4)
    return grid[None], mask.astype(bool)


@dataclass
class RegionCount:
    counts: dict[str, int]
    confidence: float  # probability that every count is exactly right
    count_confidence: dict[str, float]  # per colour
    first_player: bool
    first_player_p: float
    glare: float  # share of the region's pixels clipped by a reflection: what lies under them is unknown
    unexplained: float = 0.0  # share changed since the empty table but far from every tile found (a hand, a cup)
    lamp: float = 0.0  # the lamp's reflection read over the region (8-bit additive grey, RegionCounter.glare)


@dataclass
class Tile:
    region: int
    colour: int  # index in TILE_CLASSES
    y: int
    x: int
    fill: float  # share of its core of its colour
    face: float = 0.0  # share of its whole inscribed disc of its colour (set once tiles share out places)


class RegionCounter:
    """Counts N same-sized regions at once (all factory displays: one remap, one colour conversion, one core
    filter per colour over the stacked grids). `tile_side` is a tile's side in canonical pixels (None: from the
    set's proportions), shared by the regions."""

    def __init__(self, grid: np.ndarray, inside: np.ndarray, frame_size, tile_side: float | None = None,
                 table_lab: np.ndarray | None = None, allow_marker: bool = False, capacity: int = 4) -> None:
        self.sampler = PatchSampler(grid, frame_size)
        self.regions, self.size = grid.shape[0], grid.shape[1]
        self.inside = np.broadcast_to(inside, grid.shape[:3]).copy()
        self._area = self.inside.sum(axis=(1, 2))  # pixels judged per region
        self.table_lab = table_lab if table_lab is not None else np.zeros((0, 3), np.float32)
        self.allow_marker = allow_marker
        self.tile_side = float(tile_side) if tile_side else self.expected_tile_side
        self.capacity = capacity  # most tiles the region can hold (a display: 4)
        self.empty: EmptyReference | None = None
        self.print_gain: np.ndarray | None = None
        self.glare = np.zeros(self.regions, np.float32)  # the lamp's reflection over each region (additive grey)
        self._cream: np.ndarray | None = None
        self._lut: np.ndarray | None = None
        self._lut_key: tuple | None = None
        self._mean: np.ndarray | None = None  # the regions averaged while they stay the same
        # Frames running each region's steady average has held (0: a region new to it on the last frame).
        self.steady_frames = np.zeros(self.regions, int)
        self._glare_ceiling: float | None = None  # the most glare the centre's tiles may be read under (set_empty)
        self._table_glare = math.inf  # the glare the bare table's own darkest channel bounds the centre's by
        self._table_colour: int | None = None  # the colour the bare table reads as, in the centre (TABLE_FACE)

    def set_empty(self, bgr: np.ndarray, print_gain: np.ndarray | None = None,
                  glare: np.ndarray | None = None, displays_glare: float = 0.0) -> None:
        """The regions' (N, G, G, 3) BGR grids on the empty table, sampled like any frame; `print_gain` (N, 3)
        or (3,) brings each region to the light the print was measured in (None: a display's own cream card, the
        ring between its rosette and its rim, less the lamp's `glare` over it (N,); not for the centre, which
        has none, and is told instead the most glare a display round it showed, `displays_glare`)."""
        smooth = self._smooth(bgr)
        self.empty = EmptyReference(to_lab(smooth))
        self.glare = np.zeros(self.regions, np.float32) if glare is None else np.asarray(glare, np.float32)
        if print_gain is None and not self.allow_marker:
            self._cream = np.median(smooth[:, ring_mask(self.size, 0.66, 0.84)].astype(np.float32), axis=1)
            print_gain = _cream_gain(self._cream, self.glare[:, None])
        if print_gain is not None:
            self.print_gain = np.broadcast_to(np.asarray(print_gain, np.float32), (self.regions, 3)).copy()
        # A region lit by another's card (the centre) and told no glare reads the lamp's reflection over it from
        # its own tiles, each new view, believed up to half the bare table's darkest channel (a display's, up to
        # half its card's), or up to the most a display round it showed: under the same lamp, a dark table's half
        # bounds it too low. Recorded tuning game 749 (green felt, glare 0.87, bright glossy tiles, ceiling 33,
        # displays' glare up to 110): the first move's red tile in the centre, washed pink by the lamp, read as the
        # marker and the centre as one white tile at confidence 0.9-0.92 for 13 frames.
        self._glare_ceiling, self._table_glare = None, math.inf
        if print_gain is not None and glare is None:
            bare = np.median(smooth[self.inside].astype(np.float32), axis=0)
            self._table_glare = 0.5 * float(bare.min())
            self._glare_ceiling = max(self._table_glare, float(displays_glare))
            _print_fit(self._classes())  # built now, not on the first frame
        self._table_colour = None
        if self.allow_marker and self.print_gain is not None:
            self._table_colour = self._bare_colour(smooth)

    def _bare_colour(self, smooth: np.ndarray) -> int | None:
        """The tile colour (COLOURS index) that most of the bare regions' `smooth` (N, G, G, 3) BGR reads as in
        the print's light, if one does."""
        lit = np.clip(smooth * self.print_gain[:, None, None, :], 0, 255).astype(np.uint8)[self.inside] >> 3
        labels = self._print_table()[_table_index(lit)]
        shares = np.bincount(labels + 1, minlength=self._classes() + 1)[1:] / max(len(labels), 1)
        colour = int(np.argmax(shares))
        return colour if shares[colour] >= 0.5 and colour < len(COLOURS) else None

    def _print_table(self) -> np.ndarray:
        """The label table for colours in the print's light (_print_lut), kept as self._lut."""
        key = ("print", self._classes())
        if self._lut_key != key:
            top = CENTRE_BLACK_TOP if self.allow_marker else BLACK_TOP
            self._lut, self._lut_key = _print_lut(self._classes(), top), key
        return self._lut

    def find_glare(self, setup_bgr: np.ndarray) -> np.ndarray:
        """(N,) the lamp's reflection over each display as an additive grey (8-bit, setup light), from the
        displays at setup (`setup_bgr` as `sample` gives it, after set_empty): the amount that best explains what
        changed since the empty table as tiles. A reflection whitens card and tiles alike, so without it blue
        tiles read white and black ones grey (tuning seed 4: displays under the lamp read 2 of 4 tiles right)."""
        changed = ~self.empty.unchanged(to_lab(setup_bgr)) & self.inside
        glare = np.zeros(self.regions, np.float32)
        for r in range(self.regions):
            pixels = setup_bgr[r][changed[r]].astype(np.float32)
            if len(pixels) < self.tile_side ** 2:
                continue  # no tile to judge by
            steps = GLARE_STEPS[GLARE_STEPS < 0.5 * self._cream[r].min()][:, None, None]
            lit = np.clip((pixels - steps * (1 + GLEAM)) * _cream_gain(self._cream[r], steps), 0, 255)
            fit = PRINT_LIT.log_likelihood(to_lab(lit.astype(np.uint8)).reshape(-1, 3))[:, :len(COLOURS)]
            fit = np.maximum(fit.max(axis=1), -30.0).reshape(len(steps), -1).mean(axis=1)
            glare[r] = steps[int(np.argmax(fit - DISPLAY_GLARE_COST * steps[:, 0, 0])), 0, 0]
        return glare

    def _glare_from_tiles(self, patches: np.ndarray, gain: np.ndarray | None, changed: np.ndarray) -> None:
        """The centre's glare (see set_empty), as find_glare's for a display at setup, from a subsample of what
        changed since the empty table (GLARE_INNER, GLARE_QUANTILE), in a new view with two tiles' worth of it;
        else the last stands (the lamp stays put). The fit is read from a table, as the labels are."""
        if self._glare_ceiling is None or self.steady_frames.all():
            return
        inner = cv2.erode(changed[0].view(np.uint8), np.ones((GLARE_INNER, GLARE_INNER), np.uint8))
        pixels = patches[0][inner.view(bool)]
        if len(pixels) < 2 * self.tile_side ** 2:
            return
        pixels = pixels[:: -(-len(pixels) // GLARE_PIXELS)].astype(np.float32)
        if gain is not None:
            pixels *= np.asarray(gain, np.float32)
        steps = GLARE_STEPS[GLARE_STEPS < self._glare_ceiling][:, None, None]
        lit = np.clip((pixels - steps * (1 + GLEAM)) * self.print_gain[0], 0, 255).astype(np.uint8) >> 3
        fit = _print_fit(self._classes())[_table_index(lit)]
        k = (fit.shape[1] - 1) * GLARE_QUANTILE // 100  # the quantile's pixel, as np.percentile's "lower"
        fit = np.partition(fit, k, axis=1)[:, k]
        self.glare[0] = steps[int(np.argmax(fit - DISPLAY_GLARE_COST * steps[:, 0, 0])), 0, 0]

    def sample(self, frame: np.ndarray) -> np.ndarray:
        """(N, G, G, 3) BGR, median-filtered: the motifs' thin strokes and the sensor noise off the colours."""
        return self._smooth(self.sampler.sample(frame))

    def _smooth(self, patches: np.ndarray) -> np.ndarray:
        strip = cv2.medianBlur(np.ascontiguousarray(patches).reshape(self.regions * self.size, self.size, 3), 3)
        return strip.reshape(patches.shape)

    def classify(self, frame: np.ndarray, model: ColourModel, gain: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """Per canonical pixel: class index (TILE_CLASSES; background = -1), (N, G, G), and its Lab."""
        patches = self.sample(frame)
        lab = to_lab(patches, gain)
        label = _classify_lab(lab.reshape(-1, 3), model, self._background(model), self._classes())
        label = label.reshape(self.inside.shape)
        label[~self.inside] = -1
        if self.empty is not None:
            label[self.empty.unchanged(lab)] = -1
        return label, lab

    def classify_fast(self, frame: np.ndarray, model: ColourModel, gain: np.ndarray | None
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None, np.ndarray | None]:
        """As classify, through a colour lookup table (32 levels per BGR channel) rebuilt only when the model
        or the light changes: the per-pixel Gaussian scores cost more than the whole rest of a frame. Also
        each region's share of clipped pixels (glare) and, with the empty table known, what changed since and
        the frame's lightness (L*, setup light) and its L*a*b*, pixel by pixel."""
        patches = self._steady(self.sample(frame))
        changed = lab = None
        if self.empty is not None:
            lab = to_lab(patches, gain)
            changed = ~self.empty.unchanged(lab) & self.inside
            self._glare_from_tiles(patches, gain, changed)
        # The light's gain wobbles a little frame to frame; steps of 4 % keep the table from being rebuilt each
        # frame (a rebuild costs about two frames) while staying well inside the colour classes' spread.
        levels = np.arange(256, dtype=np.float32)[None, :, None]
        if self.print_gain is not None:
            # In the print's light: each region's own gain (setup light -> print light) times the frame's (this
            # light -> setup light); one fixed table then serves every lamp.
            self._print_table()
            # Per region, each channel's 256 values through the gains, as each pixel's would be.
            lit = np.repeat(levels, 3, axis=2)
            if gain is not None:
                lit = lit * np.asarray(gain, np.float32)
            lit = lit - (self.glare * (1 + GLEAM))[:, None, None]
            lit *= self.print_gain[:, None, :]
            q = np.clip(lit, 0, 255, out=lit).astype(np.uint8) >> 3
        else:
            step = None if gain is None else np.round(np.asarray(gain) * 25) / 25
            key = (id(model), model.means.tobytes(), None if step is None else tuple(step))
            if self._lut_key != key:
                self._lut = _lut(model, self._background(model), self._classes(), step)
                self._lut_key = key
            q = np.repeat(levels.astype(np.uint8) >> 3, 3, axis=2)
        # Each channel's level to its bits of the table's index (b << 10 | g << 5 | r), pixel by pixel through
        # OpenCV's lookup, region by region; the three summed.
        tables = q.astype(np.int16) << np.array([10, 5, 0], np.int16)
        if not self.allow_marker or self.glare[0] > self._table_glare:
            # A channel clipped (GLARE_LEVEL) is read as bright as the table goes: the lamp's glare over a display
            # pushes a light blue tile's blue channel past the sensor's top, and what is left of it read as white
            # or black (tuning seed 16, classic tiles, glare 0.44: 3 of 4 blue tiles on a display read black).
            # Regions right, tuning seeds 0-31 colored / gray walls, check seeds 100-131 colored / gray: 1208 /
            # 1198, 1254 / 1245 before; 1211 / 1207, 1254 / 1248 (channels from 240 / 245 / 254 on the tuning
            # seeds: 1207 / 1204, 1208 / 1208, 1209 / 1202); in the centre too 1209 / 1206, 1254 / 1247, where
            # under cool lamps white tiles' clipped blue read blue. In the centre only under more glare than the bare
            # table bounds it by (the displays' glare, set_empty): recorded tuning game 749's pale yellow tiles,
            # their red and green clipped, lost as much as the rest to the glare and read as no colour (static
            # renders of its look, 8 placements: yellow 1, red 1, white 2 read right 1 -> 8, one read without the
            # yellow at 0.91 before; yellow 2, red 2, black 1: 0 -> 8).
            tables[:, GLARE_LEVEL:] = _TOP_LEVELS
        index = np.empty(patches.shape, np.int16)
        for r in range(self.regions):
            index[r] = cv2.LUT(patches[r], tables[min(r, len(tables) - 1)].reshape(256, 1, 3))
        index = cv2.transform(index.reshape(1, -1, 3), _CHANNEL_SUM).reshape(self.inside.shape)
        label = self._lut[index]
        label[~self.inside] = -1
        if self.empty is not None:
            changed |= (label == WHITE) & ~self.empty.unchanged(lab, white=True)
            label[~changed | self.empty.shadowed(lab)] = -1
        # Clipped: every channel at GLARE_LEVEL or above (one OpenCV pass; a numpy min over 3 channels is slow).
        clipped = cv2.inRange(patches.reshape(1, -1, 3), (GLARE_LEVEL,) * 3, (255,) * 3).reshape(self.inside.shape)
        clipped = (clipped > 0) & self.inside
        return label, clipped.sum(axis=(1, 2)) / self._area, changed, None if lab is None else lab[..., 0], lab

    def _steady(self, patches: np.ndarray) -> np.ndarray:
        """The regions averaged over the frames they have stayed the same (a video of a still table): sensor
        noise and compression, frame to frame, decide a tile's colour less. A region where more than a few
        pixels changed clearly starts again from this frame."""
        now = patches.astype(np.float32)
        if self._mean is None or self._mean.shape != now.shape:
            self._mean = now
            self.steady_frames = np.zeros(len(now), int)
            return patches
        # A pixel changed if any channel moved by more than STEADY_CHANGE: all within it is one OpenCV pass.
        moved = cv2.absdiff(now.reshape(1, -1, 3), self._mean.reshape(1, -1, 3))
        still = cv2.inRange(moved, (0,) * 3, (STEADY_CHANGE,) * 3).reshape(len(now), -1)
        changed = (still.shape[1] - np.count_nonzero(still, axis=1)) / still.shape[1] > STEADY_SHARE
        self.steady_frames = np.where(changed, 0, self.steady_frames + 1)  # a new view: the average starts again
        step = now - self._mean
        step *= STEADY_RATE
        self._mean += step
        self._mean[changed] = now[changed]
        # Rounded half to even, as np.rint, in one OpenCV pass (the mean of 8-bit frames stays within 0..255).
        return cv2.convertScaleAbs(self._mean.reshape(-1, now.shape[-2], 3)).reshape(patches.shape)

    def _classes(self) -> int:
        return len(TILE_CLASSES) if self.allow_marker else len(COLOURS)

    def _background(self, model: ColourModel) -> np.ndarray:
        # A tile's side faces and its shadow are its colour darkened: without them as "not a tile" they read
        # as black round every tile. Black's own are left out (its shadow is black enough already).
        shades = model.means[: len(COLOURS)].copy()
        shades = shades[[i for i, c in enumerate(COLOURS) if c != "black"]]
        shades *= SIDE_SHADE
        parts = [shades, self.table_lab.astype(np.float32)]
        if self.empty is None:  # the empty capture says where the disc's print is, pixel by pixel
            parts.append(model.background)
        return np.concatenate(parts, axis=0)

    @property
    def expected_tile_side(self) -> float:
        """A tile's side on a display's canonical grid from the set's proportions: a tile is 0.554 of a
        display's radius wide (0.072 vs 0.13 board widths, BOARD-GEOMETRY.md)."""
        return 0.554 * self.size / 2

    def find_tiles(self, label: np.ndarray) -> list[Tile]:
        """Every tile in the regions, colour by colour: the place whose core is fullest is a tile if the core is
        FULL; its pixels are then explained (erased) and the next fullest place is tried. `doubts` keeps, per
        region and class, the fullest core that fell short (a tile half hidden, or a big stain)."""
        core, core_pixels = _core(self.tile_side), _core_pixels(self.tile_side)
        g, gap = self.size, core.shape[0] // 2  # regions stacked with a gap, so no core straddles two
        classes = self._classes()
        tiles = []
        self.doubts = np.zeros((self.regions, classes))
        self.doubt_places: list[Tile] = []  # the doubts found place by place (not those of regions left whole)
        pixels = np.bincount((np.arange(self.regions)[:, None, None] * (classes + 1) + label + 1).ravel(),
                             minlength=self.regions * (classes + 1)).reshape(self.regions, classes + 1)[:, 1:]
        # Fewer pixels of a colour than a doubt's cannot fill a core to one anywhere: such regions are left out.
        colours, regions = np.nonzero((pixels >= _doubt_pixels(self.tile_side)).T)  # colour by colour
        if not len(regions):
            return []
        # First pass over every such region and colour at once (one filter: its cost is mostly per call); only
        # regions with a core anywhere near full are then taken apart tile by tile.
        hit = label[regions] == colours[:, None, None]
        strip = np.zeros((len(regions), g + gap, g), np.float32)
        strip[:, :g] = hit
        filled = _filter(strip.reshape(-1, g), core).reshape(strip.shape)[:, :g]
        peak = filled.max(axis=(1, 2)) / core_pixels
        # Where no core is even a sure doubt the fullest is only a doubt (a tile half hidden, a big stain): no need
        # to take the region apart.
        doubt = (peak >= FULL - DOUBT) & (peak < FULL)
        self.doubts[regions[doubt], colours[doubt]] = peak[doubt]
        for i in np.flatnonzero(peak >= SURE_DOUBT):
            x, y, w, h = cv2.boundingRect(hit[i].view(np.uint8))
            r, c = int(regions[i]), int(colours[i])
            tiles += self._explain(strip[i, :g], (y, x, y + h, x + w), r, c, int(pixels[r, c]))
        return self._one_tile_per_place(tiles, label)

    def _one_tile_per_place(self, tiles: list[Tile], label: np.ndarray) -> list[Tile]:
        """Tiles of two colours found in one place are one tile and its motif (a white tile's dark snowflake
        reads as a black tile at its middle): the one whose colour fills more of the whole tile stays, the other
        is a doubt. Tuning seeds 0-7 at 720p: regions right 296 -> 301 of 320."""
        disc = _stamp(0.5 * self.tile_side)
        area = np.count_nonzero(disc)
        for t in tiles:
            t.face = _own_pixels(label, t, disc) / area
        if self.allow_marker:  # in the centre, a tile too is a square face (FACE, TABLE_FACE)
            for t in [t for t in tiles if t.colour < len(COLOURS)
                      and t.face < (TABLE_FACE if t.colour == self._table_colour else FACE)]:
                tiles.remove(t)
                self.doubts[t.region, t.colour] = max(self.doubts[t.region, t.colour], t.fill)
            reach = (CENTRE_BLACK_SIDE[1] * self.tile_side) ** 2
            for t in [t for t in tiles if t.colour == BLACK and t.face < CENTRE_BLACK_SIDE[0]]:
                if any(o.colour < len(COLOURS) and o.face > t.face and (o.y - t.y) ** 2 + (o.x - t.x) ** 2 < reach
                       for o in tiles):
                    tiles.remove(t)
                    self.doubts[t.region, t.colour] = max(self.doubts[t.region, t.colour], t.fill)
        if not self.allow_marker:  # a white tile's side face is no black tile (WHITE_SIDE), a tile's edge no white one
            self._doubt_beside(tiles, BLACK, WHITE_SIDE[0], [t for t in tiles if t.colour == WHITE], WHITE_SIDE[1])
            coloured = [t for t in tiles if t.colour not in (WHITE, BLACK)]
            self._doubt_beside(tiles, WHITE, FAINT_WHITE[0], coloured, WHITE_BESIDE)
        kept: list[Tile] = []
        for t in sorted(tiles, key=lambda t: t.face, reverse=True):
            if any(k.region == t.region and k.colour != t.colour
                   and (k.y - t.y) ** 2 + (k.x - t.x) ** 2 < (SAME_PLACE * self.tile_side) ** 2 for k in kept):
                self.doubts[t.region, t.colour] = max(self.doubts[t.region, t.colour], t.fill)
            else:
                kept.append(t)
        return kept

    def _doubt_beside(self, tiles: list[Tile], colour: int, face: float, others: list[Tile], sides: float) -> None:
        """Takes off `tiles` those of `colour` whose face fills under `face` of their disc within `sides` tile sides of
        one of `others` in their region: doubts, not tiles."""
        reach = (sides * self.tile_side) ** 2
        for t in [t for t in tiles if t.colour == colour and t.face < face]:
            if any(o.region == t.region and (o.y - t.y) ** 2 + (o.x - t.x) ** 2 < reach for o in others):
                tiles.remove(t)
                self.doubts[t.region, t.colour] = max(self.doubts[t.region, t.colour], t.fill)

    def _explain(self, mask: np.ndarray, bounds: tuple[int, int, int, int], r: int, c: int,
                 pixels: int) -> list[Tile]:
        """The tiles of class `c` in region `r`'s (G, G) 0/1 mask of that class (its `pixels` within `bounds`,
        top, left, bottom, right), fullest first (erases `mask`). Filters count whole pixels, so sums are exact:
        after a tile's pixels are erased only the window they reach is filtered again, and ties fall alike
        anywhere. A place's core is counted only where it is picked: a filter of the cores after every erase cost
        as much as the score's, for one value read."""
        core, both, erase = _core(self.tile_side), _core_and_whole(self.tile_side), _stamp(ERASE * self.tile_side)
        core_pixels = _core_pixels(self.tile_side)
        least = (FULL - DOUBT) * core_pixels  # a core with fewer pixels of the colour is not even a doubt
        kb, e = both.shape[0] // 2, erase.shape[0] // 2
        # Only the box round this colour's pixels (and a disc's reach beyond) can hold its tiles.
        top, left = max(0, bounds[0] - kb), max(0, bounds[1] - kb)
        bottom, right = bounds[2] + kb, bounds[3] + kb
        box = mask[top:bottom, left:right]
        score = _filter(box, both)
        # Picked between two touching tiles, a tile's erased disc takes most of both and leaves two crescents: one
        # tile, or three. The ring is weighed once, on the pixels before any is explained, and on the displays
        # only: in the centre it changed as many counts for the worse as for the better (tuning seeds 0-31 and
        # check seeds 100-131: centres wrong 31 -> 30 and 18 -> 19) at twice the displays' cost (larger boxes).
        surround = None
        if pixels >= SURROUND_AREA * self.tile_side ** 2 and not self.allow_marker:
            surround = _surround(box, self.tile_side)
            score -= surround
        h, w = box.shape
        settle = c == WHITE and not self.allow_marker
        before = box.copy() if settle else None
        tiles: list[tuple[int, int, float]] = []  # (y, x, fill) in the box
        doubts: list[tuple[int, int, float]] = []
        while True:
            y, x = divmod(int(np.argmax(score)), w)
            best = _filtered_at(box, core, y, x) / core_pixels
            if best < FULL - DOUBT:
                break
            (tiles if best >= FULL else doubts).append((y, x, best))
            _erase(box, y, x, erase)
            # No core anywhere is even a doubt: nothing left to find. A core holds no more of the colour than is
            # left, so with too little left (most regions, once their tiles are explained) the refilter is spared.
            if cv2.countNonZero(box) < least:
                break
            _refilter(score, box, both, y, x, e + kb, surround)
        if settle:
            tiles, doubts = self._second_look(before, tiles, doubts)
        for y, x, f in doubts:
            self.doubts[r, c] = max(self.doubts[r, c], f)
            self.doubt_places.append(Tile(r, c, y + top, x + left, f))
        return [Tile(r, c, y + top, x + left, f) for y, x, f in tiles]

    def _second_look(self, mask: np.ndarray, tiles: list, doubts: list) -> tuple[list, list]:
        """White tiles and doubts (y, x, fill) in a display's white `mask` (before any was erased), looked at
        again. A white tile's middle and motif read as no tile over the pale rosette, so between two touching
        white tiles a core is as full as on either: a tile taken there erases much of its neighbour, which is left
        a doubt. With the doubt as a tile too, each moves in turn to where its core and disc are fullest once the
        others' pixels are explained (a few rounds, as k-means does); if every core is then FULL and the doubt's
        disc shows a face (FACE), the doubt was a tile."""
        for d in sorted((d for d in doubts if d[2] >= SURE_DOUBT), key=lambda d: -d[2]):
            if not tiles or len(tiles) >= self.capacity or all(
                    (t[0] - d[0]) ** 2 + (t[1] - d[1]) ** 2 >= (SETTLE_REACH * self.tile_side) ** 2 for t in tiles):
                continue  # alone, a doubt is judged by what changed there (_sure_doubts)
            places, face = _settle(mask, [t[:2] for t in tiles] + [d[:2]], self.tile_side)
            if min(f for _, _, f in places) >= FULL and face >= FACE:
                doubts = [o for o in doubts if o is not d]
                tiles = places
        return tiles, doubts

    def count(self, frame: np.ndarray, model: ColourModel, gain: np.ndarray | None) -> list[RegionCount]:
        return self.count_labels(*self.classify_fast(frame, model, gain))

    def _print_showing(self, found: list[Tile], lightness: np.ndarray, read: np.ndarray) -> list[Tile]:
        """The tiles found less the faint ones on a display, but black ones, under which the print still shows
        (PRINT_SHOWING); those are doubts. Faint by the pixels `read` as their colour, motifs (_motifs) aside: a
        patch of the print that changed, a hole in a crescent of the print's colour, is no motif of a tile."""
        disc = _stamp(0.5 * self.tile_side)
        area = np.count_nonzero(disc)
        kept = []
        for t in found:
            if t.colour != BLACK and _own_pixels(read, t, disc) < PRINT_SHOWING[0] * area:
                now = _under(lightness[t.region], t.y, t.x, disc)
                then = _under(self.empty.lightness[t.region], t.y, t.x, disc)
                if _correlation(now, then) > PRINT_SHOWING[1]:
                    self.doubts[t.region, t.colour] = max(self.doubts[t.region, t.colour], t.fill)
                    continue
            kept.append(t)
        return kept

    def _standing(self, found: list[Tile], lightness: np.ndarray) -> list[Tile]:
        """The tiles found less the white ones alone on a display that neither lighten the print under them nor
        darken the display beside them (STANDING); those are doubts."""
        alone = [t for t in found if t.colour == WHITE and all(
            o is t or o.region != t.region or (o.y - t.y) ** 2 + (o.x - t.x) ** 2 >= (STANDING[0] * self.tile_side) ** 2
            for o in found)]
        if not alone:
            return found
        eighths = _ring_eighths(self.tile_side)
        k = eighths.shape[0] // 2
        lighter = np.zeros((self.regions, self.size + 2 * k, self.size + 2 * k), np.float32)
        lighter[:, k:-k, k:-k] = lightness - self.empty.lightness
        seen = np.zeros(lighter.shape, bool)
        seen[:, k:-k, k:-k] = self.inside
        for t in alone:
            window = lighter[t.region, t.y:t.y + 2 * k + 1, t.x:t.x + 2 * k + 1]
            inside = seen[t.region, t.y:t.y + 2 * k + 1, t.x:t.x + 2 * k + 1]
            ring = (eighths >= 0) & inside
            sums = np.bincount(eighths[ring], window[ring], minlength=8)
            pixels = np.bincount(eighths[ring], minlength=8)
            darkest = float((sums[pixels >= 2] / pixels[pixels >= 2]).min(initial=0.0))
            if self._top_lighter(lightness, t.region, t.y, t.x) < STANDING[1] and darkest > -STANDING[4]:
                found = [o for o in found if o is not t]
                self.doubts[t.region, t.colour] = max(self.doubts[t.region, t.colour], t.fill)
        return found

    def _halos(self, found: list[Tile], label: np.ndarray, lab: np.ndarray) -> list[Tile]:
        """The tiles found less the white ones on a display that read as a mix of the print and a tile of another
        colour beside them (HALO); those are doubts. Each white pixel's nearest point on the line from the print
        under it to the tile's colour (the median of its disc's pixels of its colour), up to either end, must lie
        within HALO[1]. All pairs of a white tile and a tile beside it at once (numpy's cost is per call)."""
        reach = (HALO[0] * self.tile_side) ** 2
        pairs = [(t, o) for t in found if t.colour == WHITE for o in found if o.region == t.region
                 and o.colour not in (WHITE, MARKER_INDEX) and (o.y - t.y) ** 2 + (o.x - t.x) ** 2 < reach]
        if not pairs:
            return found
        # Every disc's pixels in one pick (flat indices: numpy's fastest), the white tiles' then their neighbours'; a
        # disc beyond the grid is clipped to its edge, which lies beyond the display (no tile class there).
        dy, dx = _disc_offsets(self.tile_side)
        tiles = np.array([(t.region, t.y, t.x, t.colour) for t in [t for t, _ in pairs] + [o for _, o in pairs]])
        pick = (tiles[:, :1] * self.size + np.clip(tiles[:, 1:2] + dy, 0, self.size - 1)) * self.size
        pick += np.clip(tiles[:, 2:3] + dx, 0, self.size - 1)
        own = np.take(label, pick) == tiles[:, 3:]
        colour = np.take(lab.reshape(-1, 3), pick, axis=0)
        white, theirs = own[:len(pairs)], own[len(pairs):]
        under = np.take(self.empty.colour.reshape(-1, 3), pick[:len(pairs)], axis=0)
        # Each neighbour's median colour: its own pixels sorted first (the others pushed to the end as infinite; a
        # tile found fills its disc with its colour in part). A neighbour with no pixel of its colour in its disc (a
        # black tile seen by its shape, read as the print in shadow) has no colour to mix: no halo of it.
        ordered = np.sort(np.where(theirs[..., None], colour[len(pairs):], np.inf), axis=1)
        coloured = theirs.any(axis=1)
        towards = np.take_along_axis(ordered, (theirs.sum(axis=1) // 2)[:, None, None], axis=1) - under
        towards[~coloured] = 0.0
        off = colour[:len(pairs)] - under
        along, length = np.einsum("pmc,pmc->pm", towards, off), np.einsum("pmc,pmc->pm", towards, towards)
        miss = off - np.clip(along / np.maximum(length, 1e-6), 0.0, 1.0)[..., None] * towards
        mixed = (np.einsum("pmc,pmc->pm", miss, miss) < HALO[1] ** 2) & white
        halo = (np.count_nonzero(mixed, axis=1) >= HALO[2] * np.count_nonzero(white, axis=1)) & coloured
        halos = {id(t) for (t, _), h in zip(pairs, halo) if h}
        for t in found:
            if id(t) in halos:
                self.doubts[t.region, t.colour] = max(self.doubts[t.region, t.colour], t.fill)
        return [t for t in found if id(t) not in halos]

    def _overlapping(self, found: list[Tile], label: np.ndarray) -> list[Tile]:
        """The tiles found less, per region and colour, a tile close to another of its colour that the others of
        it, fitted anew, explain its pixels as well without (OVERLAP, OVERLAP_WEAK); it is a doubt."""
        radius = OVERLAP[1] * self.tile_side

        def near(t: Tile, o: Tile) -> bool:  # whether t lies close enough to o to be weighed
            reach = OVERLAP_WEAK if t.fill <= FULL else OVERLAP[0]
            return o is not t and (o.y - t.y) ** 2 + (o.x - t.x) ** 2 < (reach * self.tile_side) ** 2

        alike: dict[tuple[int, int], list[Tile]] = {}
        for t in found:
            alike.setdefault((t.region, t.colour), []).append(t)
        for (r, c), mine in alike.items():
            if len(mine) < 2 or c >= len(COLOURS):
                continue
            close = [t for t in mine if any(near(t, o) for o in mine)]
            if not close:
                continue
            mask = (label[r] == c).astype(np.float32)
            fewer, t = min(((_fit(mask, [(o.y, o.x) for o in mine if o is not t], radius, self.tile_side), t)
                            for t in close), key=lambda pair: pair[0])
            # Every tile explains the pixels better by OVERLAP[2] or more where it does so as found (fitting never
            # does worse: that fit is then spared), or once fitted.
            better = fewer - OVERLAP[2] * self.tile_side ** 2
            every = [(o.y, o.x) for o in mine]
            if _fit(mask, every, radius, self.tile_side, 0) > better and _fit(mask, every, radius, self.tile_side) > better:
                found = [o for o in found if o is not t]
                self.doubts[r, c] = max(self.doubts[r, c], t.fill)
        return found

    def _touching(self, found: list[Tile], label: np.ndarray, left: np.ndarray) -> list[Tile]:
        """The tiles found, each blue, yellow or red one that is two touching tiles of its colour (TOUCHING) split in
        two, up to each region's capacity. `left`: what changed beyond every tile found by colour (_beyond, the regions
        stacked with a gap). Sums over boxes from integral images: every tile's at once."""
        tiles = np.bincount([t.region for t in found if t.colour < len(COLOURS)], minlength=self.regions)
        candidates = [t for t in found if t.colour in TOUCHING_COLOURS and tiles[t.region] < self.capacity]
        if not candidates:
            return found
        axes, boxes = _axis_boxes(self.tile_side)
        g, rows = self.size, left.shape[1]
        colours = sorted({t.colour for t in candidates})
        # (1 + colours, N (G + gap) + 1, G + 1): what changed, then what of it reads each colour, summed from the
        # corner; each box clipped to its region.
        moved, reads = left.astype(np.uint8), np.full(left.shape, -1, label.dtype)  # bytes: OpenCV sums them fastest
        reads[:, :g] = label
        sums = np.stack([cv2.integral(image.reshape(-1, g)) for image in
                         [moved] + [moved * (reads == c) for c in colours]])
        at = np.array([(t.region * rows, t.y, t.x, colours.index(t.colour) + 1) for t in candidates])
        y0, x0, y1, x1 = (np.clip(at[:, 1 + i % 2, None, None] + boxes[:, i], 0, g) for i in range(4))
        y0, y1 = y0 + at[:, :1, None], y1 + at[:, :1, None]
        image = np.stack([np.zeros(len(at), int), at[:, 3]], axis=1)[..., None]
        # (tiles, 2, axes): what changed and what of it reads the tile's colour, each axis's lesser half.
        half = (sums[image, y1, x1] - sums[image, y0, x1] - sums[image, y1, x0] + sums[image, y0, x0])
        half = half.reshape(len(at), 2, len(axes), 2).min(axis=3)
        a = half[:, 0].argmax(axis=1)
        best = half[np.arange(len(at)), :, a]
        split = (best >= np.array([TOUCHING[2], TOUCHING[3]]) * self.tile_side ** 2).all(axis=1)
        for t, (uy, ux), two in zip(candidates, axes[a], split):
            if two and tiles[t.region] < self.capacity:
                tiles[t.region] += 1
                step = 0.5 * self.tile_side * np.array([uy, ux])
                found = [o for o in found if o is not t] + [Tile(
                    t.region, t.colour, int(np.clip(round(t.y + way * step[0]), 0, g - 1)),
                    int(np.clip(round(t.x + way * step[1]), 0, g - 1)), t.fill, t.face) for way in (1, -1)]
        return found

    def _top_lighter(self, lightness: np.ndarray, r: int, y: int, x: int) -> float:
        """How much lighter (L*) region `r`'s inscribed disc of a tile at (y, x) is on average than the empty
        table's (0 where none of it is seen)."""
        disc = _stamp(0.5 * self.tile_side)
        seen = _under(self.inside[r], y, x, disc)
        top = (_under(lightness[r], y, x, disc) - _under(self.empty.lightness[r], y, x, disc))[seen]
        return float(top.mean()) if len(top) else 0.0

    def _sure_doubts(self, found: list[Tile], changed: np.ndarray) -> list[Tile]:
        """The doubts, fullest first, that are tiles after all (SURE_DOUBT), up to each region's capacity."""
        disc = _stamp(0.5 * self.tile_side)
        half = disc.shape[0] // 2
        padded = np.zeros((self.regions, self.size + 2 * half, self.size + 2 * half), bool)
        padded[:, half:-half, half:-half] = changed
        tiles = list(found)
        for d in sorted(self.doubt_places, key=lambda t: -t.fill):
            mine = [t for t in tiles if t.region == d.region]
            if (d.fill < SURE_DOUBT or d.colour >= len(COLOURS)
                    or sum(t.colour < len(COLOURS) for t in mine) >= self.capacity
                    or any((t.y - d.y) ** 2 + (t.x - d.x) ** 2 < (APART * self.tile_side) ** 2 for t in mine)):
                continue
            window = padded[d.region, d.y:d.y + 2 * half + 1, d.x:d.x + 2 * half + 1]
            if np.count_nonzero(window[disc]) >= CHANGED_SHARE * np.count_nonzero(disc):
                tiles.append(d)
        return tiles[len(found):]

    def _changed_enough(self, found: list[Tile], changed: np.ndarray) -> list[Tile]:
        """The tiles found where the square round their core changed since the empty table (TILE_CHANGED of
        it; in the centre white ones CENTRE_WHITE_CHANGED and the marker MARKER_CHANGED, on a display neither);
        the others are doubts."""
        spared = () if self.allow_marker else (WHITE, MARKER_INDEX)
        if all(t.colour in spared for t in found):
            return found
        square = _core_square(self.tile_side)
        g, gap = self.size, square // 2  # regions stacked with a gap, so no square straddles two
        strip = np.zeros((self.regions, g + gap, g), np.float32)
        strip[:, :g] = changed
        share = _box_sum(strip.reshape(-1, g), square).reshape(strip.shape)
        kept = []
        for t in found:
            least = {WHITE: CENTRE_WHITE_CHANGED, MARKER_INDEX: MARKER_CHANGED}.get(t.colour, TILE_CHANGED) * square ** 2
            if t.colour in spared or share[t.region, t.y, t.x] >= least:
                kept.append(t)
            else:
                self.doubts[t.region, t.colour] = max(self.doubts[t.region, t.colour], t.fill)
        return kept

    def _beyond(self, found: list[Tile], changed: np.ndarray) -> np.ndarray:
        """(N, G + gap, G) float32, the regions stacked with a gap (no core straddles two): what changed since the
        empty table beyond every tile found (their ERASE discs)."""
        g, gap, erase = self.size, _stamp(0.5 * self.tile_side).shape[0] // 2, _stamp(ERASE * self.tile_side)
        left = np.zeros((self.regions, g + gap, g), np.float32)
        left[:, :g] = changed & self.inside
        for t in found:
            _erase(left[t.region, :g], t.y, t.x, erase)
        return left

    def _unseen_tiles(self, found: list[Tile], label: np.ndarray, left: np.ndarray,
                      lightness: np.ndarray | None) -> list[Tile]:
        """Tiles seen by their shape alone (UNSEEN_SHARE), fullest first, up to each region's capacity: where a
        tile's core and the square round it changed since the empty table beyond every tile found, its colour
        the one most of its disc reads as, but not white where the disc is darker than the empty display's
        (UNSEEN_WHITE); then black ones beside the tiles found (_unseen_black). Their fill is FULL: even odds, as
        their colour is. `left`: what changed beyond every tile found (_beyond); those found here are erased from it."""
        core, disc, erase = _core(self.tile_side), _stamp(0.5 * self.tile_side), _stamp(ERASE * self.tile_side)
        square = _core_square(self.tile_side)
        least = UNSEEN_SHARE * np.array([_core_pixels(self.tile_side), square ** 2], np.float32)

        def full(image: np.ndarray) -> np.ndarray:  # how many times over each place is full enough, at worst
            return np.minimum(_filter(image, core) / least[0], _box_sum(image, square) / least[1])

        g = self.size
        tiles = []
        for r in np.flatnonzero((full(left.reshape(-1, g)).reshape(left.shape) >= 1.0).any(axis=(1, 2))):
            room = self.capacity - sum(t.region == r and t.colour < len(COLOURS) for t in found)
            mine, votes_of = left[r, :g], _disc_votes(label[r], disc)
            while room > 0:
                both = full(mine)
                y, x = divmod(int(np.argmax(both)), g)
                if both[y, x] < 1.0:
                    break
                _erase(mine, y, x, erase)
                votes = votes_of(y, x)
                colour = int(np.argmax(votes))
                if votes.max() < UNSEEN_VOTES * np.count_nonzero(disc):
                    if lightness is None or self._top_lighter(lightness, r, y, x) >= -UNSEEN_BLACK:
                        continue  # no colour reads there
                    colour = BLACK  # read as the print in shadow
                elif colour == WHITE and lightness is not None and self._top_lighter(lightness, r, y, x) < UNSEEN_WHITE:
                    continue  # a shadow over the pale print
                tiles.append(Tile(int(r), colour, y, x, FULL))
                room -= 1
        return tiles + self._unseen_black(found + tiles, label, left)

    def _unseen_black(self, found: list[Tile], label: np.ndarray, left: np.ndarray) -> list[Tile]:
        """Black tiles seen by their shape beside the tiles found (UNSEEN_BESIDE), up to each region's capacity:
        where a tile's core changed since the empty table (UNSEEN_SHARE of it) and the square round it over
        UNSEEN_SHARE of what the tiles found leave of it, and its disc reads black over UNSEEN_BESIDE[1] of it.
        `left` (N, G + gap, G): what changed beyond every tile found, regions stacked with a gap."""
        core, disc, erase = _core(self.tile_side), _stamp(0.5 * self.tile_side), _stamp(ERASE * self.tile_side)
        square = _core_square(self.tile_side)
        least = UNSEEN_SHARE * _core_pixels(self.tile_side)
        g = self.size

        # A place's square must have changed over UNSEEN_SHARE of UNSEEN_BESIDE[0] of itself at least: one box
        # filter over every region finds the few where the rest is worth weighing.
        some = _box_sum(left.reshape(-1, g), square).reshape(left.shape) >= UNSEEN_SHARE * UNSEEN_BESIDE[0] * square ** 2
        tiles = []
        for r in np.flatnonzero(some.any(axis=(1, 2))):
            room = self.capacity - sum(t.region == r and t.colour < len(COLOURS) for t in found)
            if room <= 0:
                continue
            mine, free = left[r, :g], self.inside[r].astype(np.float32)  # free: what no tile found explains
            for t in found:
                if t.region == r:
                    _erase(free, t.y, t.x, erase)
            votes_of = _disc_votes(label[r], disc)
            while room > 0:
                both = np.minimum(_filter(mine, core) / least, _box_sum(mine, square) / (
                    UNSEEN_SHARE * np.maximum(_box_sum(free, square), UNSEEN_BESIDE[0] * square ** 2)))
                y, x = divmod(int(np.argmax(both)), g)
                if both[y, x] < 1.0:
                    break
                _erase(mine, y, x, erase)
                _erase(free, y, x, erase)
                if votes_of(y, x)[BLACK] >= UNSEEN_BESIDE[1] * np.count_nonzero(disc):
                    tiles.append(Tile(int(r), BLACK, y, x, FULL))
                    room -= 1
        return tiles

    def _unexplained(self, changed: np.ndarray | None, found: list[Tile],
                     label: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per region, the share of its pixels that changed since the empty table yet lie beyond every tile found
        (its side faces and shadow included): something else is there; and (N, 5) the share of those that read as
        each colour (evenly shared where none reads as one)."""
        if changed is None:
            return np.zeros(self.regions), np.full((self.regions, len(COLOURS)), 1.0 / len(COLOURS))
        reach = _stamp(TILE_REACH * self.tile_side)
        k = reach.shape[0] // 2
        left = np.zeros((self.regions, self.size + 2 * k, self.size + 2 * k), bool)
        left[:, k:-k, k:-k] = changed
        for t in found:
            left[t.region, t.y:t.y + 2 * k + 1, t.x:t.x + 2 * k + 1][reach] = False
        left = left[:, k:-k, k:-k] if k else left
        share = np.full((self.regions, len(COLOURS)), 1.0 / len(COLOURS))
        for r in np.flatnonzero(left.any(axis=(1, 2))):
            reads = label[r][left[r]]
            votes = np.bincount(reads[(reads >= 0) & (reads < len(COLOURS))], minlength=len(COLOURS))
            if votes.sum():
                share[r] = votes / votes.sum()
        return left.sum(axis=(1, 2)) / self._area, share

    def count_labels(self, label: np.ndarray, glare: np.ndarray, changed: np.ndarray | None = None,
                     lightness: np.ndarray | None = None, lab: np.ndarray | None = None) -> list[RegionCount]:
        """Counts from per-pixel classes (N, G, G), each region's glare share, what changed there since the
        empty table, the frame's lightness (L*, (N, G, G)) and its L*a*b* ((N, G, G, 3); None: not known)."""
        read = label
        if changed is not None:  # what changed tells a motif that reads as no class from the print round a tile
            label = self._motifs(label, changed)
        found = self.find_tiles(label)
        if changed is not None:
            found = self._changed_enough(found, changed)
            if lightness is not None and not self.allow_marker:
                found = self._print_showing(found, lightness, read)
            found += self._sure_doubts(found, changed)
            if not self.allow_marker:
                # In the centre, blurred tiles' halos on the table changed as many counts for the worse as for the
                # better (tuning seeds 0-31 and check seeds 100-131: centres right 1183 -> 1183, 1226 -> 1225).
                left = self._beyond(found, changed)  # _unseen_tiles erases the places it tries: a copy
                found += self._unseen_tiles(found, label, left.copy(), lightness)
            if lightness is not None and not self.allow_marker:
                found = self._standing(found, lightness)
            if lab is not None and not self.allow_marker:
                found = self._halos(found, label, lab)
            if not self.allow_marker:
                found = self._touching(found, label, left)
        # Tiles never overlap in the centre either: touching tiles whose motifs read as no tile leave a core between
        # them as full as on either (check seed 127 gray frame 3: three touching black tiles read as four). Tuning and
        # check seeds, colored and gray walls: centres' colours weighed 352, one tile taken off (that one).
        found = self._overlapping(found, label)
        unexplained, unexplained_colour = self._unexplained(changed, found, label)
        out = []
        for r in range(self.regions):
            mine = [t for t in found if t.region == r]
            tiles = sorted((t for t in mine if t.colour < len(COLOURS)), key=lambda t: -t.fill)
            for extra in tiles[self.capacity:]:
                # More tiles than the region can hold: the least full cores were stains or a misread edge.
                mine.remove(extra)
                self.doubts[r, extra.colour] = max(self.doubts[r, extra.colour], extra.fill)
            counts: dict[str, int] = {}
            conf: dict[str, float] = {}
            for c, name in enumerate(COLOURS):
                sures = [self._tile_sure(t, changed) for t in mine if t.colour == c]
                if sures:
                    counts[name] = len(sures)
                # Each tile's certainty from how clearly its core is full, and the doubt of a near miss.
                conf[name] = math.prod(sures) * (1.0 - _sure(self.doubts[r, c]))
            # The marker's face fills its disc; the lit bevels round tiles, and the table in their shadow, make
            # thin rings of its colour that fill a core's ring but not a disc.
            markers = sorted((t for t in mine if t.colour == MARKER_INDEX and t.face >= FACE), key=lambda t: -t.fill)
            marker_p, lookalike = self._marker_p(markers, r)
            if self.allow_marker and not markers and changed is not None and self._piece_shaped(r, mine, changed):
                marker_p = MARKER_SHAPE[1]
            # Change that no tile explains is a tile missed or something over the region: less sure of it all
            # (tuning seeds 0-11: regions with more than 8 % unexplained were counted right 8 times in 27).
            clear = min(max(1.0 - float(unexplained[r] - UNEXPLAINED_FREE) / UNEXPLAINED_SPAN, 0.1), 1.0)
            sure = clear * lookalike * math.prod(conf.values())
            # A colour's count is as much less sure as the change reads as that colour (the square root of its
            # share: a tile missed under a cast reads partly as others). Tuning seeds 0-31, display colours wrong /
            # right at 0.9 or more: 24 / 5151 as it was, 19 / 5091 by the share, 15 / 5059 by its square root,
            # 11 / 4830 for every colour alike.
            conf = {name: p * lookalike * (1.0 - (1.0 - clear) * math.sqrt(unexplained_colour[r, c]))
                    for c, (name, p) in enumerate(conf.items())}
            blinded = self.glare[r] >= BLINDING_GLARE
            if blinded or (self.glare[r] >= GLEAM_DOUBT and counts.get("white")):
                conf = {name: p if name == "white" and not blinded else min(p, GLEAM_TRUST) for name, p in conf.items()}
                sure = min(sure, GLEAM_TRUST)
            out.append(RegionCount(counts, sure, conf, marker_p >= 0.5,
                                   marker_p, float(glare[r]), float(unexplained[r]), float(self.glare[r])))
        return out

    def _motifs(self, label: np.ndarray, changed: np.ndarray) -> np.ndarray:
        """The labels (N, G, G) with each patch that changed since the empty table yet reads as no class, is enclosed
        by one class (no other pixel beside it, of another class or unchanged) and covers MOTIF tile areas, read as
        that class: a tile's motif, which is inside its top."""
        hole = changed & (label < 0) & self.inside
        if not hole.any():
            return label
        flat = hole.reshape(-1, self.size).view(np.uint8)
        count, patch = cv2.connectedComponents(flat, connectivity=4)
        # Each pixel's class as a byte: class c as c + 2, no class (the table, side faces, shadows) as 1. Then the
        # least and the most of them round each patch (a 3x3 min and max filter, the patches themselves left out),
        # patch by patch: one class all round when they are equal and at least 2.
        code = (label.reshape(flat.shape) + 2).astype(np.uint8)
        square = np.ones((3, 3), np.uint8)
        at = np.flatnonzero(flat)
        most = cv2.dilate(code * (1 - flat), square).ravel()[at]
        least = cv2.erode(code | (flat * 255), square).ravel()[at]
        at, mine = patch.ravel()[at], at
        high, low = np.zeros(count, np.uint8), np.full(count, 255, np.uint8)
        np.maximum.at(high, at, most)
        np.minimum.at(low, at, least)
        size = np.bincount(at, minlength=count) / self.tile_side ** 2
        motif = (low == high) & (low >= 2) & (size >= MOTIF[0]) & (size <= MOTIF[1])
        if not motif.any():
            return label
        label = label.copy()
        label.ravel()[mine] = np.where(motif[at], low[at].astype(np.int8) - 2, -1)
        return label

    def _piece_shaped(self, r: int, tiles: list[Tile], changed: np.ndarray) -> bool:
        """Whether region `r` holds, beyond its `tiles` (their TILE_REACH discs), a place where what changed since
        the empty table, holes filled, covers a piece's core square and disc (MARKER_SHAPE); or, the tiles walls of
        the holes, a place APART from each where the marker's top and its "1" show (MARKER_BESIDE)."""
        tiles = [t for t in tiles if t.colour < len(COLOURS)]
        left = changed[r] & self.inside[r]
        beyond = left.copy()
        for t in tiles:
            _erase(beyond, t.y, t.x, _stamp(TILE_REACH * self.tile_side))
        disc = _stamp(0.5 * self.tile_side)
        least = MARKER_SHAPE[0] * np.count_nonzero(disc)
        flood, _, places = self._shaped(beyond)
        if any(np.count_nonzero(_under(flood, i, j, disc) != 2) >= least for i, j in places):
            return True
        if not tiles or not self.doubts[r, MARKER_INDEX]:
            return False
        flood, (y, x), places = self._shaped(left)
        middle, top = _stamp(MARKER_BESIDE[2] * self.tile_side), MARKER_BESIDE[0] * np.count_nonzero(disc)
        if np.count_nonzero(flood == 0) < top:
            return False  # no hole as large as the marker's top: the usual centre
        near = np.array([(t.y - y, t.x - x) for t in tiles])
        apart = ((places[:, None, :] - near) ** 2).sum(axis=2).min(axis=1) >= (APART * self.tile_side) ** 2
        for i, j in places[apart]:
            under = _under(flood, i, j, disc)
            if (np.count_nonzero(under != 2) >= least and np.count_nonzero(under == 0) >= top
                    and np.count_nonzero(_under(flood, i, j, middle) == 1) >= MARKER_BESIDE[1] * np.count_nonzero(middle)):
                return True
        return False

    def _shaped(self, left: np.ndarray) -> tuple[np.ndarray, tuple[int, int], np.ndarray]:
        """What changed (G, G) over a padded box round it, flooded from outside (2; changed 1, holes 0), the box's
        offset in the region, and the places (k, 2) in the box where what changed, holes filled, covers
        MARKER_SHAPE[0] of the square round a core (none where too little changed for a piece's outline)."""
        square = _core_square(self.tile_side)
        if np.count_nonzero(left) < square:
            return np.zeros((0, 0), np.uint8), (0, 0), np.zeros((0, 2), int)  # not even a piece's outline
        # Holes: what no path of unchanged pixels joins to the border of the changed pixels' box (a flood from a
        # corner of a padded copy of that box).
        x, y, w, h = cv2.boundingRect(left.view(np.uint8))
        flood = np.pad(left[y:y + h, x:x + w].view(np.uint8), 1)
        cv2.floodFill(flood, None, (0, 0), 2)
        box = _box_sum(np.ascontiguousarray(flood != 2, np.float32), square)
        return flood, (y - 1, x - 1), np.argwhere(box >= MARKER_SHAPE[0] * square ** 2)

    def _tile_sure(self, t: Tile, changed: np.ndarray | None) -> float:
        """Probability that a tile found is one, from how clearly its core is full (WHITE_SPREAD, FAINT_WHITE; in
        the centre FAINT_FACE)."""
        if self.allow_marker:
            return min(_sure(t.fill), FAINT_FACE[1]) if t.face < FAINT_FACE[0] else _sure(t.fill)
        if t.colour != WHITE:
            return _sure(t.fill)
        p = _sure(t.fill, WHITE_SPREAD)
        if changed is not None and t.face < FAINT_WHITE[0]:
            k = _core_square(self.tile_side) // 2  # its half-side
            square = changed[t.region, max(0, t.y - k):t.y + k + 1, max(0, t.x - k):t.x + k + 1]
            if np.count_nonzero(square) < FAINT_WHITE[1] * (2 * k + 1) ** 2:
                p = min(p, FAINT_WHITE[2])
        return p

    def _marker_p(self, markers: list[Tile], r: int) -> tuple[float, float]:
        """The probability that the first-player marker is in the centre, from the marker-like pieces found there
        (fullest first) and the fullest core that fell short of one; and how far a reading of the centre holding
        several pieces that look like the marker can be trusted (MARKER_LOOKALIKE per piece beyond one)."""
        if not self.allow_marker:
            return 0.0, 1.0
        if not markers:
            return (MARKER_MISSED if self.doubts[r, MARKER_INDEX] >= MARKER_DOUBT else 0.0), 1.0
        # There is one marker: more pieces as clear as one are tiles read as the cream marker (a lamp's glare
        # whitening every tile), so the counts are as doubtful as the marker.
        clear = sum(t.fill >= MARKER_CLEAR and t.face >= MARKER_FACE for t in markers)
        p = _sure(markers[0].fill)
        if markers[0].face < MARKER_FACE or clear > 1:
            p = min(p, MARKER_FAINT)
        return p, MARKER_LOOKALIKE ** max(clear - 1, 0)


class EmptyReference:
    """The regions as they looked on the empty table (L*a*b*). A pixel still as it was then is no tile, whatever
    its colour: the disc's rosette is not a white tile under a warm lamp, its cream not a marker."""

    def __init__(self, lab: np.ndarray) -> None:
        # Per channel, the range of the reference over each pixel's 3x3 neighbourhood: a printed edge that
        # moved by a pixel still matches.
        n, g = lab.shape[:2]
        strip = np.ascontiguousarray(lab.reshape(n * g, g, 3))
        kernel = np.ones((3, 3), np.uint8)
        self.least, self.most = cv2.erode(strip, kernel), cv2.dilate(strip, kernel)
        self.bounds = self._bounds(UNCHANGED_DELTA_E)
        self.white_bounds = self._bounds(UNCHANGED_WHITE_DELTA_E)
        self.shape = lab.shape[:3]
        # The print's colour and lightness pixel by pixel, the middle of its 3x3 range (_print_showing, _halos).
        self.colour = ((self.least + self.most) / 2).reshape(*self.shape, 3)
        self.lightness = np.ascontiguousarray(self.colour[..., 0])
        # For the shadow test: per pixel 1 / (L*+16) and a*, b* per unit of it, flat (contiguous: 5x faster).
        flat = lab.reshape(-1, 3).astype(np.float32)
        per_lightness = 1.0 / (flat[:, 0] + 16.0)
        self.shading = np.stack([per_lightness, flat[:, 1] * per_lightness, flat[:, 2] * per_lightness])[:, None]

    def _bounds(self, delta_e: float) -> tuple[np.ndarray, np.ndarray]:
        # As float32 bounds for one OpenCV range test: the nearest float32 inside each bound, so a float32 Lab
        # passes exactly when it passes the float64 bound.
        tolerance = delta_e / np.sqrt(3)
        low = _float32_at_least(self.least - tolerance).reshape(1, -1, 3)
        return low, -_float32_at_least(-(self.most + tolerance)).reshape(1, -1, 3)

    def unchanged(self, lab: np.ndarray, white: bool = False) -> np.ndarray:
        """(N, G, G, 3) float32 Lab (as to_lab gives it) -> (N, G, G) bool; `white`: as close as a pixel that
        reads white must be."""
        low, high = self.white_bounds if white else self.bounds
        inside = cv2.inRange(np.ascontiguousarray(lab, np.float32).reshape(1, -1, 3), low, high)
        return inside.reshape(self.shape) > 0

    def shadowed(self, lab: np.ndarray) -> np.ndarray:
        """(N, G, G, 3) Lab -> (N, G, G) bool: the empty table's colour darkened, as under a tile's cast shadow
        (less light scales L*+16, a* and b* alike); not so dark that black tiles would be shadows."""
        # Per pixel the scale of L*+16 and how far a* and b* stray from the empty table's scaled alike, all
        # three tested in one OpenCV range pass (channel planes: numpy is slow over 3-wide rows).
        lightness, a, b = cv2.split(np.ascontiguousarray(lab, np.float32).reshape(1, -1, 3))
        lightness += np.float32(16.0)
        scale, chroma_a, chroma_b = self.shading
        test = cv2.merge([lightness * scale, lightness * chroma_a - a, lightness * chroma_b - b])
        return cv2.inRange(test, *_SHADOW_RANGE).reshape(self.shape) > 0


def _float32_inside(low: float, high: float) -> tuple[float, float]:
    """The float32 range [a, b] holding exactly the float32 x with low < x < high."""
    return (float(np.nextafter(np.float32(low), np.float32(np.inf))),
            float(np.nextafter(np.float32(high), np.float32(-np.inf))))


# Shadow bounds for one inclusive range test: SHADOW_SCALE's open interval, and a* and b* within SHADOW_CHROMA.
_SHADOW_RANGE = tuple(tuple(b) for b in np.array([_float32_inside(*SHADOW_SCALE), _float32_inside(-SHADOW_CHROMA, SHADOW_CHROMA),
                                _float32_inside(-SHADOW_CHROMA, SHADOW_CHROMA)]).T.tolist())
_CHANNEL_SUM = np.ones((1, 3), np.float32)
_TOP_LEVELS = np.array([31 << 10, 31 << 5, 31], np.int16)  # each channel's top level in a table index


def _float32_at_least(bound: np.ndarray) -> np.ndarray:
    """The smallest float32 at or above each bound."""
    out = bound.astype(np.float32)
    below = out < bound
    out[below] = np.nextafter(out[below], np.float32(np.inf))
    return out


def ring_mask(size: int, inner: float, outer: float) -> np.ndarray:
    """(size, size) bool: the ring between inner and outer radii (fractions) of a circle's canonical grid."""
    steps = ((np.arange(size) + 0.5) / size) * 2 - 1
    gx, gy = np.meshgrid(steps, steps)
    rad = np.hypot(gx, gy)
    return (rad > inner) & (rad < outer)


def _cream_gain(cream: np.ndarray, glare) -> np.ndarray:
    """Gains that bring a display's cream card, less the glare over it, to the print's measured cream."""
    return from_lab(PRINT_CREAM["pattern"]) / (np.maximum(cream - glare, 5.0) + 1.0)


def _table_index(q: np.ndarray) -> np.ndarray:
    """(..., 3) BGR levels quantised to 5 bits -> (...) index into the 32768-colour tables (b << 10 | g << 5 | r)."""
    return (q[..., 0].astype(np.int32) << 10) | (q[..., 1].astype(np.int32) << 5) | q[..., 2]


def _print_lut(classes: int, black_top: float) -> np.ndarray:
    """As _lut, for colours already in the print's light: the fixed print-lit tile model (no black lighter than
    `black_top`, L*: white there), and as background the side faces (colours darkened) of the colours not in
    SHADE_FREE."""
    levels = (np.arange(32, dtype=np.float32) * 8 + 4)
    b, g, r = np.meshgrid(levels, levels, levels, indexing="ij")
    lab = to_lab(np.stack([b, g, r], -1).reshape(-1, 1, 3)).reshape(-1, 3)
    shades = PRINT_LIT.means[[i for i, c in enumerate(COLOURS) if c not in SHADE_FREE]] * SIDE_SHADE
    tile_ll = PRINT_LIT.log_likelihood(lab)[:, :classes]
    light = lab[:, 0] > black_top  # no black tile's (BLACK_TOP, CENTRE_BLACK_TOP)
    tile_ll[light, WHITE] = np.maximum(tile_ll[light, WHITE], tile_ll[light, BLACK])
    tile_ll[light, BLACK] = -np.inf
    d = np.sum((lab[:, None] - shades[None]) ** 2, axis=2) / BACKGROUND_SIGMA ** 2
    bg_ll = -0.5 * d.min(axis=1) - 3 * np.log(BACKGROUND_SIGMA)
    return np.where(tile_ll.max(axis=1) > bg_ll, tile_ll.argmax(axis=1), -1).astype(np.int8)


@lru_cache
def _print_fit(classes: int) -> np.ndarray:
    """(32768,) float32: how well every BGR colour quantised as _print_lut's (already in the print's light) fits
    its likeliest tile class, the log-likelihood floored at -30 (one stray colour costs no more)."""
    levels = (np.arange(32, dtype=np.float32) * 8 + 4)
    b, g, r = np.meshgrid(levels, levels, levels, indexing="ij")
    lab = to_lab(np.stack([b, g, r], -1).reshape(-1, 1, 3)).reshape(-1, 3)
    fit = np.maximum(PRINT_LIT.log_likelihood(lab)[:, :classes].max(axis=1), -30.0).astype(np.float32)
    fit.setflags(write=False)
    return fit


@lru_cache
def _ring_eighths(side: float) -> np.ndarray:
    """The ring round a tile (STANDING[2] to STANDING[3] tile sides) in eighths: each pixel's eighth, -1 off the
    ring; (2k+1, 2k+1), k the ring's outer radius. Read-only."""
    k = int(STANDING[3] * side)
    yy, xx = np.mgrid[-k:k + 1, -k:k + 1]
    radius = np.hypot(yy, xx) / side
    eighth = ((np.arctan2(yy, xx) + np.pi) / (np.pi / 4)).astype(np.int64) % 8
    eighth[(radius <= STANDING[2]) | (radius >= STANDING[3])] = -1
    eighth.setflags(write=False)
    return eighth


@lru_cache
def _disc_offsets(side: float) -> tuple[np.ndarray, np.ndarray]:
    """The (dy, dx) offsets from a tile's middle of its inscribed disc's pixels. Read-only."""
    disc = _stamp(0.5 * side)
    offsets = tuple(np.nonzero(disc)[i] - disc.shape[0] // 2 for i in (0, 1))
    for o in offsets:
        o.setflags(write=False)
    return offsets


@lru_cache
def _axis_boxes(side: float) -> tuple[np.ndarray, np.ndarray]:
    """Four axes through a tile's middle, (4, 2) unit (dy, dx): down, across and the two diagonals; and (8, 4) int,
    per axis its two halves as boxes (top, left, bottom, right; the last two past the box) in pixels from the middle:
    TOUCHING[0] to TOUCHING[1] tile sides along the axis and within half a side of it, or on a diagonal the square
    of a quarter 1/sqrt(2) as far. Read-only."""
    near, far, half = (round(f * side) for f in (TOUCHING[0], TOUCHING[1], 0.5))
    dnear, dfar = (round(f * side / np.sqrt(2)) for f in (TOUCHING[0], TOUCHING[1]))
    axes = np.array([(1.0, 0.0), (0.0, 1.0), (np.sqrt(0.5), np.sqrt(0.5)), (np.sqrt(0.5), -np.sqrt(0.5))])
    boxes = np.array([(near, -half, far, half + 1), (-far, -half, 1 - near, half + 1),
                      (-half, near, half + 1, far), (-half, -far, half + 1, 1 - near),
                      (dnear, dnear, dfar, dfar), (1 - dfar, 1 - dfar, 1 - dnear, 1 - dnear),
                      (dnear, 1 - dfar, dfar, 1 - dnear), (1 - dfar, dnear, 1 - dnear, dfar)])
    for a in (axes, boxes):
        a.setflags(write=False)
    return axes, boxes


@lru_cache
def _doubt_pixels(side: float) -> float:
    """Fewer pixels of a colour than this cannot fill a core to a doubt (FULL - DOUBT) anywhere."""
    return (FULL - DOUBT) * _core_pixels(side)


@lru_cache
def _stamp(radius: float) -> np.ndarray:
    """(2k+1, 2k+1) bool, read-only: the pixels within `radius` of the middle one."""
    k = int(radius)
    yy, xx = np.mgrid[-k:k + 1, -k:k + 1]
    stamp = (yy ** 2 + xx ** 2) <= radius ** 2
    stamp.setflags(write=False)
    return stamp


@lru_cache
def _core(side: float) -> np.ndarray:
    """A filter kernel counting the pixels of a tile's core, a ring: its middle, where the motif lies, is left
    out (a white tile's dark snowflake there matches the rosette under it and reads as no tile)."""
    ring = _stamp(max(1.0, CORE * side)).astype(np.float32)
    hole = _stamp(CORE_HOLE * side)
    o = (ring.shape[0] - hole.shape[0]) // 2
    ring[o:o + hole.shape[0], o:o + hole.shape[0]][hole] = 0.0
    ring.setflags(write=False)
    return ring


@lru_cache
def _core_pixels(side: float) -> int:
    return int(_core(side).sum())


def _core_square(side: float) -> int:
    """The side in pixels of the square round a tile's core: inside the tile at any turn."""
    return 2 * round(CORE * side) + 1


@lru_cache
def _core_and_whole(side: float) -> np.ndarray:
    """One kernel scoring a place by its core's fill plus its tile's whole inscribed disc's, each as a share,
    here in whole counts (times both areas): among places equally full at the core, the tile's middle is the one
    whose whole disc is fullest (picked off-centre, a tile would leave a crescent to be counted again)."""
    core, whole = _core(side), _stamp(max(1.0, 0.5 * side)).astype(np.float32)
    o = (whole.shape[0] - core.shape[0]) // 2
    both = whole * core.sum()
    both[o:o + core.shape[0], o:o + core.shape[0]] += core * whole.sum()
    both.setflags(write=False)
    return both


def _surround(image: np.ndarray, side: float) -> np.ndarray:
    """Round every pixel, the fill of the square ring SURROUND round a tile there, in _core_and_whole's units
    times SURROUND_WEIGHT. Two box filters: cheap, and exact (whole counts)."""
    inner, outer, weight = _surround_ring(side)
    ring = _box_sum(image, outer)
    ring -= _box_sum(image, inner)
    ring *= weight
    return ring


@lru_cache
def _surround_ring(side: float) -> tuple[int, int, float]:
    """The ring's inner and outer squares' sides in pixels, and the weight of a pixel in it (a whole number)."""
    inner, outer = (2 * round(r * side) + 1 for r in SURROUND)
    disc = np.count_nonzero(_stamp(max(1.0, 0.5 * side)))
    return inner, outer, float(round(SURROUND_WEIGHT * _core_pixels(side) * disc / (outer ** 2 - inner ** 2)))


def _settle(mask: np.ndarray, places: list[tuple[int, int]], side: float,
            rounds: int = 3) -> tuple[list[tuple[int, int, float]], float]:
    """Tiles at `places` (y, x) in a colour's 0/1 `mask`, each moved in turn (SETTLE sides at most) to where its
    core and disc are fullest with the other tiles' pixels explained (their ERASE discs); -> (y, x, core fill)
    per tile, and the last tile's disc fill."""
    core, both, erase = _core(side), _core_and_whole(side), _stamp(ERASE * side)
    disc = _stamp(0.5 * side).astype(np.float32)
    kb, reach = both.shape[0] // 2, max(1, round(SETTLE * side))
    h, w = mask.shape
    places = list(places)
    fills, face = [0.0] * len(places), 0.0
    for _ in range(rounds):
        moved = False
        for i, (y, x) in enumerate(places):
            rest = mask.copy()
            for j, (yj, xj) in enumerate(places):
                if j != i:
                    _erase(rest, yj, xj, erase)
            y0, y1, x0, x1 = max(0, y - reach), min(h, y + reach + 1), max(0, x - reach), min(w, x + reach + 1)
            i0, j0 = max(0, y0 - kb), max(0, x0 - kb)
            part = rest[i0:min(h, y1 + kb), j0:min(w, x1 + kb)]
            score = _filter(part, both)[y0 - i0:y1 - i0, x0 - j0:x1 - j0]
            dy, dx = divmod(int(np.argmax(score)), score.shape[1])
            places[i] = (y0 + dy, x0 + dx)
            moved |= places[i] != (y, x)
            fills[i] = float(_filter(part, core)[y0 + dy - i0, x0 + dx - j0]) / _core_pixels(side)
            if i == len(places) - 1:
                face = float(_filter(part, disc)[y0 + dy - i0, x0 + dx - j0]) / float(disc.sum())
        if not moved:
            break
    return [(y, x, f) for (y, x), f in zip(places, fills)], face


def _fit(mask: np.ndarray, places: list[tuple[int, int]], radius: float, side: float, rounds: int = 3) -> float:
    """How badly tiles at `places` (y, x), each a disc of `radius`, explain a colour's (G, G) 0/1 `mask`, fitted
    jointly: each moved in turn (SETTLE sides at most) to explain the most pixels the others leave, less its overlap
    with them (a few rounds, as k-means does; none: as placed). -> the pixels left unexplained plus those covered
    twice (a pixel covered k times counts k - 1). A move never makes the fit worse."""
    foot = _stamp(radius).astype(np.float32)
    k, reach = foot.shape[0] // 2, max(1, round(SETTLE * side))
    (h, w), pad = mask.shape, k + reach  # padded so that a window within reach of any place stays inside
    padded, covered = np.zeros((2, h + 2 * pad, w + 2 * pad), np.float32)
    padded[pad:-pad, pad:-pad] = mask
    discs = _discs_within(radius, reach)

    def window(y: int, x: int, reach: int) -> tuple[slice, slice]:
        return slice(y + pad - reach, y + pad + reach + 1), slice(x + pad - reach, x + pad + reach + 1)

    for y, x in places:
        covered[window(y, x, k)] += foot
    places = list(places)
    for _ in range(rounds):
        moved = False
        for i, (y, x) in enumerate(places):
            covered[window(y, x, k)] -= foot
            # Each pixel round the tile as it counts for it: of its colour 1, under another's disc -1 (explained
            # already, or overlap), else 0; every place within reach scored at once.
            around = window(y, x, reach + k)
            score = discs @ np.where(covered[around] > 0, np.float32(-1.0), padded[around]).ravel()
            score = score.reshape(2 * reach + 1, 2 * reach + 1)
            if min(y, x, h - 1 - y, w - 1 - x) < reach:  # only places on the grid
                score[:max(0, reach - y)] = score[:, :max(0, reach - x)] = -np.inf
                score[reach + h - y:] = score[:, reach + w - x:] = -np.inf
            dy, dx = divmod(int(np.argmax(score)), 2 * reach + 1)
            places[i] = (y + dy - reach, x + dx - reach)
            moved |= places[i] != (y, x)
            covered[window(*places[i], k)] += foot
        if not moved:
            break
    lit = covered > 0  # covered twice: every disc's pixels less those covered at all
    unexplained = np.count_nonzero(padded) - np.count_nonzero(padded[lit])
    return float(unexplained + len(places) * np.count_nonzero(foot) - np.count_nonzero(lit))


@lru_cache
def _discs_within(radius: float, reach: int) -> np.ndarray:
    """((2 reach + 1)^2, span^2) float32, span = 2 (k + reach) + 1 (k the disc's pixel radius): row by row, the disc
    of `radius` round each place within `reach` of a window's middle, over the window's pixels. Read-only."""
    disc = _stamp(radius)
    k = disc.shape[0] // 2
    span = 2 * (k + reach) + 1
    discs = np.zeros((2 * reach + 1, 2 * reach + 1, span, span), np.float32)
    for dy in range(2 * reach + 1):
        for dx in range(2 * reach + 1):
            discs[dy, dx, dy:dy + 2 * k + 1, dx:dx + 2 * k + 1] = disc
    discs = discs.reshape((2 * reach + 1) ** 2, span * span)
    discs.setflags(write=False)
    return discs


def _stamped(image: np.ndarray, y: int, x: int, stamp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The window of `image` under `stamp` centred on (y, x), clipped to the image (a view), and the stamp's part
    over it."""
    e, (h, w) = stamp.shape[0] // 2, image.shape
    y0, y1, x0, x1 = max(0, y - e), min(h, y + e + 1), max(0, x - e), min(w, x + e + 1)
    return image[y0:y1, x0:x1], stamp[y0 - y + e:y1 - y + e, x0 - x + e:x1 - x + e]


def _erase(image: np.ndarray, y: int, x: int, stamp: np.ndarray) -> None:
    """Zero `image` under `stamp` centred on (y, x), clipped to the image."""
    window, mask = _stamped(image, y, x, stamp)
    window[mask] = 0


def _filtered_at(image: np.ndarray, kernel: np.ndarray, y: int, x: int) -> float:
    """_filter(image, kernel)[y, x] alone: the kernel's weighted sum round (y, x), zero beyond the image (exact for
    whole counts, as _filter: one dot product, a quarter of the cost of numpy's product and sum)."""
    window, weights = _stamped(image, y, x, kernel)
    return float(np.vdot(window, weights))


def _under(image: np.ndarray, y: int, x: int, stamp: np.ndarray) -> np.ndarray:
    """The values of `image` under `stamp` centred on (y, x), clipped to the image."""
    window, mask = _stamped(image, y, x, stamp)
    return window[mask]


def _own_pixels(label: np.ndarray, t: Tile, disc: np.ndarray) -> int:
    """How many pixels of `disc` centred on tile `t`'s middle its region's labels (N, G, G) read as its colour."""
    return np.count_nonzero(_under(label[t.region], t.y, t.x, disc) == t.colour)


def _correlation(a: np.ndarray, b: np.ndarray) -> float:
    """Pearson's correlation of two samples (0 where either is flat)."""
    a, b = a - a.mean(), b - b.mean()
    scale = math.sqrt(float(np.dot(a, a)) * float(np.dot(b, b)))
    return float(np.dot(a, b)) / scale if scale > 0 else 0.0


def _disc_votes(label: np.ndarray, disc: np.ndarray):
    """A function of (y, x): how many pixels of the (G, G) `label` under `disc` there read as each colour."""
    h = disc.shape[0] // 2
    padded = np.pad(label, h, constant_values=-1)

    def votes(y: int, x: int) -> np.ndarray:
        window = padded[y:y + 2 * h + 1, x:x + 2 * h + 1][disc]
        return np.bincount(window[(window >= 0) & (window < len(COLOURS))], minlength=len(COLOURS))

    return votes


def _filter(image: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """The kernel's weighted sum round every pixel, zero beyond the image."""
    return cv2.filter2D(image, -1, kernel, borderType=cv2.BORDER_CONSTANT)


def _box_sum(image: np.ndarray, side: int) -> np.ndarray:
    """The sum over the square of `side` pixels round every pixel, zero beyond the image (a box filter: exact for
    whole counts, and cheaper than _filter with a square kernel)."""
    return cv2.boxFilter(image, -1, (side, side), normalize=False, borderType=cv2.BORDER_CONSTANT)


def _refilter(out: np.ndarray, image: np.ndarray, kernel: np.ndarray, y: int, x: int, reach: int,
              less: np.ndarray | None = None) -> None:
    """`out` = _filter(image, kernel) (less `less`, if given) again within `reach` of (y, x), where `image`
    changed (within reach less the kernel's radius): the window with the kernel's radius round it is filtered
    alone."""
    k = kernel.shape[0] // 2
    h, w = image.shape
    y0, y1, x0, x1 = max(0, y - reach), min(h, y + reach + 1), max(0, x - reach), min(w, x + reach + 1)
    i0, j0 = max(0, y0 - k), max(0, x0 - k)
    part = _filter(image[i0:min(h, y1 + k), j0:min(w, x1 + k)], kernel)
    out[y0:y1, x0:x1] = part[y0 - i0:y1 - i0, x0 - j0:x1 - j0]
    if less is not None:
        out[y0:y1, x0:x1] -= less[y0:y1, x0:x1]


def _sure(fill: float, spread: float = 0.04) -> float:
    """Probability that a core this full is a tile (FULL is even odds; `spread`: how fast it grows)."""
    return min(max(1.0 / (1.0 + math.exp(-(fill - FULL) / spread)), 0.001), 0.999)


def _classify_lab(flat: np.ndarray, model: ColourModel, background: np.ndarray, classes: int) -> np.ndarray:
    tile_ll = model.log_likelihood(flat, classes)
    d = np.sum((flat[:, None] - background[None]) ** 2, axis=2) / BACKGROUND_SIGMA ** 2
    bg_ll = -0.5 * d.min(axis=1) - 3 * np.log(BACKGROUND_SIGMA)
    best = tile_ll.argmax(axis=1)
    return np.where(tile_ll.max(axis=1) > bg_ll, best, -1)


def _lut(model: ColourModel, background: np.ndarray, classes: int, gain: np.ndarray | None) -> np.ndarray:
    """(32768,) int8 class of every BGR colour quantised to 32 levels per channel (index b<<10 | g<<5 | r)."""
    levels = (np.arange(32, dtype=np.float32) * 8 + 4)
    b, g, r = np.meshgrid(levels, levels, levels, indexing="ij")
    bgr = np.stack([b, g, r], -1).reshape(-1, 1, 3)
    lab = to_lab(bgr.astype(np.float32), gain).reshape(-1, 3)
    return _classify_lab(lab, model, background, classes).astype(np.int8)
