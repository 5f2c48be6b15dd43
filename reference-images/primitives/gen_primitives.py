#!/usr/bin/env python3
"""Writes strips_fans.json: the triangle primitives of OpenGL 3.3 (GL 3.3 core §2.6.1)
in six cells of a 384x256 frame, with colours that show each triangle's vertex order
and provoking vertex. Its reference image is llvmpipe's, made with
`csir-render check reference-images --backend gl --update`.

Cells, top row then bottom row:
1. triangle_strip of 10 vertices, smooth colours;
2. triangle_fan of 9 vertices round a centre, smooth colours;
3. two strips in one draw split by primitive_restart_index 65535 (indexed);
4. the strip of cell 1, flat colours, provoking vertex last (the default);
5. the same, provoking vertex first;
6. triangles_adjacency and triangle_strip_adjacency whose adjacent vertices lie far
   outside the cell (drawn without a geometry shader they are ignored), flat colours
   with the fan-like provoking vertex first.
"""
import json
import math
import os

W, H = 384, 256
COLS, ROWS = 3, 2
RESTART = 65535


def cell(col, row):
    """NDC box of a cell, with a margin: (x0, y0, x1, y1)."""
    w, h = 2.0 / COLS, 2.0 / ROWS
    x0, y1 = -1.0 + col * w, 1.0 - row * h
    m = 0.06
    return x0 + m, y1 - h + m, x0 + w - m, y1 - m


def palette(i):
    """A distinct colour per vertex index (no two neighbours alike)."""
    hues = [(1, 0.2, 0.2), (0.2, 0.9, 0.2), (0.25, 0.35, 1), (1, 0.85, 0.1),
            (0.9, 0.2, 0.9), (0.1, 0.9, 0.9), (1, 0.55, 0.1), (0.6, 0.6, 0.6)]
    r, g, b = hues[i % len(hues)]
    return [r, g, b, 1.0]


def strip_points(box, n):
    x0, y0, x1, y1 = box
    pts = []
    for i in range(n):
        x = x0 + (x1 - x0) * (i // 2) / ((n - 1) // 2)
        # a wavy strip so that the triangles differ in shape
        y = (y0 if i % 2 == 0 else y1) + (0.04 * math.sin(i * 1.7))
        pts.append([round(x, 5), round(y, 5)])
    return pts


def fan_points(box, n):
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    rx, ry = (x1 - x0) / 2, (y1 - y0) / 2
    pts = [[round(cx + 0.013, 5), round(cy - 0.021, 5)]]
    for k in range(n - 1):
        a = 0.3 + k * (2 * math.pi * 0.9) / (n - 2)
        pts.append([round(cx + rx * math.cos(a), 5), round(cy + ry * math.sin(a), 5)])
    return pts


def attrs(pts, colors):
    return [
        {"location": 0, "size": 2, "data": [c for p in pts for c in p]},
        {"location": 1, "size": 4, "data": [c for col in colors for c in col]},
    ]


SMOOTH = {"vertex": "../shaders/color2d.vert", "fragment": "../shaders/color.frag"}
FLAT = {"vertex": "flat_color.vert", "fragment": "flat_color.frag"}
STATE = {"depth_test": "none"}

draws = []
strip = strip_points(cell(0, 0), 10)
draws.append(dict(SMOOTH, primitive="triangle_strip",
                  attributes=attrs(strip, [palette(i) for i in range(10)]), state=STATE))
fan = fan_points(cell(1, 0), 9)
draws.append(dict(SMOOTH, primitive="triangle_fan",
                  attributes=attrs(fan, [palette(i) for i in range(9)]), state=STATE))
x0, y0, x1, y1 = cell(2, 0)
top = strip_points((x0, (y0 + y1) / 2 + 0.03, x1, y1), 6)
bottom = strip_points((x0, y0, x1, (y0 + y1) / 2 - 0.03), 6)
pts = top + bottom
draws.append(dict(SMOOTH, primitive="triangle_strip", primitive_restart_index=RESTART,
                  attributes=attrs(pts, [palette(i + 2) for i in range(12)]),
                  indices=list(range(6)) + [RESTART] + list(range(6, 12)), state=STATE))
for col, provoking in ((0, "last"), (1, "first")):
    pts = strip_points(cell(col, 1), 10)
    draws.append(dict(FLAT, primitive="triangle_strip",
                      attributes=attrs(pts, [palette(i) for i in range(10)]),
                      state=dict(STATE, provoking_vertex=provoking)))
# cell 6: adjacency, the adjacent (odd) vertices far away
x0, y0, x1, y1 = cell(2, 1)
far = [5.0, -7.0]
tri_adj = []
for corners in ([x0, y0], [(x0 + x1) / 2, y0], [x0, (y0 + y1) / 2]), \
               ([x1, (y0 + y1) / 2], [x1 - 0.15, y0 + 0.05], [(x0 + x1) / 2 + 0.1, (y0 + y1) / 2 - 0.05]):
    for c in corners:
        tri_adj += [c, far]
draws.append(dict(FLAT, primitive="triangles_adjacency",
                  attributes=attrs([[round(v, 5) for v in p] for p in tri_adj],
                                   [palette(i) for i in range(len(tri_adj))]),
                  state=dict(STATE, provoking_vertex="first")))
even = strip_points((x0, (y0 + y1) / 2 + 0.05, x1, y1), 6)
strip_adj = []
for p in even:
    strip_adj += [p, [-far[0], far[1]]]
draws.append(dict(FLAT, primitive="triangle_strip_adjacency",
                  attributes=attrs(strip_adj, [palette(i) for i in range(len(strip_adj))]),
                  state=STATE))

scene = {
    "format": "csir-scene/1",
    "width": W,
    "height": H,
    "clear": {"color": [0.08, 0.08, 0.1, 1.0]},
    "draws": draws,
}
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "strips_fans.json")
with open(out, "w") as f:
    json.dump(scene, f, indent=1)
    f.write("\n")
print("wrote", out)
