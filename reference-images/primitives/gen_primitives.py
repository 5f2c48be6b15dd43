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
HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, scene):
    out = os.path.join(HERE, name)
    with open(out, "w") as f:
        json.dump(scene, f, indent=1)
        f.write("\n")
    print("wrote", out)


write("strips_fans.json", scene)

# instancing.json: glDrawElementsInstanced / glDrawArraysInstanced (GL 3.3 core §2.8.2)
# with glVertexAttribDivisor arrays, glVertexAttribIPointer int and uint arrays (values
# past 2^24, exact only as 32-bit integers), gl_VertexID (for the indexed draw, the
# element value: the second quad's vertices are 4..7) and gl_InstanceID.
BIG = 1 << 30
corners = [[-1, -1], [1, -1], [-1, 1], [1, 1]]
cells = [[c + BIG, r - BIG] for r in range(3) for c in range(4)]
colors = [palette(i) for i in range(4)]
inst = {"vertex": "instanced.vert", "fragment": "../shaders/color.frag"}
instanced = [
    dict(inst, instances=12, indices=[4, 5, 6, 6, 5, 7],
         attributes=[
             {"location": 0, "size": 2, "data": [c for p in corners * 2 for c in p]},
             {"location": 1, "size": 2, "type": "int", "divisor": 1,
              "data": [v for c in cells for v in c]},
             {"location": 2, "size": 4, "divisor": 3, "data": [v for c in colors for v in c]},
             {"location": 3, "size": 1, "type": "uint",
              "data": [4000000000 + k for k in range(8)]},
         ], state=STATE),
    # glDrawArraysInstanced of a strip, one instance, drawn over the first cell: the
    # divisor-2 array reads element 0 only
    dict(inst, instances=1, primitive="triangle_strip",
         attributes=[
             {"location": 0, "size": 2, "data": [c * 0.5 for p in corners for c in p]},
             {"location": 1, "size": 2, "type": "int", "divisor": 2,
              "data": [BIG + 1, 1 - BIG]},
             {"location": 2, "size": 4, "divisor": 1, "data": [1, 1, 1, 1]},
             {"location": 3, "size": 1, "type": "uint",
              "data": [4000000003, 4000000000, 4000000001, 4000000002]},
         ], state=STATE),
]
write("instancing.json", {
    "format": "csir-scene/1",
    "width": 256,
    "height": 192,
    "clear": {"color": [0.08, 0.08, 0.1, 1.0]},
    "draws": instanced,
})

# points.json: GL 3.3 core §3.4 point sprites: glPointSize sizes, GL_PROGRAM_POINT_SIZE
# with gl_PointSize, gl_PointCoord, points at pixel centres, corners and edges, points
# partly off the framebuffer (drawn: their centre is inside) and a point whose centre
# lies just outside the view volume (discarded).
PW, PH = 192, 128


def px(x, y):
    """Window pixel coordinates to NDC."""
    return [round(2.0 * x / PW - 1.0, 6), round(2.0 * y / PH - 1.0, 6)]


point_draws = []
# row 1: size 1 and 2 points at centres, corners and edges of pixels
row = []
for k, (dx, dy) in enumerate([(0.5, 0.5), (0.0, 0.0), (0.25, 0.75), (1.0, 0.5),
                              (0.5, 1.0), (0.99, 0.01), (0.3, 0.3), (0.7, 0.2)]):
    row.append(px(8 + 6 * k + dx, 112 + dy))
point_draws.append(dict(SMOOTH, primitive="points",
                        attributes=attrs(row, [palette(i) for i in range(len(row))]),
                        state=dict(STATE, point_size=1)))
row2 = [px(p[0] * 0 + 8 + 6 * k + 0.37, 104.5) for k, p in enumerate(row)]
point_draws.append(dict(SMOOTH, primitive="points",
                        attributes=attrs(row2, [palette(i + 3) for i in range(len(row2))]),
                        state=dict(STATE, point_size=2)))
