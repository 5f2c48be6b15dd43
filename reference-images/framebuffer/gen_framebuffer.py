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

# Multisampling (docs/scene-format.md "Multisampling"): 4 samples per pixel.
def tri(points, z, colors):
    pos = [c for (x, y), zz in zip(points, z) for c in (x, y, zz)]
    return [
        {"location": 0, "size": 3, "data": pos},
        {"location": 1, "size": 4, "data": [c for col in colors for c in col]},
    ]

def tri_draw(attrs, state):
    return {"vertex": "color.vert", "fragment": "color.frag", "attributes": attrs,
            "state": state}

red, green, blue = [1.0, 0.2, 0.1, 1.0], [0.1, 0.9, 0.2, 1.0], [0.2, 0.3, 1.0, 1.0]
yellow, white = [1.0, 0.9, 0.1, 1.0], [1.0, 1.0, 1.0, 1.0]
less = {"depth_test": "less"}
write("msaa_edges", {
    "format": "csir-scene/1", "width": 128, "height": 96, "samples": 4,
    "clear": {"color": [0.05, 0.05, 0.1, 1.0]},
    "draws": [
        # thin slivers at shallow and steep slopes, thinner than a pixel in places
        tri_draw(tri([(-0.95, -0.9), (0.9, -0.75), (-0.95, -0.87)], [0.5] * 3, [white] * 3), less),
        tri_draw(tri([(-0.9, -0.6), (-0.86, -0.6), (-0.7, 0.95)], [0.5] * 3, [yellow] * 3), less),
        tri_draw(tri([(-0.6, 0.9), (0.1, -0.6), (-0.55, 0.9)], [0.5] * 3, [red, green, blue]), less),
        # two triangles crossing in depth: the intersection is resolved per sample
        tri_draw(tri([(-0.2, -0.5), (0.9, -0.3), (0.3, 0.9)], [-0.6, 0.6, 0.0], [red] * 3), less),
        tri_draw(tri([(-0.1, 0.6), (0.2, -0.6), (0.95, 0.5)], [0.3, -0.5, 0.2], [blue] * 3), less),
        # sample_coverage halves: samples 0-1, then the complementary 2-3
        tri_draw(tri([(0.4, -0.95), (0.95, -0.95), (0.95, -0.4)], [-0.9] * 3, [green] * 3),
                 {"depth_test": "less", "sample_coverage": {"value": 0.5}}),
        tri_draw(tri([(0.4, -0.95), (0.95, -0.4), (0.4, -0.4)], [-0.9] * 3, [yellow] * 3),
                 {"depth_test": "less", "sample_coverage": {"value": 0.5, "invert": True}}),
    ],
})

ramp_a = [[1.0, 0.8, 0.2, 0.0], [1.0, 0.8, 0.2, 1.0], [1.0, 0.8, 0.2, 1.0], [1.0, 0.8, 0.2, 0.0]]
ramp_b = [[0.2, 0.6, 1.0, 0.0], [0.2, 0.6, 1.0, 0.0], [0.2, 0.6, 1.0, 1.0], [0.2, 0.6, 1.0, 1.0]]
write("alpha_to_coverage", {
    "format": "csir-scene/1", "width": 128, "height": 64, "samples": 4,
    "clear": {"color": [0.1, 0.1, 0.1, 1.0]},
    "draws": [
        # alpha 0 → 1 left to right: 0, 1, 2, 3, 4 samples covered in bands
        draw("color.frag", quad(-0.95, -0.9, 0.95, 0.0, 0.0, ramp_a),
             {"depth_test": "less", "alpha_to_coverage": True}),
        # alpha 0 → 1 bottom to top, in front, blended over what is there: the
        # samples alpha drops keep the first quad's colour
        draw("color.frag", quad(-0.5, -0.5, 0.6, 0.95, -0.5, ramp_b),
             {"depth_test": "less", "alpha_to_coverage": True, "blend": "alpha"}),
    ],
})
