#!/usr/bin/env python3
"""Generate the reference scenes that the starter set (gen_scenes.py) does not cover.

Reuses gen_scenes.py's helpers (float32-exact decimals, column-major matrices, the
same JSON layout). Shaders under shaders/ are hand-written and stay within the
conservative GLSL subset (no +=, ternary, while; constant-bound for only; built-ins
texture, dot, cross, length, normalize, abs, sin, cos, min, max, clamp, mix, pow,
reflect).

    python3 gen_extra_scenes.py     # (re)writes the scenes below and textures/npot5x3.png

Then render every expected image with Mesa llvmpipe (see README.md).
"""
import math
import os

import numpy as np
from PIL import Image

from gen_scenes import HERE, IDENTITY, colmajor, dump, f32, look_at, perspective, rot_x, rot_y

# The scenes' own bounds ("expect", docs/scene-format.md) where the project's rule (0.5 %
# of pixels may be more than 2/255 off) would hide what the scene tests.
# Coverage and depth scenes: not one pixel may be off by more than 2/255.
EXACT_COVERAGE = {"max_over_percent": 0}
# Texel selection with nearest filtering: every pixel exactly llvmpipe's.
BIT_EXACT = {"tolerance": 0, "max_over_percent": 0}

# Additive colours that show ownership of a shared-edge pixel and double coverage:
# A alone = orange (0.6, 0.3, 0), B alone = blue (0, 0.3, 0.6), both = grey (0.6, 0.6, 0.6).
COLOR_A = [0.6, 0.3, 0.0, 1.0]
COLOR_B = [0.0, 0.3, 0.6, 1.0]


def ndc(px, size):
    """Window coordinate (pixels, y up) -> NDC, as float32-exact decimal."""
    return f32(px / size * 2.0 - 1.0)


def tri_draw(tris, w, h, blend, vert="shaders/color2d.vert", frag="shaders/color.frag", state=None):
    """One non-indexed draw of 2D triangles given in window pixels: [(p0, p1, p2, rgba)]."""
    pos, col = [], []
    for p0, p1, p2, rgba in tris:
        for x, y in (p0, p1, p2):
            pos += [ndc(x, w), ndc(y, h)]
            col += rgba
    st = {"depth_test": "none", "blend": blend}
    st.update(state or {})
    return {
        "vertex": vert, "fragment": frag,
        "attributes": [{"location": 0, "size": 2, "data": pos},
                       {"location": 1, "size": 4, "data": col}],
        "state": st,
    }


def scene_shared_edges():
    """Pairs of triangles sharing an edge, additive: a pixel centre on a shared edge
    must be covered exactly once (grey = twice, black = never)."""
    w, h = 192, 128
    tris = []
    # cell (0,0): square split along its diagonal; corners on pixel centres, so the
    # diagonal passes exactly through pixel centres
    x0, y0, x1, y1 = 8.5, 8.5, 56.5, 56.5
    tris += [((x0, y0), (x1, y0), (x1, y1), COLOR_A), ((x0, y0), (x1, y1), (x0, y1), COLOR_B)]
    # cell (1,0): split along the other diagonal, second triangle clockwise
    x0, y0, x1, y1 = 72.5, 8.5, 120.5, 56.5
    tris += [((x0, y0), (x1, y0), (x0, y1), COLOR_A), ((x1, y1), (x0, y1), (x1, y0), COLOR_B)]
    # cell (2,0): vertical shared edge at x = 160.5 (a column of pixel centres), and
    # above-left of it a horizontal shared edge at y = 44.5 (a row of pixel centres)
    tris += [((136.5, 8.5), (160.5, 8.5), (160.5, 56.5), COLOR_A),
             ((160.5, 8.5), (184.5, 32.5), (160.5, 56.5), COLOR_B)]
    tris += [((137.5, 44.5), (139.5, 30.5), (147.5, 44.5), COLOR_A),
             ((137.5, 44.5), (147.5, 44.5), (140.5, 56.5), COLOR_B)]
    # cell (0,1): four triangles around a centre on a pixel centre
    c = (32.5, 96.5)
    corners = [(8.5, 72.5), (56.5, 72.5), (56.5, 120.5), (8.5, 120.5)]
    for k in range(4):
        tris.append((c, corners[k], corners[(k + 1) % 4], COLOR_A if k % 2 == 0 else COLOR_B))
    # cell (1,1): a shared edge of odd slope between sub-pixel vertices
    a, b = (75.3, 70.7), (117.9, 123.1)
    tris += [(a, (119.6, 71.2), b, COLOR_A), (a, b, (73.1, 121.8), COLOR_B)]
    # cell (2,1): a thin sliver pair sharing a long, almost horizontal edge
    a, b = (134.25, 95.5), (187.75, 97.5)
    tris += [(a, b, (160.0, 120.0), COLOR_A), (b, a, (161.0, 74.0), COLOR_B)]
    dump("shared_edges_additive.json", {
        "format": "csir-scene/1", "width": w, "height": h, "expect": EXACT_COVERAGE,
        "clear": {"color": [0.0, 0.0, 0.0, 1.0]},
        "draws": [tri_draw(tris, w, h, "additive")],
    })


