#!/usr/bin/env python3
"""Generate the shader-corpus scenes under corpus/.

Every shader of the front end's corpus (shaders/tests/corpus/, realistic GLSL 3.30
written the way people write it: loops over uniform arrays, const arrays, bvec
built-ins, atan, mat2, ...) is drawn once here, so that Mesa llvmpipe renders it and
tests/reference_scenes.rs compares csir-render's image with llvmpipe's. Fragment
shaders each fill one 128x128 tile (tile.vert passes a 0..1 coordinate); the vertex
shaders draw meshes through view-projection matrices that place them in a quadrant.

Reuses gen_scenes.py's helpers (float32-exact decimals, column-major matrices, the
JSON layout).

    python3 gen_corpus_scenes.py     # (re)writes corpus/*.json

Then render every expected image with Mesa llvmpipe (see README.md).
"""
import math
import os

import numpy as np

from gen_scenes import HERE, colmajor, dump, f32, look_at, perspective

CORPUS = "../../shaders/tests/corpus/"
TILE = 128
COLUMNS, ROWS = 4, 2
WIDTH, HEIGHT = TILE * COLUMNS, TILE * ROWS
FLAT = {"depth_test": "none", "cull": "none", "blend": "none"}


def tile_corners(index):
    """The NDC corners of tile `index` (row-major from the top left), counter-clockwise
    from the bottom left, as the flat list of a 2-component position attribute."""
    col, row = index % COLUMNS, index // COLUMNS
    x0 = -1.0 + 2.0 * col / COLUMNS
    x1 = -1.0 + 2.0 * (col + 1) / COLUMNS
    y1 = 1.0 - 2.0 * row / ROWS
    y0 = 1.0 - 2.0 * (row + 1) / ROWS
    return [f32(v) for v in (x0, y0, x1, y0, x1, y1, x0, y1)]


def tile(index, fragment, uniforms=None, samplers=None, ints=None):
    """A draw filling tile `index` (row-major from the top left) with `fragment`;
    `ints` are integer uniforms, written as exact JSON integers."""
    draw = {
        "vertex": CORPUS + "tile.vert",
        "fragment": CORPUS + fragment,
        "attributes": [
            {"location": 0, "size": 2, "data": tile_corners(index)},
            {"location": 1, "size": 2, "data": [0, 0, 1, 0, 1, 1, 0, 1]},
        ],
        "indices": [0, 1, 2, 0, 2, 3],
        "state": FLAT,
    }
    if uniforms:
        draw["uniforms"] = {k: [f32(x) for x in v] for k, v in uniforms.items()}
    if ints:
        draw.setdefault("uniforms", {}).update(ints)
    if samplers:
        draw["samplers"] = samplers
    return draw


def scene(name, draws, clear=(0.0, 0.0, 0.0, 1.0), textures=None):
    s = {
        "format": "csir-scene/1", "width": WIDTH, "height": HEIGHT,
        "clear": {"color": list(clear), "depth": 1.0},
        "draws": draws,
    }
    if textures:
        s["textures"] = textures
    dump(os.path.join("corpus", name), s)


def normalized(v):
    v = np.asarray(v, float)
    return list(v / np.linalg.norm(v))


