#!/usr/bin/env python3
"""The performance suite's table: every suite scene rendered by csir-render and by Mesa
llvmpipe (through csir-render's own GL back end, `--backend gl`), alternating, at 1 and
2 threads.

    python3 benches/perf_table.py                  # 10 frames, 2 rounds, all scenes
    python3 benches/perf_table.py --frames 20 --rounds 3 --scenes torus_500k,tiny_tris_1m

Per scene and thread count, each round runs ours then llvmpipe back to back
(`csir-render render SCENE --frames N --threads T`, `LP_NUM_THREADS=T csir-render
render SCENE --backend gl --frames N`: the same program, each frame ended by glFinish);
the table keeps the best of the rounds' median ms per frame. It prints
one markdown table: our time over llvmpipe's at 2 threads, our 1 -> 2 thread speed-up,
and the scene's load time apart from frame time (ours: reading the JSON, OBJ meshes and
textures, then compiling and linking; llvmpipe: the GL back end's prepare, context
creation, GLSL compile/link and uploads), and both renderers' peak resident memory at 2
threads (the largest of the rounds; llvmpipe's is csir-render's process with Mesa
inside it, the scene loaded as for ours). It also checks that both renderers drew the
same picture (`csir-render diff`, tolerance 2), says how busy the machine was, and ends
with one line per target (met or MISSED, and the worst workload).

What it needs, and where it looks (it stops with a message naming what is missing):
- Mesa's EGL and llvmpipe (Debian: libegl1 libegl-mesa0 libgl1-mesa-dri, which
  scripts/test-deps.sh installs), for `--backend gl`;
- numpy and Pillow, for the suite generator (benches/suite/gen_suite.py), which makes
  the large meshes and the 1024^2 texture under target/perf-suite/ on first use;
- cargo, to build target/release/csir-render (skip with --no-build).
Images are written under target/perf-suite/ (NAME.ours.png, NAME.llvmpipe.png).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
OUT = os.path.join(ROOT, "target", "perf-suite")
OURS = os.path.join(ROOT, "target", "release", "csir-render")

# (short name, workload as the table names it, scene path from the root)
SUITE = [
    ("procedural_1080p", "procedural 1080p (shading)", "reference-images/procedural_1080p.json"),
    ("lit_cube_1080p", "lit cube 1080p (textured lighting)", "benches/lit_cube_1080p.json"),
    ("textured_4tap", "full-screen quad, 4 linear taps of a 1024² texture",
     "benches/suite/textured_4tap_1080p.json"),
    ("blend16", "16 full-screen alpha-blended quads", "benches/suite/blend16_1080p.json"),
    ("front_to_back64", "64 opaque quads front to back, heavy shader",
     "benches/suite/front_to_back64_1080p.json"),
    ("torus_500k", "500k-triangle lit torus (OBJ)", "benches/suite/torus_500k_1080p.json"),
    ("tiny_tris_1m", "1M triangles of ~2 px", "benches/suite/tiny_tris_1m_1080p.json"),
]


def die(msg):
    print("perf_table: " + msg, file=sys.stderr)
    sys.exit(2)


def check_python_deps():
    missing = []
    for mod, pkg in (("numpy", "numpy"), ("PIL", "pillow")):
        try:
            __import__(mod)
        except ImportError:
            missing.append(pkg)
    if missing:
        die("the suite generator needs the Python packages %s: pip install %s"
            % (", ".join(missing), " ".join(missing)))


def run(cmd, env=None):
    """Runs `cmd` from the checkout's root (with `env` added to the environment); returns its standard output and its peak
    resident memory in MB (the kernel's `ru_maxrss` of that one child, from `os.wait4`,
    so earlier runs do not count). Stops with the output on failure."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        full_env = dict(os.environ, **(env or {}))
        p = subprocess.Popen(cmd, stdout=out, stderr=err, text=True, cwd=ROOT, env=full_env)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if p.returncode != 0:
        die("command failed (exit %d): %s\n%s%s" % (p.returncode, " ".join(cmd), stdout, stderr))
    return stdout, usage.ru_maxrss / 1024.0