# row 2: fixed size 7.5 with gl_PointCoord, one at a half-pixel offset
big = [px(70 + 14 * k + 0.5 * (k % 2), 100.25 + 0.5 * k) for k in range(8)]
point_draws.append({"vertex": "../shaders/color2d.vert", "fragment": "point_coord.frag",
                    "primitive": "points",
                    "attributes": attrs(big, [palette(i) for i in range(8)]),
                    "state": dict(STATE, point_size=7.5)})
# rows 3-4: sizes from gl_PointSize, partly off the left and bottom edges, and one
# whose centre is just outside the view volume (x = -1.02) with a big size: not drawn
sized = [[px(10 + 22 * k, 60)[0], px(0, 60)[1], 0.0] for k in range(8)]
sizes = [1, 3, 4.5, 6, 9, 12.25, 16, 20]
sized += [[-1.0 + 1.0 / PW, -0.3, 0.0], [0.2, -1.0 + 0.5 / PH, 0.5], [-1.02, 0.0, 0.0],
          [0.95, -0.95, 1.5]]
sizes += [14, 10, 30, 12]
point_draws.append({"vertex": "point_sprite.vert", "fragment": "point_coord.frag",
                    "primitive": "points", "indices": list(range(len(sized))),
                    "attributes": [
                        {"location": 0, "size": 3, "data": [c for p in sized for c in p]},
                        {"location": 1, "size": 4,
                         "data": [c for i in range(len(sized)) for c in palette(i)]},
                        {"location": 2, "size": 1, "data": sizes},
                    ],
                    "state": dict(STATE, program_point_size=True)})
# program_point_size off: the same shader's points take point_size 3
point_draws.append({"vertex": "point_sprite.vert", "fragment": "../shaders/color.frag",
                    "primitive": "points",
                    "attributes": [
                        {"location": 0, "size": 3,
                         "data": [c for k in range(8) for c in px(12 + 20 * k, 20) + [0.0]]},
                        {"location": 1, "size": 4,
                         "data": [c for i in range(8) for c in palette(i)]},
                        {"location": 2, "size": 1, "data": [40] * 8},
                    ],
                    "state": dict(STATE, point_size=3)})
write("points.json", {
    "format": "csir-scene/1",
    "width": PW,
    "height": PH,
    "clear": {"color": [0.08, 0.08, 0.1, 1.0]},
    "draws": point_draws,
})

# lines.json: GL 3.3 core §3.5 aliased lines: x- and y-major segments in every
# direction, ends at pixel centres, in diamonds and on their edges (the diamond-exit
# rule), line_strip, line_loop, the adjacency types, widths 1, 2, 3 and 6, flat colours
# with either provoking vertex, perspective-correct and noperspective interpolation
# along a line whose w varies, and segments clipped by the view volume.
LW, LH = 256, 160


def lp(x, y):
    return [round(2.0 * x / LW - 1.0, 6), round(2.0 * y / LH - 1.0, 6)]


line_draws = []
# a star of 16 segments from one centre, every octant, width 1
centre = (40.5, 120.5)
star = []
for k in range(16):
    a = k * 2 * math.pi / 16 + 0.1
    star += [lp(*centre), lp(centre[0] + 30 * math.cos(a), centre[1] + 30 * math.sin(a))]
line_draws.append(dict(SMOOTH, primitive="lines",
                       attributes=attrs(star, [palette(i) for i in range(len(star))]),
                       state=STATE))
# ends placed inside diamonds, on diamond edges and at pixel corners
ends = []
for k, (d0, d1) in enumerate([((0.5, 0.5), (0.5, 0.5)), ((0.9, 0.5), (0.1, 0.5)),
                               ((0.0, 0.0), (0.0, 0.0)), ((0.25, 0.25), (0.75, 0.75)),
                               ((0.5, 0.1), (0.5, 0.9)), ((0.3, 0.5), (0.7, 0.5))]):
    y = 150 - 4 * k
    ends += [lp(80 + d0[0], y + d0[1]), lp(100 + d1[0], y + d1[1] + 1)]
    ends += [lp(110 + d0[1], y - 3 + d0[0]), lp(113 + d1[1], y + 12 + d1[0])]
line_draws.append(dict(SMOOTH, primitive="lines",
                       attributes=attrs(ends, [palette(i) for i in range(len(ends))]),
                       state=STATE))
