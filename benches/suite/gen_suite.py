#!/usr/bin/env python3
"""Generate the performance suite: the scenes in this folder and the large
assets they read, which are made on demand under ``target/perf-suite/`` and never
committed (the 500k-triangle torus OBJ alone is ~40 MB).

    python3 benches/suite/gen_suite.py            # make missing assets
    python3 benches/suite/gen_suite.py --scenes   # also (re)write the scene JSONs
    python3 benches/suite/gen_suite.py --force    # remake the assets too

Needs numpy and Pillow (the same as reference-images/gen_scenes.py, whose float32 and
matrix helpers it reuses). The output is deterministic: the same bytes every run.
"""
import argparse
import math
import os
import sys

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
ASSETS = os.path.join(ROOT, "target", "perf-suite")
sys.path.insert(0, os.path.join(ROOT, "reference-images"))
from gen_scenes import colmajor, f32, look_at, normal_matrix, perspective, rot_x, rot_y  # noqa: E402

W, H = 1920, 1080
# Scene paths are relative to the scene file (benches/suite/).
ASSET_REL = "../../target/perf-suite"
REF = "../../reference-images"


def dump(name, scene):
    import json
    import re
    text = json.dumps(scene, indent=2)
    text = re.sub(r"\[\s*([-0-9.eE+,\s]+?)\s*\]",
                  lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",")) + "]", text)
    with open(os.path.join(HERE, name), "w") as f:
        f.write(text + "\n")
    print("wrote", os.path.relpath(os.path.join(HERE, name), ROOT))


