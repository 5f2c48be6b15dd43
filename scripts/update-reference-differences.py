#!/usr/bin/env python3
"""Rewrites the table of every reference scene's difference from llvmpipe in
reference-images/README.md ("How far each scene is from llvmpipe").

Runs `csir-render check reference-images --json FILE` (the release build, built first)
and lists, for every scene, the largest channel difference in steps of 1/255, the
pixels that differ at all and those over the scene's tolerance, and the verdict. The
table sits between the two marker comments below; the rest of the file is untouched.

Usage: scripts/update-reference-differences.py
"""

import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = ROOT / "reference-images" / "README.md"
BEGIN = "<!-- reference differences: begin (scripts/update-reference-differences.py) -->"
END = "<!-- reference differences: end -->"


def measure() -> list:
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "check.json"
        subprocess.run(
            ["cargo", "run", "--release", "--quiet", "--", "check", "reference-images",
             "--json", str(out)],
            cwd=ROOT, check=False, stdout=subprocess.DEVNULL)
        if not out.exists():
            sys.exit("check wrote no JSON results")
        return json.loads(out.read_text())["results"]


def table(results: list) -> str:
    rows = ["| scene | size | max | differing pixels | over tolerance | verdict |",
            "|---|---|---:|---:|---:|---|"]
    for r in sorted(results, key=lambda r: r["scene"]):
        scene = r["scene"].removeprefix("reference-images/").removesuffix(".json")
        m = r.get("metrics") or {}
        if not m:
            rows.append(f"| `{scene}` | | | | | {r['status']}: {r.get('message') or ''} |")
            continue
        rows.append(
            f"| `{scene}` | {m['width']}×{m['height']} | {m['max_channel_diff']} "
            f"| {m['differing_pixels']:,} | {m['over_tolerance_pixels']:,} | {r['status']} |"
            .replace(",", " "))
    return "\n".join(rows)


def main() -> None:
    text = README.read_text()
    if BEGIN not in text or END not in text:
        sys.exit(f"{README}: the marker comments are missing")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    README.write_text(f"{head}{BEGIN}\n{table(measure())}\n{END}{tail}")


if __name__ == "__main__":
    main()