def fan(center, radius, n, w, h, phase=0.0):
    tris = []
    for k in range(n):
        a0 = phase + 2 * math.pi * k / n
        a1 = phase + 2 * math.pi * (k + 1) / n
        p0 = (center[0] + radius * math.cos(a0), center[1] + radius * math.sin(a0))
        p1 = (center[0] + radius * math.cos(a1), center[1] + radius * math.sin(a1))
        tris.append((center, p0, p1, COLOR_A if k % 2 == 0 else COLOR_B))
    return tris


def scene_fan():
    """Two fans of 64 thin triangles, additive: every pixel inside is covered exactly
    once, including the centres (one on a pixel centre, one at a sub-pixel point)."""
    w, h = 384, 256
    tris = fan((128.5, 128.5), 120.0, 64, w, h) + fan((320.3, 128.7), 56.0, 64, w, h, phase=0.05)
    dump("fan64_additive.json", {
        "format": "csir-scene/1", "width": w, "height": h, "expect": EXACT_COVERAGE,
        "clear": {"color": [0.0, 0.0, 0.0, 1.0]},
        "draws": [tri_draw(tris, w, h, "additive")],
    })


def make_npot_texture():
    """5x3 texture (non-power-of-two on both axes), with partly transparent texels."""
    t = np.array([
        [(250, 20, 20, 255), (250, 200, 20, 255), (20, 220, 40, 255), (20, 200, 220, 255), (40, 40, 250, 255)],
        [(255, 255, 255, 255), (10, 10, 10, 255), (200, 60, 200, 128), (128, 128, 128, 255), (255, 140, 0, 0)],
        [(0, 0, 128, 255), (0, 128, 0, 200), (128, 0, 0, 255), (240, 240, 240, 255), (90, 40, 10, 255)],
    ], np.uint8)
    Image.fromarray(t, "RGBA").save(os.path.join(HERE, "textures", "npot5x3.png"))
    print("wrote textures/npot5x3.png")


def scene_texture_filter_grid(filt="linear", name="texture_filter_grid.json", expect=None):
    """3x2 cells of 160x160 pixels, uv from gl_FragCoord (no interpolation involved).
    Top row: 5x3 texture magnified, clamp / repeat / mirror, uv about -0.8..1.8.
    Bottom row: 64x64 checker minified (about 1.7 texels per pixel), clamp / repeat /
    mirror, uv about -1.2..3.1. `filt` is the filter of every cell."""
    w, h, cell = 480, 320, 160
    draws = []
    for row, (tex, scale) in enumerate([("npot", 2.6 / cell), ("checker", 4.3 / cell)]):
        y0 = h - (row + 1) * cell
        for col, wrap in enumerate(["clamp", "repeat", "mirror"]):
            x0 = col * cell
            # uv = (frag - offset) * scale; offset puts uv ~ -0.3 * range at the cell's corner
            off = [f32(x0 + 0.3 * cell + 0.37), f32(y0 + 0.3 * cell - 0.21)]
            pos = [ndc(x0, w), ndc(y0, h), ndc(x0 + cell, w), ndc(y0, h),
                   ndc(x0 + cell, w), ndc(y0 + cell, h), ndc(x0, w), ndc(y0 + cell, h)]
            draws.append({
                "vertex": "shaders/fullscreen.vert", "fragment": "shaders/fragcoord_uv.frag",
                "attributes": [{"location": 0, "size": 2, "data": pos}],
                "indices": [0, 1, 2, 0, 2, 3],
                "uniforms": {"uOffset": off, "uScale": [f32(scale), f32(scale * 0.87)]},
                "samplers": {"uTex": {"texture": tex, "filter": filt, "wrap": wrap}},
                "state": {"depth_test": "none"},
            })
    dump(name, {
        "format": "csir-scene/1", "width": w, "height": h,
        **({"expect": expect} if expect else {}),
        "clear": {"color": [0.2, 0.0, 0.2, 1.0]},
        "textures": {"npot": {"path": "textures/npot5x3.png"}, "checker": {"path": "textures/checker.png"}},
        "draws": draws,
    })