def scene_lighting():
    scene("corpus_lighting.json", [
        tile(0, "blinn_phong_lights.frag", {
            "uLightPos": [2.0, 2.0, 3.0, -2.5, 0.5, 2.0, 0.0, -2.0, 1.5],
            "uLightColor": [1.0, 0.9, 0.8, 0.3, 0.5, 1.0, 0.8, 0.3, 0.3],
            "uAlbedo": [0.8, 0.6, 0.5],
            "uShininess": [40.0],
        }),
        tile(1, "normal_map.frag", {
            # tangent, bitangent, normal of a plane tilted towards the viewer
            "uTBN": [1.0, 0.0, 0.0, 0.0, 0.8, -0.6, 0.0, 0.6, 0.8],
            "uLightDir": [0.4, 0.5, 0.8],
        }),
        tile(2, "toon.frag", {"uLightDir": [-0.5, 0.6, 0.7], "uBaseColor": [0.3, 0.7, 0.4]}),
        tile(3, "lambert_hemi.frag", {
            "uSky": [0.5, 0.7, 1.0], "uGround": [0.35, 0.25, 0.15], "uLightDir": [0.6, 0.5, 0.6],
        }),
        tile(4, "fresnel_rim.frag", {"uRimColor": [0.4, 0.8, 1.0], "uF0": [0.04]}),
        tile(5, "fog.frag", {"uFogColor": [0.7, 0.75, 0.8], "uDensity": [0.12]}),
        tile(6, "tonemap_reinhard.frag", {"uExposure": [1.5]}),
        tile(7, "tonemap_aces.frag", {"uExposure": [0.8]}),
    ])


def scene_procedural():
    scene("corpus_procedural.json", [
        tile(0, "value_noise.frag", {"uOffset": [3.25, 1.5]}),
        tile(1, "voronoi.frag", {"uJitter": [0.8]}),
        tile(2, "checker.frag", {"uColorA": [0.9, 0.9, 0.85], "uColorB": [0.2, 0.25, 0.3], "uScale": [6.0]}),
        tile(3, "bricks.frag", {"uBrick": [0.7, 0.3, 0.2], "uMortar": [0.8, 0.78, 0.72]}),
        tile(4, "grid_lines.frag"),
        tile(5, "rings.frag", {"uCenter": [0.4, 0.45], "uPhase": [1.3]}),
        tile(6, "stripes.frag", {"uFrequency": [3.0]}),
        tile(7, "halftone.frag"),
    ])


def scene_sdf():
    scene("corpus_sdf.json", [
        tile(0, "sdf_circle.frag", {"uRadius": [0.55]}),
        tile(1, "sdf_box.frag", {"uHalfSize": [0.5, 0.3]}),
        tile(2, "sdf_round_box.frag", {"uAngle": [0.35], "uCorner": [0.15]}),
        tile(3, "sdf_smooth_union.frag", {"uK": [0.25]}),
        tile(4, "sdf_segment.frag"),
        tile(5, "polar_flower.frag", {"uPetals": [5.0]}),
        tile(6, "rotated_grid.frag", {"uAngle": [0.5]}),
        tile(7, "bool_logic.frag"),
    ])


def scene_color():
    scene("corpus_color.json", [
        tile(0, "gradient_stops.frag"),
        tile(1, "vignette.frag", {"uStrength": [0.8]}),
        tile(2, "gamma.frag"),
        tile(3, "hsv_rgb.frag"),
        tile(4, "posterize.frag", {"uLevels": [4.0]}),
        tile(5, "cosine_palette.frag"),
        tile(6, "color_grade.frag", {"uSaturation": [1.3], "uContrast": [1.2], "uBrightness": [0.05]}),
        tile(7, "heatmap.frag"),
    ])


def quadrant_viewport(col, row):
    """Clip-space transform that maps NDC [-1,1]^2 onto quadrant (col, row) of the
    bottom half (two 256x128 quadrants), as a 4x4 matrix applied after projection."""
    sx, sy = 0.5, 0.5
    tx = -0.5 + col * 1.0
    ty = -0.5
    m = np.eye(4)
    m[0, 0], m[1, 1] = sx, sy
    m[0, 3], m[1, 3] = tx, ty   # multiplied by w: an NDC offset
    return m


