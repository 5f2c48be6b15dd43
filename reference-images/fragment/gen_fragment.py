#!/usr/bin/env python3
"""Writes the per-fragment operation scenes of this folder (OpenGL 3.3 core §4.1,
docs/scene-format.md "Per-fragment operations"). Their reference images are llvmpipe's,
made with `csir-render check reference-images/fragment --backend gl --update`.

- blend_factors.json: a 15x15 grid, source factor by row (top row `zero`), destination
  factor by column, every factor of GL 3.3 but the dual-source ones, over a background
  whose colour and alpha vary across the frame, with a blend colour;
- blend_equations.json: a 5x5 grid, RGB equation by row, alpha equation by column,
  with separate RGB and alpha factors;
- masks_scissor_viewport.json: color_mask (two quads writing some channels), scissor
  (a frame-covering quad cut to a rectangle), viewport (a quad and a triangle reaching
  past NDC ±1 drawn into a small viewport: clipped to it) and depth_range (a quad
  drawn with range [0, 0.2], then one behind it by NDC but in front by window depth,
  and a reversed range [1, 0] that turns the depth order over);
- polygon_offset_decal.json: tilted planes (depth varying across them) each with a
  coplanar decal drawn with depth `less`: pulled forward by polygon_offset
  (factor -1, units -1; units only; factor only) it shows, pushed back (factor 1,
  units 1; units 2) it is hidden. (Without an offset the decal z-fights, which GL
  leaves to the implementation, so no row draws one.)
- dual_source.json: a 4x5 grid of dual-source blending (GL 3.3 §4.1.8): the shader
  `dual.frag` writes a second colour at `layout(location = 0, index = 1)`; the source
  factor by row and the destination factor by column are the four `src1_*` factors
  (and `one` in the last column), over the same background.
"""
import json
import os

FACTORS = [
    "zero", "one", "src_color", "one_minus_src_color", "dst_color",
    "one_minus_dst_color", "src_alpha", "one_minus_src_alpha", "dst_alpha",
    "one_minus_dst_alpha", "constant_color", "one_minus_constant_color",
    "constant_alpha", "one_minus_constant_alpha", "src_alpha_saturate",
]
EQUATIONS = ["add", "subtract", "reverse_subtract", "min", "max"]


def quad(x0, y0, x1, y1, colors, z=0.0, state=None):
    """A draw of the rectangle (x0, y0)-(x1, y1) in NDC; colours bottom-left,
    bottom-right, top-right, top-left."""
    pos = [x0, y0, z, x1, y0, z, x1, y1, z, x0, y1, z]
    draw = {
        "vertex": "color.vert",
        "fragment": "color.frag",
        "attributes": [
            {"location": 0, "size": 3, "data": [round(v, 6) for v in pos]},
            {"location": 1, "size": 4, "data": [c for col in colors for c in col]},
        ],
        "indices": [0, 1, 2, 0, 2, 3],
        "state": {"depth_test": "none"},
    }
    if state:
        draw["state"].update(state)
    return draw


def background():
    return quad(-1, -1, 1, 1, [[0.9, 0.1, 0.2, 0.0], [0.1, 0.8, 0.3, 0.35],
                               [0.2, 0.3, 0.9, 1.0], [0.95, 0.9, 0.1, 0.7]])


def grid(rows, cols, state_of, colors):
    draws = []
    for r in range(rows):
        for c in range(cols):
            w, h = 2.0 / cols, 2.0 / rows
            x0, y1 = -1 + c * w, 1 - r * h
            m = 0.08 * w
            draws.append(quad(x0 + m, y1 - h + m, x0 + w - m, y1 - m, colors,
                              state=state_of(r, c)))
    return draws


def scene(width, height, draws):
    return {"format": "csir-scene/1", "width": width, "height": height,
            "clear": {"color": [0.0, 0.0, 0.0, 0.0]}, "draws": draws}


def write(name, value):
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, name), "w") as f:
        json.dump(value, f, indent=1)
        f.write("\n")


SRC = [[1.0, 0.5, 0.0, 0.25], [0.0, 1.0, 0.5, 0.6], [0.5, 0.0, 1.0, 1.0],
       [0.8, 0.8, 0.8, 0.9]]

factors = [background()] + grid(
    15, 15,
    lambda r, c: {"blend": {"src": FACTORS[r], "dst": FACTORS[c],
                            "color": [0.3, 0.6, 0.9, 0.4]}},
    SRC)
write("blend_factors.json", scene(480, 480, factors))

equations = [background()] + grid(
    5, 5,
    lambda r, c: {"blend": {"src_rgb": "one", "dst_rgb": "dst_alpha",
                            "src_alpha": "src_color", "dst_alpha": "one_minus_src_alpha",
                            "equation_rgb": EQUATIONS[r], "equation_alpha": EQUATIONS[c]}},
    SRC)