def scene_bilinear_perspective():
    """Bilinear filtering of interpolated, perspective-correct uv: a receding plane with
    the 5x3 texture, linear + mirror, next to one with the 4x4 texture, linear + repeat."""
    w, h = 320, 240
    view = look_at((0.0, 1.5, 2.5), (0.0, 0.0, -2.0), (0, 1, 0))
    vp = perspective(50.0, w / h, 0.5, 30.0) @ view
    draws = []
    for x0, x1, tex, wrap in ((-3.0, -0.05, "npot", "mirror"), (0.05, 3.0, "tiny", "repeat")):
        pos = [x0, 0, 1.5, x1, 0, 1.5, x1, 0, -10, x0, 0, -10]
        uv = [-0.5, -0.5, 1.75, -0.5, 1.75, 4.5, -0.5, 4.5]
        draws.append({
            "vertex": "shaders/ground.vert", "fragment": "shaders/textured.frag",
            "attributes": [{"location": 0, "size": 3, "data": pos}, {"location": 2, "size": 2, "data": uv}],
            "indices": [0, 1, 2, 0, 2, 3],
            "uniforms": {"uMVP": colmajor(vp), "uTint": [1, 1, 1, 1]},
            "samplers": {"uTex": {"texture": tex, "filter": "linear", "wrap": wrap}},
            "state": {"depth_test": "less", "cull": "back"},
        })
    dump("bilinear_perspective.json", {
        "format": "csir-scene/1", "width": w, "height": h,
        "clear": {"color": [0.55, 0.7, 0.9, 1.0]},
        "textures": {"npot": {"path": "textures/npot5x3.png"}, "tiny": {"path": "textures/tiny4.png"}},
        "draws": draws,
    })


def quad3d(x0, y0, x1, y1, z, rgba_corners):
    """Two CCW triangles, indexed; rgba per corner (bl, br, tr, tl)."""
    pos = [x0, y0, z, x1, y0, z, x1, y1, z, x0, y1, z]
    col = [c for rgba in rgba_corners for c in rgba]
    return pos, col, [0, 1, 2, 0, 2, 3]


def draw3d(pos, col, idx, mvp, state, frag="shaders/color.frag"):
    return {
        "vertex": "shaders/color3d.vert", "fragment": frag,
        "attributes": [{"location": 0, "size": 3, "data": [f32(x) for x in pos]},
                       {"location": 1, "size": 4, "data": [f32(x) for x in col]}],
        "indices": idx,
        "uniforms": {"uMVP": mvp},
        "state": state,
    }


def scene_discard_depth():
    """A near quad that discards every other 16x16 cell, depth less: discarded fragments
    write no depth, so a far quad drawn afterwards shows through exactly there."""
    w, h = 256, 256
    orange = [1.0, 0.55, 0.1, 1.0]
    near = quad3d(-0.8, -0.8, 0.8, 0.8, -0.5, [orange, [1.0, 0.9, 0.2, 1.0], orange, [0.8, 0.2, 0.1, 1.0]])
    far = quad3d(-0.95, -0.6, 0.95, 0.6, 0.5, [[0.1, 0.3, 0.9, 1.0]] * 4)
    dump("discard_depth.json", {
        "format": "csir-scene/1", "width": w, "height": h, "expect": EXACT_COVERAGE,
        "clear": {"color": [0.15, 0.15, 0.15, 1.0]},
        "draws": [
            draw3d(*near, IDENTITY, {"depth_test": "less"}, frag="shaders/discard_checker.frag"),
            draw3d(*far, IDENTITY, {"depth_test": "less"}),
        ],
    })


