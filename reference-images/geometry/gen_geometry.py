#!/usr/bin/env python3
"""Writes the geometry-shader reference scenes (GL 3.2 §2.12, GLSL 1.50 §8.10). Their
reference images are llvmpipe's, made with
`csir-render check reference-images/geometry --backend gl --update`.

- amplify.json: two triangles in, each emitted three times by amplify.geom (shrunk,
  shifted, tinted by copy and by gl_PrimitiveIDIn; the last copy a four-vertex strip).
- sprites.json: twelve points in, each a quad (a four-vertex triangle strip) from
  sprites.geom, with a flat corner number that darkens the strip's second triangle
  (provoking vertex 2 in the last-vertex convention... corner 3) so the strip order
  and provoking vertex show; a second draw with the first-vertex convention.
"""
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, scene):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(scene, f, indent=1)
        f.write("\n")


def amplify():
    pos = [-0.9, -0.8, -0.2, -0.7, -0.6, 0.1,
           -0.1, 0.1, 0.5, 0.2, 0.0, 0.9]
    colors = [1, 0.3, 0.3, 1, 0.3, 1, 0.3, 1, 0.3, 0.4, 1, 1,
              1, 0.9, 0.2, 1, 0.9, 0.3, 0.9, 1, 0.2, 0.8, 0.9, 1]
    return {
        "format": "csir-scene/1",
        "width": 256,
        "height": 256,
        "clear": {"color": [0.08, 0.08, 0.1, 1.0]},
        "draws": [{
            "vertex": "../shaders/color2d.vert",
            "geometry": "amplify.geom",
            "fragment": "geom_color.frag",
            "attributes": [
                {"location": 0, "size": 2, "data": pos},
                {"location": 1, "size": 4, "data": colors},
            ],
            "uniforms": {"shift": [0.32, 0.05]},
        }],
    }


def sprites():
    pos, colors, sizes = [], [], []
    for i in range(12):
        a = 2 * math.pi * i / 12
        r = 0.3 + 0.45 * (i % 2)
        pos += [round(r * math.cos(a), 5), round(r * math.sin(a), 5)]
        hue = [(1, 0.3, 0.2), (0.2, 0.9, 0.3), (0.3, 0.4, 1), (1, 0.9, 0.2)][i % 4]
        colors += list(hue) + [1]
        sizes.append(1.0 + 0.5 * (i % 3))

    def draw(provoking, sizes_scale):
        return {
            "vertex": "sprite.vert",
            "geometry": "sprites.geom",
            "fragment": "sprite.frag",
            "primitive": "points",
            "attributes": [
                {"location": 0, "size": 2, "data": pos},
                {"location": 1, "size": 4, "data": colors},
                {"location": 2, "size": 1, "data": sizes},
            ],
            "uniforms": {"size": [sizes_scale]},
            "state": {"provoking_vertex": provoking},
        }

    scene = {
        "format": "csir-scene/1",
        "width": 256,
        "height": 256,
        "clear": {"color": [0.05, 0.05, 0.08, 1.0]},
        "draws": [draw("last", 0.06), draw("first", 0.025)],
    }
    return scene


write("amplify.json", amplify())
write("sprites.json", sprites())