# a strip and a loop, flat colours, provoking vertex first and last
zig = [lp(130 + 12 * k, 150 - (18 if k % 2 else 0) - 0.3 * k) for k in range(9)]
line_draws.append(dict(FLAT, primitive="line_strip",
                       attributes=attrs(zig, [palette(i) for i in range(9)]),
                       state=dict(STATE, provoking_vertex="first")))
loop = [lp(200 + 20 * math.cos(a), 135 + 20 * math.sin(a))
        for a in [k * 2 * math.pi / 7 for k in range(7)]]
line_draws.append(dict(FLAT, primitive="line_loop",
                       attributes=attrs(loop, [palette(i) for i in range(7)]),
                       state=STATE))
# wide lines: widths 2, 3 and 6, x- and y-major
for k, width in enumerate([2, 3, 6]):
    seg = [lp(10 + 40 * k, 20), lp(45 + 40 * k, 70 - 30 * (k % 2)),
           lp(12 + 40 * k, 80), lp(20 + 40 * k, 30)]
    line_draws.append(dict(SMOOTH, primitive="lines",
                           attributes=attrs(seg, [palette(i + k) for i in range(4)]),
                           state=dict(STATE, line_width=width)))
# adjacency: the segments between the adjacent vertices, which lie far away
far = [3.0, -4.0]
adj = []
for k in range(3):
    adj += [far, lp(130, 90 - 8 * k), lp(170, 95 - 8 * k), far]
line_draws.append(dict(FLAT, primitive="lines_adjacency",
                       attributes=attrs(adj, [palette(i) for i in range(len(adj))]),
                       state=dict(STATE, provoking_vertex="first")))
sadj = [far] + [lp(180 + 10 * k, 60 + (8 if k % 2 else 0)) for k in range(6)] + [far]
line_draws.append(dict(FLAT, primitive="line_strip_adjacency",
                       attributes=attrs(sadj, [palette(i) for i in range(len(sadj))]),
                       state=STATE))
# perspective: w from 1 to 4 along the lines; clipped at the left edge and the far
# plane; an indexed draw with restart
persp = []
cols = []
for k in range(4):
    y0 = -0.85 + 0.12 * k
    persp += [[-1.3, y0, 0.0, 1.0], [0.2 * 4, (y0 + 0.05) * 4, 0.0, 4.0]]
    cols += [[1, 0, 0, 1], [0, 1, 1, 1]]
persp += [[0.1, -0.3, 0.0, 1.0], [0.9, 0.2, 2.5, 1.0]]  # crosses the far plane
cols += [[1, 1, 0, 1], [0, 0, 1, 1]]
line_draws.append({"vertex": "line_persp.vert", "fragment": "line_persp.frag",
                   "primitive": "line_strip", "primitive_restart_index": 99,
                   "indices": [0, 1, 99, 2, 3, 99, 4, 5, 99, 6, 7, 99, 8, 9],
                   "attributes": [
                       {"location": 0, "size": 4, "data": [c for p in persp for c in p]},
                       {"location": 1, "size": 4, "data": [c for p in cols for c in p]},
                   ],
                   "uniforms": {"uFlat": 0.0},
                   "state": dict(STATE, provoking_vertex="first")})
write("lines.json", {
    "format": "csir-scene/1",
    "width": LW,
    "height": LH,
    "clear": {"color": [0.08, 0.08, 0.1, 1.0]},
    "draws": line_draws,
})

# polygon_mode.json: glPolygonMode (GL 3.3 core §3.6.4) after face culling: triangles
# as their edges (widths 1 and 3) and as their vertices, one triangle back-facing and
# culled, one crossing the near plane (clipping adds no edge in line mode), a strip.
MW, MH = 192, 128


def mp(x, y):
    return [round(2.0 * x / MW - 1.0, 6), round(2.0 * y / MH - 1.0, 6)]


mode_draws = []
tris = [mp(10, 70), mp(60, 75), mp(30, 120),      # front (counter-clockwise)
        mp(70, 70), mp(90, 120), mp(120, 72),     # back (clockwise): culled
        mp(125, 80), mp(185, 70), mp(160, 122)]   # front
mode_draws.append(dict(SMOOTH, attributes=attrs(tris, [palette(i) for i in range(9)]),
                       state=dict(STATE, polygon_mode="line", cull="back")))