def wave_draw():
    n = 24
    grid, idx = [], []
    for j in range(n + 1):
        for i in range(n + 1):
            grid += [f32(-1.0 + 2.0 * i / n), f32(-1.0 + 2.0 * j / n)]
    for j in range(n):
        for i in range(n):
            a = j * (n + 1) + i
            idx += [a, a + 1, a + n + 2, a, a + n + 2, a + n + 1]
    view = look_at((0.0, 1.3, 2.2), (0.0, 0.0, 0.0), (0.0, 1.0, 0.0))
    proj = perspective(45.0, 2.0, 0.1, 10.0)
    vp = quadrant_viewport(0, 1) @ proj @ view
    return {
        "vertex": CORPUS + "wave.vert", "fragment": CORPUS + "vertex_color.frag",
        "attributes": [{"location": 0, "size": 2, "data": grid}],
        "indices": idx,
        "uniforms": {
            "uViewProj": colmajor(vp),
            "uWaveDir": [f32(x) for x in normalized([1.0, 0.3]) + normalized([-0.4, 1.0])],
            "uTime": [0.7],
        },
        "state": {"depth_test": "less", "depth_write": True, "cull": "none", "blend": "none"},
    }


def skin_draw():
    segments = 10
    pos, weight, idx = [], [], []
    for k in range(segments + 1):
        x = -1.0 + 2.0 * k / segments
        w = min(max((x + 0.3) / 0.6, 0.0), 1.0)   # blend around the joint at x = 0
        for y in (-0.2, 0.2):
            pos += [f32(x), f32(y), 0.0]
            weight.append(f32(w))
    for k in range(segments):
        a = 2 * k
        idx += [a, a + 2, a + 3, a, a + 3, a + 1]
    c, s = math.cos(math.radians(50.0)), math.sin(math.radians(50.0))
    bone1 = np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], float)
    bone0 = np.eye(4)
    bone0[0, 3] = -0.2
    bone1[0, 3] = -0.2
    ortho = np.diag([0.7, 1.4, -1.0, 1.0])
    vp = quadrant_viewport(1, 1) @ ortho
    return {
        "vertex": CORPUS + "skin.vert", "fragment": CORPUS + "vertex_color.frag",
        "attributes": [
            {"location": 0, "size": 3, "data": pos},
            {"location": 1, "size": 1, "data": weight},
        ],
        "indices": idx,
        "uniforms": {"uBones": colmajor(bone0) + colmajor(bone1), "uViewProj": colmajor(vp)},
        "state": {"depth_test": "none", "cull": "none", "blend": "none"},
    }


def scene_misc():
    scene("corpus_misc.json", [
        tile(0, "dither.frag"),
        tile(1, "int_pattern.frag"),
        tile(2, "texture_pixelate.frag", {"uBlocks": [16.0]},
             {"uTex": {"texture": "checker", "filter": "nearest", "wrap": "clamp"}}),
        tile(3, "ripples.frag", {"uCenters": [0.3, 0.3, 0.75, 0.6, 0.4, 0.85], "uTime": [0.5]}),
        wave_draw(),
        skin_draw(),
    ], clear=(0.08, 0.08, 0.1, 1.0), textures={"checker": {"path": "../textures/checker.png"}})


