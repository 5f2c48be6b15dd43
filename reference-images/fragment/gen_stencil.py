#!/usr/bin/env python3
"""Writes the stencil and depth-clamp scenes of this folder (OpenGL 3.3 core §4.1.4,
§2.20; docs/scene-format.md "Stencil and depth clamp"). Their reference images are
llvmpipe's, made with `csir-render check reference-images/fragment --backend gl --update`.

- stencil_shadow_volume.json: a tilted floor, then two overlapping box volumes drawn
  with no colour and no depth write, front faces `incr_wrap` and back faces
  `decr_wrap` on depth pass (back faces first, so a volume in front of the floor
  wraps 0 -> 255 -> 0: the right part of the first volume, where the floor is behind
  it), then a frame-covering quad darkening where stencil != 0 and another where it
  is 2: the shadow is where the floor lies inside a volume (1 or 2 volumes deep);
- stencil_masks.json: clear stencil 0x0f, `replace` through write masks, `invert`,
  `incr` / `decr` saturating and `zero` as fail ops of a `never` test, a back-facing
  triangle with its own ref and ops, then strips reading the values back with
  `equal`, `less`, `gequal` and value masks;
- depth_clamp.json: quads crossing the near and far planes (z from -1.6 to 1.6)
  drawn with depth_clamp (not clipped: their depth clamps to the depth range and
  they meet a flat quad at depth 0 as their clamped depths say), one with a depth
  range of [0.25, 0.75], and one without depth_clamp (clipped at z = ±1).
"""
import json
import os


def quad(x0, y0, x1, y1, color, z=0.0, state=None, zr=None, cw=False):
    """A draw of the rectangle (x0, y0)-(x1, y1) in NDC at depth z (or z at the left,
    zr at the right), counter-clockwise (front facing) unless cw."""
    zr = z if zr is None else zr
    pos = [x0, y0, z, x1, y0, zr, x1, y1, zr, x0, y1, z]
    draw = {
        "vertex": "color.vert",
        "fragment": "color.frag",
        "attributes": [
            {"location": 0, "size": 3, "data": [round(v, 6) for v in pos]},
            {"location": 1, "size": 4, "data": color * 4},
        ],
        "indices": [0, 2, 1, 0, 3, 2] if cw else [0, 1, 2, 0, 2, 3],
        "state": {"depth_test": "none"},
    }
    if state:
        draw["state"].update(state)
    return draw


def scene(width, height, draws, clear=None):
    c = {"color": [0.1, 0.1, 0.15, 1.0]}
    c.update(clear or {})
    return {"format": "csir-scene/1", "width": width, "height": height,
            "clear": c, "draws": draws}


def write(name, value):
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, name), "w") as f:
        json.dump(value, f, indent=1)
        f.write("\n")


NO_COLOR = [False, False, False, False]

# ---- shadow volume (z-pass) ----
volume_state = {
    "depth_test": "less", "depth_write": False, "color_mask": NO_COLOR,
    "stencil": {"front": {"pass": "incr_wrap"}, "back": {"pass": "decr_wrap"}},
}
shadow = [
    # floor: depth from -0.6 (left) to 0.8 (right)
    quad(-0.95, -0.95, 0.95, 0.95, [0.75, 0.7, 0.6, 1.0], z=-0.6, zr=0.8,
         state={"depth_test": "less"}),
]
for (x0, y0, x1, y1, zf, zb) in [(-0.8, -0.5, 0.3, 0.6, -0.3, 0.1),
                                  (-0.1, -0.7, 0.7, 0.2, 0.0, 0.9)]:
    # back face (clockwise) first, then the front face
    shadow.append(quad(x0, y0, x1, y1, [1, 0, 0, 1], z=zb, state=volume_state, cw=True))
    shadow.append(quad(x0, y0, x1, y1, [0, 1, 0, 1], z=zf, state=volume_state))
shadow.append(quad(-1, -1, 1, 1, [0.0, 0.0, 0.1, 0.6],
                   state={"blend": "alpha",
                          "stencil": {"func": "notequal", "ref": 0}}))
# where two volumes overlap the floor, stencil is 2: a second, redder darkening
shadow.append(quad(-1, -1, 1, 1, [0.5, 0.0, 0.0, 0.5],
                   state={"blend": "alpha",
                          "stencil": {"func": "equal", "ref": 2}}))
write("stencil_shadow_volume.json", scene(256, 256, shadow))