def ours(scene, frames, threads, png):
    out, peak = run([OURS, "render", scene, "-o", png, "--frames", str(frames), "--threads", str(threads)])
    first = re.search(r"load ([0-9.]+) ms, prepare ([0-9.]+) ms", out)
    med = re.search(r"median ([0-9.]+) ms/frame", out)
    cpu = re.search(r"cpu ([0-9.]+) ms/frame", out)
    if not (first and med):
        die("unexpected csir-render output:\n" + out)
    return {"ms": float(med.group(1)), "cpu": float(cpu.group(1)) if cpu else None,
            "load": float(first.group(1)), "prepare": float(first.group(2)), "peak": peak}


def llvmpipe(scene, frames, threads, png):
    out, peak = run([OURS, "render", scene, "--backend", "gl", "-o", png, "--frames", str(frames)],
                    env={"LP_NUM_THREADS": str(threads), "LIBGL_ALWAYS_SOFTWARE": "1",
                         "GALLIUM_DRIVER": "llvmpipe"})
    first = re.search(r"open driver ([0-9.]+) ms, prepare ([0-9.]+) ms", out)
    med = re.search(r"median ([0-9.]+) ms/frame", out)
    cpu = re.search(r"cpu ([0-9.]+) ms/frame", out)
    if not (first and med and "llvmpipe" in out):
        die("unexpected csir-render --backend gl output:\n" + out)
    return {"ms": float(med.group(1)), "cpu": float(cpu.group(1)) if cpu else None,
            "load": float(first.group(1)) + float(first.group(2)), "peak": peak}


def compare(a, b):
    """`csir-render diff A B`: the pixels more than 2/255 off, or the error text."""
    p = subprocess.run([OURS, "diff", a, b], capture_output=True, text=True, cwd=ROOT)
    m = re.search(r"(\d+) over tolerance", p.stdout)
    return {"over_tol_pixels": int(m.group(1))} if m else {"error": p.stdout + p.stderr}