strip = strip_points((mp(10, 10)[0], mp(0, 10)[1], mp(90, 0)[0], mp(0, 55)[1]), 8)
mode_draws.append(dict(FLAT, primitive="triangle_strip",
                       attributes=attrs(strip, [palette(i) for i in range(8)]),
                       state=dict(STATE, polygon_mode="line", line_width=3,
                                  provoking_vertex="first")))
pts = [mp(100, 10), mp(140, 15), mp(120, 50), mp(150, 40), mp(185, 12), mp(175, 55)]
mode_draws.append(dict(SMOOTH, attributes=attrs(pts, [palette(i + 2) for i in range(6)]),
                       state=dict(STATE, polygon_mode="point", point_size=4)))
# a triangle reaching behind the near plane, in line mode: only its own edges show
near = [[0.1, 0.1, 0.0, 1.0], [0.9, 0.2, 0.0, 1.0], [0.5, 0.9, -3.0, 1.0]]
mode_draws.append({"vertex": "line_persp.vert", "fragment": "line_persp.frag",
                   "attributes": [
                       {"location": 0, "size": 4, "data": [c for p in near for c in p]},
                       {"location": 1, "size": 4,
                        "data": [1, 1, 1, 1, 1, 0, 1, 1, 0, 1, 0, 1]},
                   ],
                   "uniforms": {"uFlat": 0.0},
                   "state": dict(STATE, polygon_mode="line")})
write("polygon_mode.json", {
    "format": "csir-scene/1",
    "width": MW,
    "height": MH,
    "clear": {"color": [0.08, 0.08, 0.1, 1.0]},
    "draws": mode_draws,
})

# primitive_id.json: gl_PrimitiveID (GLSL 1.50 §7.1) counts the primitives of a draw
# from 0: triangles of a strip and a fan, segments of a line strip, points, and an
# instanced draw (each instance counts from 0 again).
ID = {"vertex": "../shaders/color2d.vert", "fragment": "primitive_id.frag"}
id_draws = []
s1 = strip_points((-0.95, 0.35, 0.95, 0.95), 24)
id_draws.append(dict(ID, primitive="triangle_strip",
                     attributes=attrs(s1, [[0, 0, 0, 1]] * 24), state=STATE))
f1 = fan_points((-0.95, -0.45, -0.2, 0.3), 14)
id_draws.append(dict(ID, primitive="triangle_fan",
                     attributes=attrs(f1, [[0, 0, 0, 1]] * 14), state=STATE))
zz = [[round(-0.1 + 0.09 * k, 5), round(0.25 - (0.2 if k % 2 else 0.0), 5)] for k in range(12)]
id_draws.append(dict(ID, primitive="line_strip",
                     attributes=attrs(zz, [[0, 0, 0, 1]] * 12),
                     state=dict(STATE, line_width=3)))
dots = [[round(-0.1 + 0.07 * k, 5), -0.2] for k in range(16)]
id_draws.append(dict(ID, primitive="points",
                     attributes=attrs(dots, [[0, 0, 0, 1]] * 16),
                     state=dict(STATE, point_size=6)))
quad = [[-0.1, -0.95], [0.1, -0.95], [-0.1, -0.5], [0.1, -0.5]]
id_draws.append({"vertex": "instanced.vert", "fragment": "primitive_id.frag",
                 "instances": 3, "primitive": "triangle_strip",
                 "attributes": [
                     {"location": 0, "size": 2, "data": [c for p in quad for c in p]},
                     {"location": 1, "size": 2, "type": "int", "divisor": 1,
                      "data": [BIG + 1, 2 - BIG, BIG + 2, 2 - BIG, BIG + 3, 2 - BIG]},
                     {"location": 2, "size": 4, "data": [0, 0, 0, 1] * 4},
                     {"location": 3, "size": 1, "type": "uint", "data": [4000000000] * 4},
                 ], "state": STATE})
write("primitive_id.json", {
    "format": "csir-scene/1",
    "width": 256,
    "height": 160,
    "clear": {"color": [0.08, 0.08, 0.1, 1.0]},
    "draws": id_draws,
})
