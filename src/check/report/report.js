// The viewer of report.html: a click on a row shows its full-size images side by side,
// as a wipe (slider) between ours and the reference, or blinking between the two.
// Keys: Esc closes, ← → previous / next scene, 1 2 3 the modes, space pauses blinking.
// The address #view=SCENE&mode=slider|blink|side opens a scene directly.
(function () {
  "use strict";
  const dialog = document.getElementById("viewer");
  const stage = document.getElementById("stage");
  const zoom = document.getElementById("zoom");
  const rows = Array.from(document.querySelectorAll("tr.row"));
  let current = -1;
  let mode = "side";
  let blinkTimer = null;
  let blinkPaused = false;
  let wipe = 50;

  function images(index) {
    const template = document.getElementById("full-" + index);
    const found = {};
    if (template) {
      for (const img of template.content.querySelectorAll("img")) {
        found[img.dataset.kind] = img.getAttribute("src");
      }
    }
    return found;
  }

  function img(src, alt, cls) {
    const el = document.createElement("img");
    el.src = src;
    el.alt = alt;
    if (cls) el.className = cls;
    return el;
  }

  // The display scale: the zoom chosen, or for "fit" the largest that shows `columns`
  // images of this size side by side in the stage (whole multiples when enlarging, so
  // every pixel stays a square of the same size).
  function scaleFor(nw, nh, columns) {
    if (zoom.value !== "fit") return Number(zoom.value);
    const w = (stage.clientWidth - 24 - 12 * (columns - 1)) / columns;
    const h = stage.clientHeight - 24 - 44;
    const s = Math.min(w / nw, h / nh);
    return s >= 1 ? Math.floor(s) : s;
  }

  // `el` (and `more`, stacked on it) in a box sized by scaleFor, with a ring around
  // the worst pixel.
  function framed(el, columns, more) {
    const box = document.createElement("span");
    box.className = "pin";
    box.append(el);
    if (more) box.append(more);
    const known = document.getElementById("full-" + current).dataset;
    const apply = () => {
      const nw = Number(known.width) || el.naturalWidth, nh = Number(known.height) || el.naturalHeight;
      const s = scaleFor(nw, nh, columns);
      for (const i of [el, more]) if (i) { i.style.width = nw * s + "px"; i.style.height = nh * s + "px"; }
      const worst = rows[current].dataset.worst;
      if (worst) {
        const [x, y] = worst.split(",").map(Number);
        const ring = document.createElement("span");
        ring.className = "marker";
        ring.title = "worst pixel " + worst;
        ring.style.left = ((x + 0.5) / nw) * 100 + "%";
        ring.style.top = ((y + 0.5) / nh) * 100 + "%";
        box.append(ring);
      }
    };
    // the size is in the page, so the layout is right before the image is decoded
    if (known.width || (el.complete && el.naturalWidth)) apply();
    else el.addEventListener("load", apply, { once: true });
    return box;
  }

  function figure(caption, el) {
    const f = document.createElement("figure");
    const c = document.createElement("figcaption");
    c.textContent = caption;
    f.append(c, el);
    return f;
  }

  function note(text) {
    const p = document.createElement("p");
    p.textContent = text;
    return p;
  }

  function stopBlink() {
    if (blinkTimer) clearInterval(blinkTimer);
    blinkTimer = null;
  }

  function render() {
    stopBlink();
    stage.replaceChildren();
    stage.className = "stage";
    for (const b of dialog.querySelectorAll(".modes button")) {
      b.classList.toggle("on", b.dataset.mode === mode);
    }
    const im = images(current);
    if (mode === "side") {
      const side = document.createElement("div");
      side.className = "side";
      const parts = [["ours", "ours"], ["reference", "reference"], ["heat", "heat map |ours − reference|, ×16"]];
      for (const [kind, caption] of parts) {
        if (im[kind]) side.append(figure(caption, framed(img(im[kind], caption), 3)));
      }
      if (!side.childElementCount) side.append(note("No images were kept for this scene."));
      stage.append(side);
      return;
    }
    if (!im.ours || !im.reference) {
      stage.append(note("This mode needs both our render and the reference."));
      return;
    }
    if (mode === "slider") {
      const controls = document.createElement("div");
      controls.className = "controls";
      const range = document.createElement("input");
      range.type = "range"; range.min = 0; range.max = 100; range.value = wipe;
      controls.append("◀ ours", range, "reference ▶");
      const top = img(im.ours, "ours", "top");
      const box = framed(img(im.reference, "reference"), 1, top);
      box.classList.add("wipe");
      const edge = document.createElement("span");
      edge.className = "edge";
      box.append(edge);
      const set = () => {
        wipe = Number(range.value);
        top.style.clipPath = "inset(0 " + (100 - wipe) + "% 0 0)";
        edge.style.left = "calc(" + wipe + "% - 1px)";
      };
      range.addEventListener("input", set);
      box.addEventListener("pointermove", (e) => {
        if (e.buttons !== 1) return;
        const r = box.getBoundingClientRect();
        range.value = Math.round(((e.clientX - r.left) / r.width) * 100);
        set();
      });
      set();
      stage.append(controls, box);
      return;
    }
    // blink
    const controls = document.createElement("div");
    controls.className = "controls";
    const label = document.createElement("strong");
    const pause = document.createElement("button");
    pause.type = "button";
    controls.append("showing", label, pause);
    const shown = img(im.ours, "ours");
    const box = framed(shown, 1);
    let onOurs = true;
    const flip = () => {
      onOurs = !onOurs;
      shown.src = onOurs ? im.ours : im.reference;
      label.textContent = onOurs ? "ours" : "reference";
    };
    const run = () => {
      stopBlink();
      pause.textContent = blinkPaused ? "resume (space)" : "pause (space)";
      if (!blinkPaused) blinkTimer = setInterval(flip, 600);
    };
    pause.addEventListener("click", () => { blinkPaused = !blinkPaused; run(); });
    controls.toggle = () => { blinkPaused = !blinkPaused; run(); };
    label.textContent = "ours";
    stage.append(controls, box);
    stage.blinkControls = controls;
    run();
  }

  function open(index, newMode) {
    if (index < 0 || index >= rows.length) return;
    current = index;
    if (newMode) mode = newMode;
    const row = rows[index];
    const status = row.querySelector(".badge");
    const badge = document.getElementById("v-status");
    badge.className = status.className;
    badge.textContent = status.textContent;
    document.getElementById("v-scene").textContent = row.dataset.scene;
    const trace = row.querySelector(".trace");
    const vt = document.getElementById("v-trace");
    vt.replaceChildren();
    if (trace) vt.append(trace.cloneNode(true));
    if (!dialog.open) dialog.showModal();
    history.replaceState(null, "", "#view=" + encodeURIComponent(row.dataset.scene) + "&mode=" + mode);
    render();
  }

  function close() {
    stopBlink();
    if (dialog.open) dialog.close();
  }

  dialog.addEventListener("close", () => {
    stopBlink();
    history.replaceState(null, "", location.pathname + location.search);
  });

  function copy(button) {
    const text = button.dataset.copy;
    const done = () => { button.textContent = "copied"; setTimeout(() => (button.textContent = "copy"), 1500); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, () => fallback(text, done));
    } else {
      fallback(text, done);
    }
  }

  function fallback(text, done) {
    const area = document.createElement("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    try { document.execCommand("copy"); done(); } catch (e) { /* the text stays selectable */ }
    area.remove();
  }

  document.addEventListener("click", (e) => {
    const button = e.target.closest("button.copy");
    if (button) { e.stopPropagation(); copy(button); return; }
    if (e.target.closest("code")) return; // let the command be selected by hand
    const row = e.target.closest("tr.row");
    if (row && !dialog.open) open(Number(row.dataset.index));
  });

  document.addEventListener("keydown", (e) => {
    if (!dialog.open) {
      const row = e.target.closest && e.target.closest("tr.row");
      if (row && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); open(Number(row.dataset.index)); }
      return;
    }
    if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") open(current - 1);
    else if (e.key === "ArrowRight") open(current + 1);
    else if (e.key === "1") open(current, "side");
    else if (e.key === "2") open(current, "slider");
    else if (e.key === "3") open(current, "blink");
    else if (e.key === " " && mode === "blink" && stage.blinkControls) { e.preventDefault(); stage.blinkControls.toggle(); }
  });

  for (const b of dialog.querySelectorAll(".modes button")) {
    b.addEventListener("click", () => open(current, b.dataset.mode));
  }
  document.getElementById("prev").addEventListener("click", () => open(current - 1));
  document.getElementById("next").addEventListener("click", () => open(current + 1));
  document.getElementById("close").addEventListener("click", close);
  zoom.addEventListener("change", render);
  window.addEventListener("resize", () => { if (dialog.open && zoom.value === "fit") render(); });

  const only = document.getElementById("only-problems");
  only.addEventListener("change", () => document.body.classList.toggle("only-problems", only.checked));

  // #view=SCENE&mode=MODE opens that scene (a link to one scene, and the screenshot test)
  const params = new URLSearchParams(location.hash.slice(1));
  const wanted = params.get("view");
  if (wanted !== null) {
    const index = rows.findIndex((r) => r.dataset.scene === wanted);
    const m = params.get("mode");
    if (index >= 0) open(index, ["side", "slider", "blink"].includes(m) ? m : "side");
  }
})();