def loadavg():
    try:
        return open("/proc/loadavg").read().split()[0]
    except OSError:
        return "?"


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--frames", type=int, default=10, help="timed frames per run (default 10)")
    ap.add_argument("--rounds", type=int, default=2, help="alternating rounds (default 2)")
    ap.add_argument("--scenes", help="comma-separated short names (default: all): "
                    + ", ".join(s[0] for s in SUITE))
    ap.add_argument("--no-build", action="store_true", help="use target/release/csir-render as is")
    args = ap.parse_args()

    check_python_deps()
    if not args.no_build:
        if not shutil.which("cargo"):
            die("cargo was not found (install a Rust toolchain, README 'Set-up'), or pass --no-build")
        run(["cargo", "build", "--release", "--quiet"])
    if not os.path.isfile(OURS):
        die("%s is missing: run cargo build --release" % OURS)
    run([sys.executable, os.path.join(ROOT, "benches", "suite", "gen_suite.py")])

    suite = SUITE
    if args.scenes:
        wanted = args.scenes.split(",")
        unknown = [w for w in wanted if w not in {s[0] for s in SUITE}]
        if unknown:
            die("unknown scene %s; the suite has %s" % (", ".join(unknown), ", ".join(s[0] for s in SUITE)))
        suite = [s for s in SUITE if s[0] in wanted]

    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    loads = [loadavg()]
    rows = []
    for name, workload, scene in suite:
        ours_png = os.path.join(OUT, name + ".ours.png")
        peer_png = os.path.join(OUT, name + ".llvmpipe.png")
        best, peaks = {}, {}
        for r in range(args.rounds):
            for t in (1, 2):
                o = ours(scene, args.frames, t, ours_png)
                p = llvmpipe(scene, args.frames, t, peer_png)
                for who, res in (("ours", o), ("llvmpipe", p)):
                    peaks[(who, t)] = max(peaks.get((who, t), 0.0), res["peak"])
                    cur = best.get((who, t))
                    if cur is None or res["ms"] < cur["ms"]:
                        best[(who, t)] = res
                print("  %s round %d, %d thread%s: ours %.1f ms, llvmpipe %.1f ms"
                      % (name, r + 1, t, "s" if t > 1 else "", o["ms"], p["ms"]), file=sys.stderr)
        loads.append(loadavg())
        cmp = compare(ours_png, peer_png)
        o1, o2, p2 = best[("ours", 1)], best[("ours", 2)], best[("llvmpipe", 2)]
        rows.append((workload, o1, o2, best[("llvmpipe", 1)], p2, cmp,
                     (peaks[("ours", 2)], peaks[("llvmpipe", 2)])))

    print("%s, %s, %d rounds of %d frames (best of the rounds' medians), load average %s"
          % (started, cpu_model(), args.rounds, args.frames, " → ".join(loads)))
    print()
    print("| workload | ours / llvmpipe (2 thr.) | ours 1→2 threads | ours 1 thr. ms | ours 2 thr. ms "
          "| llvmpipe 1 thr. ms | llvmpipe 2 thr. ms | CPU ms/frame at 2 thr., ours / llvmpipe "
          "| peak MB at 2 thr., ours / llvmpipe | ours load + prepare ms | llvmpipe setup ms "
          "| pixels > 2 off |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for workload, o1, o2, p1, p2, cmp, (peak_o, peak_p) in rows:
        over = cmp.get("over_tol_pixels", cmp.get("error", "?"))
        cpu = "%.0f / %.0f" % (o2["cpu"], p2["cpu"]) if o2["cpu"] and p2["cpu"] else "?"
        print("| %s | **%.2f×** | %.2f× | %.1f | %.1f | %.1f | %.1f | %s | %.0f / %.0f | %.0f + %.0f "
              "| %.0f | %s |"
              % (workload, o2["ms"] / p2["ms"], o1["ms"] / o2["ms"], o1["ms"], o2["ms"], p1["ms"],
                 p2["ms"], cpu, peak_o, peak_p, o2["load"], o2["prepare"], p2["load"] or 0, over))
    print()
    for line in verdicts(rows):
        print(line)


def verdicts(rows):
    """One line per performance target that this sitting's table can
    judge: ours / llvmpipe at 2 threads at most 1.0x, our 1 -> 2 thread speed-up at
    least 1.8x (every suite scene is 1920x1080), our peak memory at 2 threads at most
    llvmpipe's. Each line says met or MISSED, how many workloads meet it and the
    worst one, so a sitting's verdict does not have to be read off the table."""
    checks = [
        ("ours / llvmpipe at 2 threads <= 1.00x", lambda o1, o2, p2, peaks: o2["ms"] / p2["ms"],
         lambda v: v <= 1.0, max, "%.2fx"),
        ("ours 1 -> 2 threads >= 1.80x", lambda o1, o2, p2, peaks: o1["ms"] / o2["ms"],
         lambda v: v >= 1.8, min, "%.2fx"),
        ("peak memory at 2 threads, ours / llvmpipe <= 1.00", lambda o1, o2, p2, peaks: peaks[0] / peaks[1],
         lambda v: v <= 1.0, max, "%.2f"),
    ]
    lines = []
    for label, value, ok, worst, fmt in checks:
        values = [(value(o1, o2, p2, peaks), workload)
                  for workload, o1, o2, _p1, p2, _cmp, peaks in rows]
        met = sum(1 for v, _ in values if ok(v))
        v, workload = worst(values)
        lines.append("%s: %s, %d of %d workloads (worst: %s, %s)"
                     % (label, "met" if met == len(values) else "MISSED", met, len(values),
                        fmt % v, workload))
    return lines


if __name__ == "__main__":
    main()
