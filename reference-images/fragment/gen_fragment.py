#!/usr/bin/env python3
"""Writes the per-fragment operation scenes of this folder (OpenGL 3.3 core §4.1,
docs/scene-format.md "Per-fragment operations"). Their reference images are llvmpipe's,
made with `csir-render check reference-images/fragment --backend gl --update`.

- blend_factors.json: a 15x15 grid, source factor by row (top row `zero`), destination
  factor by column, every factor of GL 3.3 but the dual-source ones, over a background
  whose colour and alpha vary across the frame, with a blend colour;
- blend_equations.json: a 5x5 grid, RGB equation by row, alpha equation by column,
  with separate RGB and alpha factors.
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