# ---- ref / masks / replace / invert ----
masks = [
    # stencil 0x0f everywhere; replace 0xa5 through write mask 0xf0 -> 0xaf
    quad(-0.9, -0.9, 0.2, 0.9, [0.2, 0.2, 0.2, 1.0],
         state={"stencil": {"pass": "replace", "ref": 0xa5, "write_mask": 0xf0}}),
    # invert bits 2..5 -> 0x0f ^ 0x3c = 0x33, 0xaf ^ 0x3c = 0x93
    quad(-0.3, -0.6, 0.8, 0.6, [0.3, 0.3, 0.3, 1.0],
         state={"stencil": {"pass": "invert", "write_mask": 0x3c}}),
    # a never test: fail ops only. decr (0x33 -> 0x32, 0x93 -> 0x92) in a band,
    # zero in another, incr where 0x0f (-> 0x10)
    quad(-0.95, 0.3, 0.95, 0.45, [1, 1, 1, 1],
         state={"stencil": {"func": "never", "fail": "decr"}}),
    quad(-0.95, -0.45, 0.95, -0.3, [1, 1, 1, 1],
         state={"stencil": {"func": "never", "fail": "zero", "write_mask": 0x0f}}),
    quad(0.82, -0.95, 0.95, 0.95, [1, 1, 1, 1],
         state={"stencil": {"func": "never", "fail": "incr"}}),
    # a back-facing triangle strip (clockwise): only the back state applies
    quad(-0.7, -0.95, 0.6, -0.75, [1, 1, 1, 1], cw=True,
         state={"color_mask": NO_COLOR,
                "stencil": {"front": {"pass": "zero"},
                            "back": {"pass": "replace", "ref": 0x55}}}),
]
# read back: colour by value
reads = [
    ({"func": "equal", "ref": 0xaf}, [0.9, 0.2, 0.2, 1]),
    ({"func": "equal", "ref": 0x93}, [0.2, 0.9, 0.2, 1]),
    ({"func": "equal", "ref": 0x33}, [0.2, 0.2, 0.9, 1]),
    ({"func": "equal", "ref": 0x0f}, [0.9, 0.9, 0.2, 1]),
    ({"func": "equal", "ref": 0x05, "value_mask": 0x0f}, [0.9, 0.5, 0.1, 1]),
    ({"func": "equal", "ref": 0x55}, [0.6, 0.2, 0.8, 1]),
    ({"func": "equal", "ref": 0x10}, [0.2, 0.8, 0.8, 1]),
    # ref < (stored & 0xf0): stored's high nibble above 0x30
    ({"func": "less", "ref": 0x30, "value_mask": 0xf0}, [1.0, 1.0, 1.0, 0.3]),
    ({"func": "gequal", "ref": 0x02, "value_mask": 0x03}, [0.0, 0.0, 0.0, 0.4]),
]
for k, (s, color) in enumerate(reads):
    state = {"stencil": s}
    if color[3] < 1:
        state["blend"] = "alpha"
    # each read covers the whole frame except a strip at the left per read
    masks.append(quad(-1 + 0.04 * k, -1, 1, 1, color, state=state))
write("stencil_masks.json", scene(256, 256, masks, {"stencil": 0x0f}))

# ---- depth clamp ----
clamp = [
    quad(-0.95, -0.95, 0.95, 0.95, [0.5, 0.5, 0.55, 1.0], z=0.0,
         state={"depth_test": "less"}),
    # crosses both planes: z -1.6 .. 1.6, clamped: in front on the left, behind on
    # the right of where it meets z = 0 (the middle)
    quad(-0.9, 0.4, 0.9, 0.9, [0.9, 0.3, 0.2, 1.0], z=-1.6, zr=1.6,
         state={"depth_test": "less", "depth_clamp": True}),
    # the same, right to left, with depth range [0.25, 0.75]: depth stays in it
    quad(-0.9, -0.2, 0.9, 0.3, [0.2, 0.8, 0.3, 1.0], z=1.6, zr=-1.6,
         state={"depth_test": "less", "depth_clamp": True,
                "depth_range": [0.25, 0.75]}),
    # without depth_clamp: clipped at z = -1 and z = 1
    quad(-0.9, -0.8, 0.9, -0.3, [0.2, 0.4, 0.9, 1.0], z=-1.6, zr=1.6,
         state={"depth_test": "less"}),
    # depth_clamp with `always` then `equal` on the clamped region: the far part
    # clamps to 1.0 exactly
    quad(-0.9, -0.95, 0.9, -0.82, [0.9, 0.9, 0.2, 1.0], z=-1.6, zr=1.6,
         state={"depth_test": "always", "depth_clamp": True}),
    quad(-0.9, -0.95, 0.9, -0.82, [0.1, 0.1, 0.1, 1.0], z=1.0,
         state={"depth_test": "equal"}),
]
write("depth_clamp.json", scene(256, 256, clamp))
