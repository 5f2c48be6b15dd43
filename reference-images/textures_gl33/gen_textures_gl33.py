#!/usr/bin/env python3
"""Writes the GL 3.3 texture scenes of this folder (docs/scene-format.md "GL 3.3
textures"): one 64x64 frame per target or rule, a full-frame quad whose texture
coordinate runs over [U0, U1] and a fragment shader that samples the scene's one
texture. Their reference images are llvmpipe's, made with
`csir-render check reference-images/textures_gl33 --backend gl --update`.

Scenes: a 2D array (linear, layer from s), a 3D texture (trilinear, rgba32f), a cube
map (nearest and linear; and with `seamless_cube_map` across a corner, also with a
shadow cube sampler; `cube_seams` is the same corner without it), `textureGrad` on a
mipmapped cube map and 3D texture, a shadow 2D sampler with linear filtering (compare each tap
then filter), clamp_to_border with a border colour on r8 and rgba8, an integer
texture read by texelFetch, a 1D texture, a rectangle texture, a 1D array, an sRGB
texture, a mipmapped 2D array read by textureLod, and arrays of samplers bound by
element (`tex[2]`).
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
W = H = 64


def quad(u0, u1):
    return [
        {"location": 0, "size": 2, "data": [-1, -1, 1, -1, 1, 1, -1, 1]},
        {"location": 2, "size": 2, "data": [u0, u0, u1, u0, u1, u1, u0, u1]},
    ]


def rgba8_pattern(w, h, layers, seed):
    """Distinct, smooth-ish colours per texel and layer (0..255)."""
    data = []
    for z in range(layers):
        for y in range(h):
            for x in range(w):
                r = (x * 255 // max(1, w - 1) + 37 * z + seed) % 256
                g = (y * 255 // max(1, h - 1) + 91 * z) % 256
                b = (60 + 70 * z + 23 * ((x + y) % 3) + seed) % 256
                data += [r, g, b, 255]
    return data


FRAG = {}
FRAG["array2d"] = """#version 330 core
in vec2 vUV;
out vec4 c;
uniform sampler2DArray uTex;
void main() {
    c = texture(uTex, vec3(vUV * 2.0, floor(vUV.x * 3.0)));
}
"""
FRAG["volume3d"] = """#version 330 core
in vec2 vUV;
out vec4 c;
uniform sampler3D uTex;
void main() {
    c = texture(uTex, vec3(vUV, 0.1 + 0.8 * vUV.x * vUV.y));
}
"""
FRAG["cube"] = """#version 330 core
in vec2 vUV;
out vec4 c;
uniform samplerCube uTex;
void main() {
    vec2 p = vUV * 4.0 - 2.0;
    c = texture(uTex, vec3(p.x, p.y, 1.0 - 0.3 * p.x));
}
"""
FRAG["cube_corner"] = """#version 330 core
in vec2 vUV;
out vec4 c;
uniform samplerCube uTex;
void main() {
    // The plane through the corner (1, 1, 1) across the diagonal: +x, +y and +z meet.
    vec2 p = vUV * 2.0 - 1.0;
    c = texture(uTex, vec3(1.0) + vec3(p.x, p.y, -p.x - p.y) * 0.9);
}
"""
FRAG["cube_shadow_corner"] = """#version 330 core
in vec2 vUV;
out vec4 c;
uniform samplerCubeShadow uTex;
void main() {
    vec2 p = vUV * 2.0 - 1.0;
    float s = texture(uTex, vec4(vec3(1.0) + vec3(p.x, p.y, -p.x - p.y) * 0.9, 0.5));
    c = vec4(s, 0.5 * s, 1.0 - s, 1.0);
}
"""
FRAG["cube_grad"] = """#version 330 core
in vec2 vUV;
out vec4 c;
uniform samplerCube uTex;
void main() {
    vec2 p = vUV * 2.0 - 1.0;
    float g = exp2(vUV.y * 5.0) / 32.0;
    c = textureGrad(uTex, vec3(p.x, p.y, 1.0 - 0.3 * p.x),
                    vec3(g, 0.0, 0.0), vec3(0.0, 0.5 * g, 0.25 * g));
}
"""
FRAG["volume3d_grad"] = """#version 330 core
in vec2 vUV;
out vec4 c;
uniform sampler3D uTex;
void main() {
    float g = exp2(vUV.y * 5.0) / 32.0;
    c = textureGrad(uTex, vec3(vUV, 0.5 * vUV.x + 0.25),
                    vec3(g, 0.0, 0.0), vec3(0.0, 0.25 * g, 0.5 * g));
}
"""
FRAG["sampler_array"] = """#version 330 core
in vec2 vUV;
out vec4 c;
uniform sampler2D tex[3];
uniform sampler3D vol[2];
const int LAST = 2;
vec4 half_of(sampler2D t, vec2 uv) { return 0.5 * texture(t, uv); }
void main() {
    c = half_of(tex[0], vUV) + half_of(tex[LAST], vUV.yx) * vec4(1.0, 1.0, 0.0, 1.0)
        + vec4(0.0, 0.0, texture(vol[1], vec3(vUV, 0.5)).b, 0.0);
}
"""
FRAG["shadow2d"] = """#version 330 core
in vec2 vUV;
out vec4 c;
uniform sampler2DShadow uTex;
void main() {
    float s = texture(uTex, vec3(vUV, 0.2 + 0.6 * vUV.y));
    c = vec4(s, s * 0.5, 1.0 - s, 1.0);
}
"""
FRAG["plain2d"] = """#version 330 core
in vec2 vUV;
out vec4 c;
uniform sampler2D uTex;
void main() {
    c = texture(uTex, vUV);
}
"""
FRAG["int2d"] = """#version 330 core
in vec2 vUV;
out vec4 c;
uniform isampler2D uTex;
void main() {
    ivec4 t = texelFetch(uTex, ivec2(vUV * 4.0), 0);
    c = vec4(t) / 100.0;
}
"""
FRAG["tex1d"] = """#version 330 core
in vec2 vUV;
out vec4 c;
uniform sampler1D uTex;
void main() {
    c = texture(uTex, vUV.x * 2.0 - 0.25) * (0.5 + 0.5 * vUV.y);
}
"""
FRAG["rect"] = """#version 330 core
in vec2 vUV;
out vec4 c;
uniform sampler2DRect uTex;
void main() {
    c = texture(uTex, vUV * vec2(6.0, 4.0));
}
"""
FRAG["array1d"] = """#version 330 core
in vec2 vUV;
out vec4 c;
uniform sampler1DArray uTex;
void main() {
    c = texture(uTex, vec2(vUV.x, vUV.y * 4.0 - 0.5));
}
"""
FRAG["array2d_lod"] = """#version 330 core
in vec2 vUV;
out vec4 c;
uniform sampler2DArray uTex;
void main() {
    c = textureLod(uTex, vec3(vUV, 1.0), floor(vUV.y * 4.0) * 0.75);
}
"""


def scene(name, frag, texture, sampler, u0=0.0, u1=1.0, root=None):
    with open(os.path.join(HERE, f"{frag}.frag"), "w") as f:
        f.write(FRAG[frag])
    doc = {
        "format": "csir-scene/1",
        "width": W,
        "height": H,
        "clear": {"color": [0.1, 0.1, 0.1, 1.0]},
        "textures": {"tex": texture},
        "draws": [{
            "vertex": "../shaders/textured.vert",
            "fragment": f"{frag}.frag",
            "attributes": quad(u0, u1),
            "indices": [0, 1, 2, 0, 2, 3],
            "samplers": {"uTex": dict({"texture": "tex"}, **sampler)},
            "state": {"depth_test": "none"},
        }],
    }
    doc.update(root or {})
    with open(os.path.join(HERE, f"{name}.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


scene("array2d_linear", "array2d",
      {"target": "2d_array", "width": 4, "height": 4, "depth": 3,
       "data": rgba8_pattern(4, 4, 3, 0)},
      {"filter": "linear", "wrap": "repeat"})
vol = []
for z in range(4):
    for y in range(4):
        for x in range(4):
            vol += [x / 3.0, y / 3.0, z / 3.0, 1.0]
scene("volume3d_rgba32f", "volume3d",
      {"target": "3d", "format": "rgba32f", "width": 4, "height": 4, "depth": 4, "data": vol},
      {"filter": "linear", "wrap": "clamp"})
scene("cube_nearest", "cube",
      {"target": "cube", "width": 2, "height": 2, "data": rgba8_pattern(2, 2, 6, 11)},
      {"filter": "nearest"})
scene("cube_linear", "cube",
      {"target": "cube", "width": 2, "height": 2, "data": rgba8_pattern(2, 2, 6, 11)},
      {"filter": "linear"})
depth = []
for y in range(8):
    for x in range(8):
        depth.append(round((x + 0.5 * y) / 11.5, 4))
scene("shadow2d_linear", "shadow2d",
      {"format": "depth32f", "width": 8, "height": 8, "data": depth},
      {"filter": "linear", "compare": "lequal"})
scene("border_rgba8", "plain2d",
      {"width": 4, "height": 4, "data": rgba8_pattern(4, 4, 1, 5)},
      {"filter": "linear", "wrap": "clamp_to_border", "border_color": [0.2, 0.6, 0.9, 1.0]},
      -0.5, 1.5)
scene("border_r8_mixed_wraps", "plain2d",
      {"format": "r8", "width": 4, "height": 4, "data": [20 + 15 * i for i in range(16)]},
      {"filter": "nearest", "wrap_s": "clamp_to_border", "wrap_t": "mirror",
       "border_color": [0.7, 0.3, 0.1, 0.5]},
      -0.5, 1.5)
ints = []
for y in range(4):
    for x in range(4):
        ints += [10 * x + 5, 25 * y, 100 - 20 * x, 100]
scene("int_texel_fetch", "int2d",
      {"format": "rgba32i", "width": 4, "height": 4, "data": ints},
      {"filter": "nearest"})
scene("tex1d_linear_repeat", "tex1d",
      {"target": "1d", "width": 8, "data": rgba8_pattern(8, 1, 1, 3)},
      {"filter": "linear", "wrap": "repeat"})
scene("rect_nearest", "rect",
      {"target": "rectangle", "width": 6, "height": 4, "data": rgba8_pattern(6, 4, 1, 9)},
      {"filter": "nearest"})
scene("array1d_linear", "array1d",
      {"target": "1d_array", "width": 4, "height": 4, "data": rgba8_pattern(4, 4, 1, 21)},
      {"filter": "linear", "wrap": "mirror"})
scene("srgb_linear", "plain2d",
      {"format": "srgb8_alpha8", "width": 4, "height": 4, "data": rgba8_pattern(4, 4, 1, 40)},
      {"filter": "linear"})
scene("array2d_mip_lod", "array2d_lod",
      {"target": "2d_array", "width": 8, "height": 8, "depth": 2,
       "data": rgba8_pattern(8, 8, 2, 7)},
      {"min_filter": "linear_mipmap_linear", "mag_filter": "linear"})
cube_faces = rgba8_pattern(4, 4, 6, 17)
scene("cube_seamless", "cube_corner",
      {"target": "cube", "width": 4, "height": 4, "data": cube_faces},
      {"filter": "linear"}, root={"seamless_cube_map": True})
scene("cube_seams", "cube_corner",
      {"target": "cube", "width": 4, "height": 4, "data": cube_faces},
      {"filter": "linear"})
cube_depth = []
for z in range(6):
    for y in range(4):
        for x in range(4):
            cube_depth.append(round(((x + 2 * y + 3 * z) % 7) / 6.0, 4))
scene("cube_shadow_seamless", "cube_shadow_corner",
      {"target": "cube", "format": "depth32f", "width": 4, "height": 4, "data": cube_depth},
      {"filter": "linear", "compare": "lequal"}, root={"seamless_cube_map": True})
scene("cube_grad", "cube_grad",
      {"target": "cube", "width": 8, "height": 8, "data": rgba8_pattern(8, 8, 6, 29)},
      {"min_filter": "linear_mipmap_linear", "mag_filter": "linear"})
# rgba32f: llvmpipe makes an RGBA8 3D chain with 8-bit lerps, which drift from the
# f32 filter by 1/255 per level; a float chain isolates textureGrad's level choice.
scene("volume3d_grad", "volume3d_grad",
      {"target": "3d", "format": "rgba32f", "width": 8, "height": 8, "depth": 8,
       "data": [v / 255.0 for v in rgba8_pattern(8, 8, 8, 3)]},
      {"min_filter": "linear_mipmap_linear", "mag_filter": "linear", "wrap": "repeat"})
with open(os.path.join(HERE, "sampler_array.frag"), "w") as f:
    f.write(FRAG["sampler_array"])
doc = {
    "format": "csir-scene/1",
    "width": W,
    "height": H,
    "clear": {"color": [0.1, 0.1, 0.1, 1.0]},
    "textures": {
        "a": {"width": 4, "height": 4, "data": rgba8_pattern(4, 4, 1, 50)},
        "b": {"width": 4, "height": 4, "data": rgba8_pattern(4, 4, 1, 120)},
        "v": {"target": "3d", "width": 4, "height": 4, "depth": 2,
              "data": rgba8_pattern(4, 4, 2, 77)},
    },
    "draws": [{
        "vertex": "../shaders/textured.vert",
        "fragment": "sampler_array.frag",
        "attributes": quad(0.0, 1.0),
        "indices": [0, 1, 2, 0, 2, 3],
        "samplers": {
            "tex[0]": {"texture": "a", "filter": "linear"},
            "tex[1]": {"texture": "a", "filter": "nearest"},
            "tex[2]": {"texture": "b", "filter": "nearest"},
            "vol[0]": {"texture": "v", "filter": "nearest"},
            "vol[1]": {"texture": "v", "filter": "linear"},
        },
        "state": {"depth_test": "none"},
    }],
}
with open(os.path.join(HERE, "sampler_array.json"), "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