def scene_fwidth_sdf():
    """Derivatives: a ring SDF antialiased with fwidth on a quad receding in
    perspective, and dFdx/dFdy of a nonlinear function on a triangle whose slanted
    edges leave partly covered 2x2 quads (helper invocations). The uv rides in the
    colour attribute's xy."""
    w, h = 256, 256
    view = look_at((0.0, 1.2, 1.6), (0.0, 0.0, -0.6), (0, 1, 0))
    proj = perspective(60.0, w / h, 0.1, 20.0)
    mvp = colmajor(proj @ view)
    uv = [[0, 0, 0, 1], [1, 0, 0, 1], [1, 1, 0, 1], [0, 1, 0, 1]]
    # The ground quad in y = 0, from z = 1 (near) to z = -3 (far).
    pos = [-1.5, 0.0, 1.0, 1.5, 0.0, 1.0, 1.5, 0.0, -3.0, -1.5, 0.0, -3.0]
    ground = (pos, [c for v in uv for c in v], [0, 1, 2, 0, 2, 3])
    tri = ([-0.95, 0.25, 0.0, 0.3, 0.35, 0.0, -0.4, 0.95, 0.0],
           [0, 0, 0, 1, 1, 0.2, 0, 1, 0.3, 1, 0, 1], [0, 1, 2])
    draws = [
        draw3d(*ground, mvp, {"depth_test": "none"}, frag="fwidth_sdf.frag"),
        draw3d(*tri, IDENTITY, {"depth_test": "none"}, frag="derivatives.frag"),
    ]
    for d in draws:
        d["vertex"] = "../shaders/color3d.vert"
    # Its own folder: its shaders need the extended profile, and the seed-profile
    # tests compile every shader in shaders/.
    dump("derivatives/fwidth_sdf.json", {
        "format": "csir-scene/1", "width": w, "height": h,
        "clear": {"color": [0.05, 0.05, 0.05, 1.0]},
        "draws": draws,
    })


def scene_alpha_overlap():
    """Alpha blending (src*a + dst*(1-a) on RGB and A) of overlapping quads, in order;
    one quad's alpha ramps 0..1 across it, one's colour exceeds 0..1 (clamped before
    blending)."""
    w, h = 256, 256
    red = [0.9, 0.1, 0.1, 0.5]
    green = [0.1, 0.8, 0.2, 0.35]
    ramp0, ramp1 = [0.2, 0.3, 1.0, 0.0], [0.2, 0.3, 1.0, 1.0]
    hot = [1.5, -0.5, 0.5, 0.8]
    quads = [
        quad3d(-0.8, -0.2, 0.3, 0.8, 0.0, [red] * 4),
        quad3d(-0.3, -0.7, 0.8, 0.4, 0.0, [green] * 4),
        quad3d(-0.9, -0.9, 0.9, 0.0, 0.0, [ramp0, ramp1, ramp1, ramp0]),
        quad3d(0.2, 0.3, 0.7, 0.9, 0.0, [hot] * 4),
    ]
    dump("alpha_overlap.json", {
        "format": "csir-scene/1", "width": w, "height": h,
        "clear": {"color": [0.1, 0.1, 0.1, 1.0]},
        "draws": [draw3d(*q, IDENTITY, {"depth_test": "none", "blend": "alpha"}) for q in quads],
    })


def scene_clip_planes():
    """Clipping with per-vertex colours: a triangle with a vertex behind the eye (near
    plane, w < 0), a triangle through the far plane, and a huge triangle reaching far
    outside the viewport (x/y clipping), all perspective-correctly interpolated."""
    w, h = 320, 240
    view = look_at((0.0, 0.5, 0.0), (0.0, 0.2, -5.0), (0, 1, 0))
    proj = perspective(60.0, w / h, 0.5, 20.0)
    mvp = colmajor(proj @ view)
    red, green, blue, white = [1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1], [1, 1, 1, 1]
    # behind the eye (z = +4) to in front (z = -6)
    near_tri = ([-3.0, 0.0, 4.0, 3.0, 0.0, 4.0, 0.0, 0.0, -6.0], red + green + blue, [0, 1, 2])
    # from z = -4 through the far plane at 20 (z = -40)
    far_tri = ([-1.5, 0.9, -3.0, 9.0, 1.5, -40.0, -9.0, 7.0, -40.0], white + [1, 0, 1, 1] + [0, 1, 1, 1], [0, 1, 2])
    # huge, behind everything, reaching thousands of units to the sides
    huge = ([-3000.0, -2000.0, -19.0, 3000.0, -2000.0, -19.0, 0.0, 3000.0, -19.0],
            [0.3, 0.3, 0.3, 1] + [0.1, 0.1, 0.4, 1] + [0.4, 0.1, 0.1, 1], [0, 1, 2])
    dump("clip_planes.json", {
        "format": "csir-scene/1", "width": w, "height": h,
        "clear": {"color": [0.0, 0.0, 0.0, 1.0]},
        "draws": [draw3d(*t, mvp, {"depth_test": "less"}) for t in (huge, far_tri, near_tri)],
    })