def scene_data():
    """The data constructs: run-time indexes in assignments, uniform array
    initializers, arrays of mat2 uniforms, 32-bit integers, structs, implicitly sized
    arrays and converting out parameters, non-square matrices and matrix built-ins,
    matrices and arrays as varyings; IEEE float division (DIV); in/out interface blocks."""
    scene("corpus_data.json", [
        tile(0, "runtime_index.frag", {"uBoost": [0.5]}),
        # uBands keeps its initializer; uWeights is set, uTurn (mat2[2]) is set whole.
        tile(1, "uniform_arrays.frag", {
            "uWeights": [1.0, 0.7, 0.85, 0.6],
            "uTurn": [math.cos(0.4), math.sin(0.4), -math.sin(0.4), math.cos(0.4),
                      math.cos(-0.9), math.sin(-0.9), -math.sin(-0.9), math.cos(-0.9)],
        }),
        # 32-bit integers: uBig + y wraps past 2^31 - 1.
        tile(2, "int_bits.frag", ints={"uSeed": [12345], "uBig": [2147483647]}),
        # Structs: uniform members by OpenGL's names (an array of structs, a struct).
        tile(3, "structs.frag", {
            "uLights[0].pos": [0.2, 0.25], "uLights[0].color": [1.0, 0.55, 0.3],
            "uLights[0].radius": [0.6],
            "uLights[1].pos": [0.75, 0.5], "uLights[1].color": [0.3, 0.8, 0.5],
            "uLights[1].radius": [0.5],
            "uLights[2].pos": [0.4, 0.9], "uLights[2].color": [0.35, 0.45, 1.0],
            "uLights[2].radius": [0.7],
            "uFloor.albedo": [0.9, 0.8, 0.7], "uFloor.gloss": [0.5],
        }),
        # Implicitly sized arrays and out parameters that convert int -> float.
        tile(4, "implicit_arrays.frag"),
        matrices_tile(5),
        # IEEE division: x / 0 = +-inf, 0 / 0 = NaN, told apart by isinf / isnan.
        tile(6, "float_div.frag"),
        blocks_tile(7),
    ])


def blocks_tile(index):
    """Tile `index` drawn by block_tile.vert/.frag: an out block and the matching in
    block under another instance name, with an array and a matrix member (GLSL 1.50
    §4.3.7). Uniform blocks are not in the corpus: the peer tool sets uniforms by name
    and has no uniform buffers; piglit's uniform-block tests cover them."""
    draw = tile(index, "block_tile.frag")
    draw["vertex"] = CORPUS + "block_tile.vert"
    return draw


def matrices_tile(index):
    """Tile `index` drawn by matrices.vert/.frag: a mat3x2 uniform (column-major, 3
    columns of 2) made into a matrix varying and an array varying, and non-square
    products, transpose, determinant, inverse, outerProduct, matrixCompMult and
    refract in the fragment shader; uMix (mat2x3) holds two colours as columns."""
    draw = tile(index, "matrices.frag", {
        "uWarp": [1.1, 0.25, -0.3, 0.9, 0.15, -0.1],
        "uMix": [0.95, 0.55, 0.2, 0.15, 0.45, 0.85],
    })
    draw["vertex"] = CORPUS + "matrices.vert"
    return draw


def scene_texture():
    """The texture functions of GLSL 1.30 §8.7 beyond `texture`, each on
    npot5x3.png, whose 5x3 texels are easy to count in the image: textureSize
    (TEXSIZE), texelFetch and texelFetchOffset (TEXFETCH), textureOffset and its
    Proj/Lod forms (SAMPLE_OFFSET) in every filter and wrap mode."""
    scene("corpus_texture.json", [
        # textureSize: texel centres of a 5x3 texture under linear filtering.
        tile(0, "texture_size.frag", samplers={
            "uTex": {"texture": "npot", "filter": "linear", "wrap": "clamp"}}),
        # texelFetch: every texel and a ring of out-of-range indexes around them; the
        # repeat wrap and linear filter must not apply to a fetch.
        tile(1, "texel_fetch.frag", samplers={
            "uTex": {"texture": "npot", "filter": "linear", "wrap": "repeat"}}),
    ] + [
        # textureOffset and its Proj/Lod forms: one tile per filter and wrap mode, on
        # the non-power-of-two texture (left half) and tiny4.png (right half), whose
        # repeat wraps take different paths in llvmpipe.
        tile(2 + k, "texture_offset.frag", samplers={
            "uTex": {"texture": "npot", "filter": f, "wrap": w},
            "uPot": {"texture": "pot", "filter": f, "wrap": w}})
        for k, (f, w) in enumerate(
            (f, w) for w in ("clamp", "repeat", "mirror") for f in ("nearest", "linear"))
    ], textures={"npot": {"path": "../textures/npot5x3.png"},
                 "pot": {"path": "../textures/tiny4.png"}})