# ---------------------------------------------------------------- assets
def make_texture_1024(path):
    """1024x1024 RGBA: smooth waves, 16-texel checker and fine diagonal stripes, so
    bilinear taps between texels differ from nearest ones."""
    y, x = np.mgrid[0:1024, 0:1024].astype(np.float64)
    r = 0.5 + 0.5 * np.sin(x * 0.031) * np.cos(y * 0.023)
    g = np.where(((x // 16) + (y // 16)) % 2 == 0, 0.8, 0.25)
    b = 0.5 + 0.5 * np.sin((x + y) * 0.9)
    rgba = np.stack([r, g, b, np.ones_like(r)], axis=-1)
    Image.fromarray(np.round(rgba * 255).astype(np.uint8), "RGBA").save(path, format="PNG")


def write_obj(path, pos, nrm, uv, faces, comment):
    """OBJ with one v/vt/vn index per vertex (the same index for all three)."""
    with open(path, "w") as f:
        f.write("# %s\n# written by benches/suite/gen_suite.py\n" % comment)
        f.write("".join("v %.6f %.6f %.6f\n" % tuple(p) for p in pos.tolist()))
        f.write("".join("vn %.6f %.6f %.6f\n" % tuple(n) for n in nrm.tolist()))
        f.write("".join("vt %.6f %.6f\n" % tuple(t) for t in uv.tolist()))
        f.write("".join("f %d/%d/%d %d/%d/%d %d/%d/%d\n" % (a, a, a, b, b, b, c, c, c)
                        for a, b, c in (faces + 1).tolist()))


def grid_faces(nu, nv):
    """Two CCW triangles per cell of a (nu+1) x (nv+1) vertex grid (u fastest)."""
    i, j = np.mgrid[0:nv, 0:nu]
    a = (i * (nu + 1) + j).reshape(-1)
    b, c, d = a + 1, a + nu + 2, a + nu + 1
    return np.stack([np.stack([a, b, c], 1), np.stack([a, c, d], 1)], 1).reshape(-1, 3)


def make_torus(path, nu=500, nv=500, big=1.0, small=0.4):
    """Torus around the y axis: nu x nv quads = 2·nu·nv triangles (500k by default)."""
    v, u = np.mgrid[0:nv + 1, 0:nu + 1].astype(np.float64)
    th, ph = u / nu * 2 * math.pi, v / nv * 2 * math.pi
    n = np.stack([np.cos(ph) * np.cos(th), np.sin(ph), np.cos(ph) * np.sin(th)], -1)
    centre = np.stack([big * np.cos(th), np.zeros_like(th), big * np.sin(th)], -1)
    pos = centre + small * n
    uv = np.stack([u / nu * 8, v / nv * 4], -1)
    # Outward normals, counter-clockwise seen from outside: (a, c, b) order per cell.
    faces = grid_faces(nu, nv)[:, [0, 2, 1]]
    write_obj(path, pos.reshape(-1, 3), n.reshape(-1, 3), uv.reshape(-1, 2), faces,
              "torus %d x %d quads, %d triangles" % (nu, nv, len(faces)))


def make_tiny_grid(path, nu=1000, nv=500):
    """A rippled grid over NDC [-1, 1]^2 (z small): 2·nu·nv triangles (1M by default),
    about 2 pixels each at 1920x1080."""
    v, u = np.mgrid[0:nv + 1, 0:nu + 1].astype(np.float64)
    x, y = u / nu * 2 - 1, v / nv * 2 - 1
    z = 0.05 * np.sin(x * 23) * np.cos(y * 17)
    dzdx = 0.05 * 23 * np.cos(x * 23) * np.cos(y * 17)
    dzdy = -0.05 * 17 * np.sin(x * 23) * np.sin(y * 17)
    n = np.stack([-dzdx, -dzdy, np.ones_like(x)], -1)
    n /= np.linalg.norm(n, axis=-1, keepdims=True)
    pos = np.stack([x, y, z], -1)
    uv = np.stack([u / nu, v / nv], -1)
    faces = grid_faces(nu, nv)
    write_obj(path, pos.reshape(-1, 3), n.reshape(-1, 3), uv.reshape(-1, 2), faces,
              "rippled grid %d x %d quads, %d triangles" % (nu, nv, len(faces)))


ASSET_MAKERS = {
    "texture_1024.png": make_texture_1024,
    "torus_500k.obj": make_torus,
    "grid_1m.obj": make_tiny_grid,
}


def make_assets(force):
    os.makedirs(ASSETS, exist_ok=True)
    for name, make in ASSET_MAKERS.items():
        path = os.path.join(ASSETS, name)
        if force or not os.path.exists(path):
            tmp = os.path.join(ASSETS, "tmp-" + name)
            make(tmp)
            os.replace(tmp, path)
            print("made", os.path.relpath(path, ROOT))


# ---------------------------------------------------------------- scenes
FULL_QUAD = [-1, -1, 1, -1, 1, 1, -1, 1]
QUAD_IDX = [0, 1, 2, 0, 2, 3]


def scene_textured():
    dump("textured_4tap_1080p.json", {
        "format": "csir-scene/1", "width": W, "height": H,
        "clear": {"color": [0.0, 0.0, 0.0, 1.0]},
        "textures": {"pattern": {"path": ASSET_REL + "/texture_1024.png"}},
        "draws": [{
            "vertex": REF + "/shaders/fullscreen.vert", "fragment": "shaders/tex4.frag",
            "attributes": [{"location": 0, "size": 2, "data": FULL_QUAD}],
            "indices": QUAD_IDX,
            "samplers": {"uTex": {"texture": "pattern", "filter": "linear", "wrap": "repeat"}},
            "state": {"depth_test": "none", "cull": "none", "blend": "none"},
        }],
    })


def scene_blend():
    """16 full-screen quads, alpha 0.2 each, a colour gradient per quad."""
    pos, col = [], []
    for k in range(16):
        a = k / 16 * 2 * math.pi
        c0 = [f32(0.5 + 0.5 * math.cos(a)), f32(0.5 + 0.5 * math.sin(a)), f32(0.3 + 0.02 * k), 0.2]
        c1 = [f32(0.5 - 0.5 * math.sin(a)), f32(0.4), f32(0.5 + 0.5 * math.cos(a)), 0.2]
        corners = [(-1, -1, c0), (1, -1, c1), (1, 1, c0), (-1, 1, c1)]
        for i in QUAD_IDX:
            x, y, c = corners[i]
            pos += [x, y]
            col += c
    dump("blend16_1080p.json", {
        "format": "csir-scene/1", "width": W, "height": H,
        "clear": {"color": [0.05, 0.05, 0.05, 1.0]},
        "draws": [{
            "vertex": REF + "/shaders/color2d.vert", "fragment": REF + "/shaders/color.frag",
            "attributes": [{"location": 0, "size": 2, "data": pos},
                           {"location": 1, "size": 4, "data": col}],
            "state": {"depth_test": "none", "cull": "none", "blend": "alpha"},
        }],
    })


def scene_front_to_back():
    """64 opaque concentric quads, nearest (and smallest) first, the procedural shader:
    every pixel is covered ~21 times but only its nearest quad should be shaded."""
    pos, idx = [], []
    for k in range(64):
        s = f32((k + 1) / 64)
        z = f32(-0.9 + k * 0.028)
        base = len(pos) // 3
        pos += [-s, -s, z, s, -s, z, s, s, z, -s, s, z]
        idx += [base + i for i in QUAD_IDX]
    dump("front_to_back64_1080p.json", {
        "format": "csir-scene/1", "width": W, "height": H,
        "clear": {"color": [0.0, 0.0, 0.0, 1.0], "depth": 1.0},
        "draws": [{
            "vertex": "shaders/quad_depth.vert", "fragment": REF + "/shaders/procedural.frag",
            "attributes": [{"location": 0, "size": 3, "data": pos}],
            "indices": idx,
            "uniforms": {"uTime": 0.7, "uAspect": f32(W / H), "uBase": [0.25, 0.3, 0.45]},
            "state": {"depth_test": "less", "depth_write": True, "cull": "none", "blend": "none"},
        }],
    })


def lit_uniforms(model, eye, proj, texture):
    view = look_at(eye, (0, 0, 0), (0, 1, 0))
    return {
        "uMVP": colmajor(proj @ view @ model),
        "uModel": colmajor(model),
        "uNormalMat": colmajor(normal_matrix(model)),
        "uLightDir": [0.4, 0.8, 0.6],
        "uViewPos": [f32(x) for x in eye],
        "uColor": [0.9, 0.55, 0.2],
        "uShininess": 32.0,
        "uUseTexture": 1.0 if texture else 0.0,
    }


def scene_torus():
    model = rot_y(20.0) @ rot_x(55.0)
    eye = np.array([0.0, 0.6, 3.2])
    dump("torus_500k_1080p.json", {
        "format": "csir-scene/1", "width": W, "height": H,
        "clear": {"color": [0.1, 0.1, 0.12, 1.0], "depth": 1.0},
        "textures": {"checker": {"path": REF + "/textures/checker.png"}},
        "draws": [{
            "vertex": REF + "/shaders/lit.vert", "fragment": REF + "/shaders/lit.frag",
            "mesh": ASSET_REL + "/torus_500k.obj",
            "uniforms": lit_uniforms(model, eye, perspective(45.0, W / H, 0.1, 100.0), True),
            "samplers": {"uTex": {"texture": "checker", "filter": "nearest", "wrap": "repeat"}},
            "state": {"depth_test": "less", "depth_write": True, "cull": "back", "blend": "none"},
        }],
    })


def scene_tiny():
    eye = np.array([0.0, 0.0, 1.0])
    ident = np.eye(4)
    u = lit_uniforms(ident, eye, ident, False)
    u["uMVP"] = colmajor(ident)
    dump("tiny_tris_1m_1080p.json", {
        "format": "csir-scene/1", "width": W, "height": H,
        "clear": {"color": [0.0, 0.0, 0.0, 1.0], "depth": 1.0},
        "textures": {"checker": {"path": REF + "/textures/checker.png"}},
        "draws": [{
            "vertex": REF + "/shaders/lit.vert", "fragment": REF + "/shaders/lit.frag",
            "mesh": ASSET_REL + "/grid_1m.obj",
            "uniforms": u,
            "samplers": {"uTex": {"texture": "checker", "filter": "nearest", "wrap": "repeat"}},
            "state": {"depth_test": "less", "depth_write": True, "cull": "none", "blend": "none"},
        }],
    })


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenes", action="store_true", help="(re)write the scene JSONs")
    ap.add_argument("--force", action="store_true", help="remake existing assets")
    args = ap.parse_args()
    if args.scenes:
        scene_textured()
        scene_blend()
        scene_front_to_back()
        scene_torus()
        scene_tiny()
    make_assets(args.force)


if __name__ == "__main__":
    main()