def scene_depth_equal_redraw():
    """Sloped triangles drawn with depth less, then the same draw again with depth equal
    in another colour: the second pass must cover every pixel of the first (depth is
    computed the same way every time, and stored without loss).

    The second pass keeps the vertex order: with the vertices of each triangle rotated,
    llvmpipe leaves 1910 pixels of the first colour (1375 for the other rotation), so
    it does not give the same depth bits for every rotation of a triangle."""
    w, h = 256, 256
    model = rot_y(30.0) @ rot_x(-50.0)
    view = look_at((0.0, 0.0, 3.0), (0, 0, 0), (0, 1, 0))
    mvp = colmajor(perspective(55.0, 1.0, 0.5, 10.0) @ view @ model)
    pos, idx_first = [], []
    n = 10
    for k in range(n + 1):
        a = 2 * math.pi * k / n
        pos += [math.cos(a), math.sin(a), 0.3 * math.sin(3 * a)]
    pos += [0.0, 0.0, 0.4]
    centre = n + 1
    for k in range(n):
        idx_first += [centre, k, k + 1]
    idx_again = idx_first
    col_a = [0.9, 0.2, 0.2, 1.0] * (n + 2)
    col_b = [0.2, 0.9, 0.4, 1.0] * (n + 2)
    dump("depth_equal_redraw.json", {
        "format": "csir-scene/1", "width": w, "height": h, "expect": EXACT_COVERAGE,
        "clear": {"color": [0.05, 0.05, 0.1, 1.0]},
        "draws": [
            draw3d(pos, col_a, idx_first, mvp, {"depth_test": "less"}),
            draw3d(pos, col_b, idx_again, mvp, {"depth_test": "equal", "depth_write": False}),
        ],
    })