def scene_clip():
    """User clip distances, in a scene of their own: --backend virgl refuses clip
    planes (tests/virgl_parity.rs expects that refusal here)."""
    scene("corpus_clip.json", [clip_distance_tile(0)])


def clip_distance_tile(index):
    """Tile `index` drawn through clip_distance.vert, which writes gl_ClipDistance[0..3]
    (four planes around the tile's centre), showing dither.frag. The scene enables clip
    planes 0..3 (state.clip_planes; gl_ClipDistance replaces the equations). peer-render
    reads no clip-plane state; llvmpipe clips by every distance the shader writes (its
    redeclared size, 4) all the same, which is what enabling 0..3 asks."""
    draw = tile(index, "dither.frag")
    draw["vertex"] = CORPUS + "clip_distance.vert"
    draw["state"] = dict(FLAT, clip_planes=[[0.0, 0.0, 0.0, 0.0]] * 4)
    return draw


def facing_tile(index, fragment, winding):
    """A tile whose two triangles are wound `winding` ("ccw": front faces, "cw": back
    faces, "mixed": one of each)."""
    draw = tile(index, fragment)
    draw["indices"] = {
        "ccw": [0, 1, 2, 0, 2, 3],
        "cw": [0, 2, 1, 0, 3, 2],
        "mixed": [0, 1, 2, 0, 3, 2],
    }[winding]
    return draw


def interpolation_tile(index, mode):
    """Tile `index` drawn by interpolation.vert/.frag in `mode` (0 flat, 1
    noperspective, 2 smooth, 3 their difference): the corners have clip w 1, 3, 2, 4
    (so the two blends differ) and colours red, green, blue, white; two triangles, so
    the flat half-tiles show their provoking (last) vertices' colours, blue and white."""
    return {
        "vertex": CORPUS + "interpolation.vert",
        "fragment": CORPUS + "interpolation.frag",
        "attributes": [
            {"location": 0, "size": 2, "data": tile_corners(index)},
            {"location": 1, "size": 1, "data": [1.0, 3.0, 2.0, 4.0]},
            {"location": 2, "size": 3, "data": [1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1]},
        ],
        "indices": [0, 1, 2, 0, 2, 3],
        "uniforms": {"uMode": [float(mode)]},
        "state": FLAT,
    }


def flat_int_tile(index):
    """Tile `index` drawn by flat_int.vert/.frag: integer varyings, necessarily flat,
    carry values above float's exact range (uBase = 2^24 + 1) and NaN bit patterns;
    two triangles, so each half shows its provoking (last) corner's values, 2 and 3."""
    return {
        "vertex": CORPUS + "flat_int.vert",
        "fragment": CORPUS + "flat_int.frag",
        "attributes": [
            {"location": 0, "size": 2, "data": tile_corners(index)},
            {"location": 1, "size": 1, "data": [0.0, 1.0, 2.0, 3.0]},
        ],
        "indices": [0, 1, 2, 0, 2, 3],
        "uniforms": {"uBase": [16777217], "uKey": [2654435769]},
        "state": FLAT,
    }


def scene_raster():
    scene("corpus_raster.json", [
        facing_tile(0, "front_facing.frag", "ccw"),
        facing_tile(1, "front_facing.frag", "cw"),
        facing_tile(2, "front_facing.frag", "mixed"),
        flat_int_tile(3),
        interpolation_tile(4, 0),
        interpolation_tile(5, 1),
        interpolation_tile(6, 2),
        interpolation_tile(7, 3),
    ])


if __name__ == "__main__":
    os.makedirs(os.path.join(HERE, "corpus"), exist_ok=True)
    scene_lighting()
    scene_procedural()
    scene_sdf()
    scene_color()
    scene_misc()
    scene_data()
    scene_texture()
    scene_raster()
    scene_clip()