write("blend_equations.json", scene(320, 320, equations))

GRAD = [[0.9, 0.1, 0.2, 1.0], [0.1, 0.8, 0.3, 1.0], [0.2, 0.3, 0.9, 1.0],
        [0.95, 0.9, 0.1, 1.0]]


def solid(c):
    return [c, c, c, c]


def triangle(points, color, state):
    draw = quad(0, 0, 0, 0, solid(color), state=state)
    draw["attributes"][0]["data"] = [v for p in points for v in p]
    draw["attributes"][1]["data"] = [c for _ in points for c in color]
    draw["indices"] = [0, 1, 2]
    return draw


window = [
    quad(-1, -1, 1, 1, GRAD),
    # colour masks: top-left quarter, red and alpha only; then green only
    quad(-0.95, 0.05, -0.05, 0.95, solid([0.2, 0.9, 0.9, 0.5]),
         state={"color_mask": [True, False, False, True]}),
    quad(-0.75, 0.25, -0.25, 0.75, solid([0.0, 0.0, 1.0, 0.0]),
         state={"color_mask": [False, True, False, False]}),
    # scissor: a frame-covering quad cut to a rectangle in the top-right quarter
    quad(-1, -1, 1, 1, solid([1.0, 1.0, 1.0, 1.0]),
         state={"scissor": [150, 140, 70, 90]}),
    # viewport: bottom-left quarter, a quad of NDC [-0.5, 0.5]^2 and a triangle
    # reaching past -1 and +1, clipped to the viewport rectangle
    quad(-0.5, -0.5, 0.5, 0.5, solid([0.1, 0.1, 0.1, 1.0]),
         state={"viewport": [10, 12, 100, 90]}),
    triangle([[-1.6, -0.8, 0.0], [1.7, -0.3, 0.0], [0.2, 1.9, 0.0]], [0.9, 0.5, 0.1, 1.0],
             {"viewport": [10, 12, 100, 90]}),
    # depth range: bottom-right quarter
    quad(0.05, -0.95, 0.95, -0.05, solid([0.9, 0.9, 0.9, 1.0]), z=0.95,
         state={"depth_test": "always"}),
    quad(0.1, -0.9, 0.6, -0.4, solid([0.0, 0.6, 0.0, 1.0]), z=0.5,
         state={"depth_test": "less", "depth_range": [0.0, 0.2]}),
    quad(0.3, -0.7, 0.9, -0.1, solid([0.8, 0.0, 0.0, 1.0]), z=-0.5,
         state={"depth_test": "less"}),
    quad(0.15, -0.3, 0.45, -0.1, solid([0.0, 0.0, 0.9, 1.0]), z=-0.9,
         state={"depth_test": "less", "depth_range": [1.0, 0.0]}),
]
write("masks_scissor_viewport.json", scene(256, 256, window))


def tilted(x0, y0, x1, y1, color, za, zb, state=None):
    """A quad whose depth goes from za (left) to zb (right)."""
    d = quad(x0, y0, x1, y1, solid(color), state=state)
    d["attributes"][0]["data"] = [x0, y0, za, x1, y0, zb, x1, y1, zb, x0, y1, za]
    return d


decal = []
offsets = [{"factor": -1.0, "units": -1.0}, {"units": -2.0}, {"factor": -1.0},
           {"factor": 1.0, "units": 1.0}, {"units": 2.0}]
for k, off in enumerate(offsets):
    y0 = 1 - (k + 1) * 0.4 + 0.03
    y1 = y0 + 0.34
    # the plane tilts steeply in the first three rows, gently in the others
    za, zb = (-0.6, 0.7) if k < 3 else (0.1, 0.2)
    decal.append(tilted(-0.95, y0, 0.95, y1, [0.3, 0.3, 0.35, 1.0], za, zb,
                        {"depth_test": "less"}))
    t0 = 0.25
    mid = lambda t: za + (zb - za) * t
    state = {"depth_test": "less"}
    if off is not None:
        state["polygon_offset"] = off
    decal.append(tilted(-0.95 + 1.9 * t0, y0 + 0.06, 0.95 - 1.9 * t0, y1 - 0.06,
                        [1.0, 0.8, 0.1, 1.0], mid(t0), mid(1 - t0), state))
write("polygon_offset_decal.json", scene(256, 256, decal))


DUAL = ["src1_color", "one_minus_src1_color", "src1_alpha", "one_minus_src1_alpha"]


def dual_quad(draw):
    draw["fragment"] = "dual.frag"
    return draw


dual = [background()] + [dual_quad(d) for d in grid(
    4, 5,
    lambda r, c: {"blend": {"src": DUAL[r], "dst": (DUAL + ["one"])[c]}},
    SRC)]
write("dual_source.json", scene(320, 256, dual))