def make_mip_textures():
    """mipbands.png: 64x64, four 16-texel-wide bands of checkers with cells of 1, 2, 4
    and 8 texels, each band its own two colours, so that every mip level looks
    different (the box filter turns a band grey once its cells are smaller than a
    texel). floor_checker.png: 64x64, 8-texel cells of two colours."""
    pairs = [((250, 250, 250, 255), (20, 20, 20, 255)), ((240, 60, 40, 255), (40, 60, 240, 255)),
             ((40, 220, 80, 255), (230, 200, 30, 255)), ((250, 140, 0, 255), (90, 0, 160, 255))]
    bands = np.zeros((64, 64, 4), np.uint8)
    for y in range(64):
        for x in range(64):
            k = x // 16
            cell = 1 << k
            bands[y, x] = pairs[k][((x // cell) + (y // cell)) % 2]
    Image.fromarray(bands, "RGBA").save(os.path.join(HERE, "textures", "mipbands.png"))
    floor = np.zeros((64, 64, 4), np.uint8)
    for y in range(64):
        for x in range(64):
            floor[y, x] = (235, 225, 200, 255) if ((x // 8) + (y // 8)) % 2 == 0 else (60, 80, 120, 255)
    Image.fromarray(floor, "RGBA").save(os.path.join(HERE, "textures", "floor_checker.png"))
    print("wrote textures/mipbands.png, textures/floor_checker.png")


def scene_texture_lod_strip():
    """textureLod, one 64x64 band per level of mipbands.png (levels 0..6), uv from
    gl_FragCoord at texel centres of level 0. Top row: nearest_mipmap_nearest at
    lambda = k; middle row: linear_mipmap_linear at lambda = k + 0.5 (each band half
    level k, half level k + 1); bottom row: nearest_mipmap_nearest at lambda = k + 0.5
    (a tie between two levels)."""
    w, h, band = 448, 192, 64
    rows = [("nearest_mipmap_nearest", 0.0), ("linear_mipmap_linear", 0.5), ("nearest_mipmap_nearest", 0.5)]
    draws = []
    for row, (min_filter, frac) in enumerate(rows):
        y0 = h - (row + 1) * band
        for k in range(7):
            x0 = k * band
            pos = [ndc(x0, w), ndc(y0, h), ndc(x0 + band, w), ndc(y0, h),
                   ndc(x0 + band, w), ndc(y0 + band, h), ndc(x0, w), ndc(y0 + band, h)]
            draws.append({
                "vertex": "shaders/fullscreen.vert", "fragment": "shaders/lod_strip.frag",
                "attributes": [{"location": 0, "size": 2, "data": pos}],
                "indices": [0, 1, 2, 0, 2, 3],
                "uniforms": {"uOffset": [x0, y0], "uScale": [f32(1 / 64), f32(1 / 64)],
                             "uLod": k + frac},
                "samplers": {"uTex": {"texture": "bands", "min_filter": min_filter,
                                      "mag_filter": "nearest", "wrap": "repeat"}},
                "state": {"depth_test": "none"},
            })
    dump("texture_lod_strip.json", {
        "format": "csir-scene/1", "width": w, "height": h,
        "clear": {"color": [0.2, 0.0, 0.2, 1.0]},
        "textures": {"bands": {"path": "textures/mipbands.png"}},
        "draws": draws,
    })


# The floor scenes' camera: eye at height FLOOR_EYE looking along -z, 50 degree field
# of view on 320x240; the floor's uv is FLOOR_SCALE * (x, -z).
FLOOR_W, FLOOR_H, FLOOR_FOVY, FLOOR_EYE, FLOOR_SCALE = 320, 240, 50.0, 1.0, 0.5


def scene_floor(name, frag, min_filter, folder=""):
    """A checkerboard floor receding to the horizon (repeat wrap), mipmapped."""
    w, h = FLOOR_W, FLOOR_H
    view = look_at((0.0, FLOOR_EYE, 0.0), (0.0, FLOOR_EYE, -1.0), (0, 1, 0))
    mvp = perspective(FLOOR_FOVY, w / h, 0.1, 400.0) @ view
    focal = (h / 2) / math.tan(math.radians(FLOOR_FOVY) / 2)
    pos = [-400.0, 0.0, -0.2, 400.0, 0.0, -0.2, 400.0, 0.0, -300.0, -400.0, 0.0, -300.0]
    uniforms = {"uMVP": colmajor(mvp), "uScale": FLOOR_SCALE}
    if "grad" in frag:
        uniforms["uCamera"] = [f32(focal), FLOOR_EYE, w / 2, h / 2]
    prefix = "../" if folder else ""
    dump(os.path.join(folder, name), {
        "format": "csir-scene/1", "width": w, "height": h,
        "clear": {"color": [0.55, 0.7, 0.9, 1.0]},
        "textures": {"checker": {"path": prefix + "textures/floor_checker.png"}},
        "draws": [{
            "vertex": prefix + "shaders/floor.vert", "fragment": prefix + frag,
            "attributes": [{"location": 0, "size": 3, "data": pos}],
            "indices": [0, 1, 2, 0, 2, 3],
            "uniforms": uniforms,
            "samplers": {"uTex": {"texture": "checker", "min_filter": min_filter,
                                  "mag_filter": "linear", "wrap": "repeat"}},
            "state": {"depth_test": "less"},
        }],
    })


if __name__ == "__main__":
    make_npot_texture()
    scene_shared_edges()
    scene_fan()
    scene_texture_filter_grid()
    scene_texture_filter_grid("nearest", "texture_nearest_grid.json", BIT_EXACT)
    scene_bilinear_perspective()
    scene_discard_depth()
    scene_alpha_overlap()
    scene_fwidth_sdf()
    scene_clip_planes()
    scene_depth_equal_redraw()
    make_mip_textures()
    scene_texture_lod_strip()
    scene_floor("floor_grad_trilinear.json", "shaders/extended/floor_grad.frag", "linear_mipmap_linear")
    scene_floor("floor_grad_nearest_mip.json", "shaders/extended/floor_grad.frag", "nearest_mipmap_nearest")
    # Plain texture(): the level of detail comes from each 2x2 quad's derivatives.
    scene_floor("mip_floor_trilinear.json", "shaders/floor_implicit.frag", "linear_mipmap_linear")
    scene_floor("mip_floor_nearest_mip.json", "shaders/floor_implicit.frag", "nearest_mipmap_nearest")
