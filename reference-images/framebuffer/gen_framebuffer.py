#!/usr/bin/env python3
"""Writes the render-target scenes of this folder (docs/scene-format.md "Render
targets"): several targets of mixed formats written by one draw, and an sRGB target
with GL_FRAMEBUFFER_SRGB on (blending in linear) and off."""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))

def quad(x0, y0, x1, y1, z, colors):
    pos = [x0, y0, z, x1, y0, z, x1, y1, z, x0, y1, z]
    return [
        {"location": 0, "size": 3, "data": pos},
        {"location": 1, "size": 4, "data": [c for col in colors for c in col]},
    ]

def draw(frag, attrs, state):
    return {"vertex": "color.vert", "fragment": frag, "attributes": attrs,
            "indices": [0, 1, 2, 0, 2, 3], "state": state}

def write(name, scene):
    with open(os.path.join(HERE, name + ".json"), "w") as f:
        json.dump(scene, f, indent=1)
        f.write("\n")

grad = [[0.9, 0.1, 0.2, 1.0], [0.1, 0.8, 0.3, 0.6], [0.2, 0.3, 0.9, 0.2], [1.0, 1.0, 0.1, 0.9]]
back = [[0.3, 0.6, 0.6, 1.0]] * 4
write("mrt_mixed", {
    "format": "csir-scene/1", "width": 160, "height": 120,
    "targets": [{"format": "rgba8"}, {"format": "rgba16f"}, {"format": "r32f"}, {"format": "rgba32ui"}],
    "clear": {"color": [[0.1, 0.1, 0.1, 1.0], [-2.0, 0.5, 100.0, 1.0], [7.0, 0, 0, 0], [1, 2, 3, 4000000000]]},
    "draws": [
        draw("mrt.frag", quad(-0.9, -0.9, 0.5, 0.6, 0.2, grad), {"depth_test": "less"}),
        draw("mrt.frag", quad(-0.3, -0.5, 0.9, 0.9, 0.5, back), {"depth_test": "less"}),
    ],
})

# sRGB: a linear gradient, then a half-transparent white quad blended over it.
ramp = [[0.0, 0.0, 0.0, 1.0], [1.0, 0.5, 0.25, 1.0], [1.0, 0.5, 0.25, 1.0], [0.0, 0.0, 0.0, 1.0]]
veil = [[1.0, 1.0, 1.0, 0.5]] * 4
for name, srgb in [("srgb_on", True), ("srgb_off", False)]:
    write(name, {
        "format": "csir-scene/1", "width": 128, "height": 64,
        "targets": [{"format": "srgb8_alpha8"}],
        "framebuffer_srgb": srgb,
        "clear": {"color": [0.0, 0.0, 0.0, 1.0]},
        "draws": [
            draw("color.frag", quad(-1, -1, 1, 1, 0.0, ramp), {"depth_test": "none"}),
            draw("color.frag", quad(-1, 0.0, 1, 1, 0.0, veil), {"depth_test": "none", "blend": "alpha"}),
        ],
    })
