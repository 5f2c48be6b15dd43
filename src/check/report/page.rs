//! The HTML report page of a check: a header with the counts, the heat-map legend, and
//! one row per scene with its images inlined as thumbnails and its metrics. The page
//! depends only on the results, so the same results give the same bytes.

use super::thumbnail::{Reduce, thumbnail_png};
use crate::check::results::{CheckResults, SceneResult};
use crate::compare::{DEFAULT_HEAT_GAIN, ToleranceRule, heat_colour};
use crate::file_read::{MAX_PNG_BYTES, read_bounded};
use crate::image_io::decode_png;
use base64::Engine;
use quick_xml::escape::escape;
use std::fmt::Write;
use std::path::Path;

const STYLE: &str = include_str!("report.css");
const SCRIPT: &str = include_str!("report.js");

/// The whole page. Nothing in it depends on the time or the machine, so the same
/// results give the same bytes.
pub(super) fn html(results: &CheckResults) -> String {
    let summary = results.summary();
    let mut page = String::new();
    let title = format!("csir-render check: {summary}");
    let _ = write!(
        page,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n",
        esc(&title)
    );
    header(&mut page, results);
    let _ = write!(
        page,
        "<table class=\"scenes\">\n<thead><tr><th>status</th><th>scene</th><th>{}</th>\
         <th>{}</th><th>heat map</th><th>metrics</th></tr></thead>\n<tbody>\n",
        esc(&results.drawn_by),
        if results.compared_with == crate::check::results::COMPARED_WITH_FILES {
            "reference".to_string()
        } else {
            esc(&results.compared_with)
        }
    );
    let rows = results.in_report_order();
    let mut templates = String::new();
    for (index, r) in rows.iter().enumerate() {
        let images = SceneImages::load(r);
        row(&mut page, index, r, &images);
        full_size(&mut templates, index, &images);
    }
    page.push_str("</tbody>\n</table>\n");
    page.push_str(&templates);
    page.push_str(VIEWER);
    let _ = write!(page, "<script>\n{SCRIPT}</script>\n</body>\n</html>\n");
    page
}

fn header(page: &mut String, results: &CheckResults) {
    let s = results.summary();
    let scope = match results.shard {
        Some(shard) => format!(
            "shard {shard}: {} of {} scenes",
            results.results.len(),
            results.scenes_found
        ),
        None => format!("{} scenes", results.results.len()),
    };
    let _ = write!(
        page,
        "<header>\n<h1>Reference check</h1>\n<p class=\"summary\">\
         <span class=\"count failed{}\">{} failed</span> \
         <span class=\"count error{}\">{} errors</span> \
         <span class=\"count passed\">{} passed</span> \
         <span class=\"scope\">{}</span></p>\n<p class=\"note\">drawn by {}, judged \
         against {}</p>\n",
        if s.failed == 0 { " zero" } else { "" },
        s.failed,
        if s.errors == 0 { " zero" } else { "" },
        s.errors,
        s.passed,
        esc(&scope),
        esc(&results.drawn_by),
        esc(&results.compared_with),
    );
    if s.written > 0 {
        let _ = writeln!(
            page,
            "<p class=\"note\">{} reference image{} written from this run's renders.</p>",
            s.written,
            if s.written == 1 { "" } else { "s" }
        );
    }
    let _ = write!(
        page,
        "<p class=\"rule\">A scene passes when its render meets the tolerance rule: {}, \
         unless the scene file gives its own bound (<code>expect</code>). \
         Click a row to compare the images at full size.</p>\n\
         <p class=\"legend\">heat map, largest channel difference |ours − reference|: {}\
         <label class=\"filter\"><input type=\"checkbox\" id=\"only-problems\"> \
         hide passed scenes</label></p>\n</header>\n",
        esc(&ToleranceRule::PROJECT.to_string()),
        legend()
    );
}

/// Swatches of the heat map's colours, taken from [`heat_colour`] itself.
fn legend() -> String {
    let mut out = String::new();
    for (d, label) in [
        (0, "0"),
        (1, "1"),
        (2, "2"),
        (4, "4"),
        (8, "8"),
        (12, "12"),
        (16, "16+"),
    ] {
        let [r, g, b, _] = heat_colour(d, DEFAULT_HEAT_GAIN);
        let _ = write!(
            out,
            "<span class=\"swatch\"><i style=\"background:rgb({r},{g},{b})\"></i>{label}</span>"
        );
    }
    out.push_str("<span class=\"unit\">(steps of 1/255)</span>");
    out
}

/// A scene's images as PNG bytes: full size and thumbnails; `None` where there is none.
struct SceneImages {
    full: [Option<Vec<u8>>; 3],
    thumbs: [Option<Vec<u8>>; 3],
    /// Width and height of the images when they all have the same (the reference may
    /// not), so the viewer can lay them out before decoding them.
    size: Option<(u32, u32)>,
}

/// The order of the images everywhere in the page.
const KINDS: [(&str, &str); 3] = [
    ("ours", "ours"),
    ("reference", "reference"),
    ("heat", "heat map"),
];

impl SceneImages {
    fn load(r: &SceneResult) -> SceneImages {
        let paths = r
            .images
            .as_ref()
            .map(|i| [i.ours.clone(), i.reference.clone(), i.heat_map.clone()])
            .unwrap_or_default();
        let mut full: [Option<Vec<u8>>; 3] = Default::default();
        let mut thumbs: [Option<Vec<u8>>; 3] = Default::default();
        let mut sizes = Vec::new();
        for (k, path) in paths.iter().enumerate() {
            let Some(path) = path else { continue };
            let Ok(bytes) = read_bounded(path, MAX_PNG_BYTES) else {
                continue;
            };
            let Ok(image) = decode_png(&bytes, Path::new("")) else {
                continue;
            };
            let reduce = if k == 2 { Reduce::Max } else { Reduce::Mean };
            thumbs[k] = Some(thumbnail_png(&image, reduce));
            full[k] = Some(bytes);
            sizes.push((image.width(), image.height()));
        }
        let size = sizes
            .first()
            .copied()
            .filter(|s| sizes.iter().all(|t| t == s));
        SceneImages { full, thumbs, size }
    }
}

fn data_url(png: &[u8]) -> String {
    format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(png)
    )
}

fn row(page: &mut String, index: usize, r: &SceneResult, images: &SceneImages) {
    let status = r.status.name();
    let _ = write!(
        page,
        "<tr class=\"row {status}\" id=\"row-{index}\" data-index=\"{index}\" data-scene=\"{}\"{} \
         tabindex=\"0\" title=\"open the full-size images\">\n\
         <td class=\"status\"><span class=\"badge {status}\">{status}</span></td>\n\
         <td class=\"scene\"><div class=\"path\">{}</div>\n",
        esc(&r.scene),
        r.metrics
            .as_ref()
            .and_then(|m| m.worst_pixel)
            .map_or_else(String::new, |[x, y]| format!(" data-worst=\"{x},{y}\"")),
        scene_name(&r.scene),
    );
    if let Some(message) = &r.message {
        let _ = writeln!(page, "<div class=\"message\">{}</div>", esc(message));
    }
    let _ = writeln!(
        page,
        "<div class=\"reference\">reference <code>{}</code></div>",
        esc(&r.reference)
    );
    // the project rule is in the header; a scene's own is worth a line
    if let Some(rule) = r.rule.filter(|_| r.scene_rule) {
        let _ = writeln!(
            page,
            "<div class=\"rule own\">the scene's own rule: {}</div>",
            esc(&rule.to_string())
        );
    }
    if let Some(trace) = &r.trace {
        let _ = writeln!(
            page,
            "<div class=\"trace\"><span>worst pixel:</span> <code>{}</code> \
             <button type=\"button\" class=\"copy\" data-copy=\"{}\">copy</button></div>",
            esc(trace),
            esc(trace)
        );
    }
    page.push_str("</td>\n");
    for (k, (kind, label)) in KINDS.iter().enumerate() {
        match &images.thumbs[k] {
            Some(png) => {
                let _ = writeln!(
                    page,
                    "<td class=\"thumb {kind}\"><img src=\"{}\" alt=\"{label}\"></td>",
                    data_url(png)
                );
            }
            None => {
                let _ = writeln!(page, "<td class=\"thumb none\">—</td>");
            }
        }
    }
    page.push_str("<td class=\"metrics\">");
    metrics(page, r);
    page.push_str("</td>\n</tr>\n");
}

/// `folder/<b>stem</b>.json`, escaped.
fn scene_name(scene: &str) -> String {
    let path = Path::new(scene);
    match (path.parent(), path.file_stem()) {
        (Some(folder), Some(stem)) => {
            let folder = folder.to_string_lossy();
            let rest = &scene[scene.len() - path.file_name().map_or(0, |f| f.len())..];
            let stem = stem.to_string_lossy();
            let after = &rest[stem.len().min(rest.len())..];
            let prefix = if folder.is_empty() {
                String::new()
            } else {
                format!("{}/", esc(&folder))
            };
            format!("{prefix}<b>{}</b>{}", esc(&stem), esc(after))
        }
        _ => esc(scene),
    }
}

fn metrics(page: &mut String, r: &SceneResult) {
    let mut rows: Vec<(String, String)> = Vec::new();
    if let Some(m) = &r.metrics {
        let tolerance = r.rule.map_or(0, |rule| rule.tolerance);
        rows.push(("max diff".into(), format!("{}/255", m.max_channel_diff)));
        rows.push((
            format!("over {tolerance}/255"),
            format!(
                "{} px ({:.3}%)",
                m.over_tolerance_pixels, m.over_tolerance_percent
            ),
        ));
        rows.push((
            "mean abs error".into(),
            format!("{:.4}/255", m.mean_abs_error),
        ));
        rows.push((
            "PSNR".into(),
            m.psnr_db
                .map_or_else(|| "∞ (identical)".into(), |p| format!("{p:.2} dB")),
        ));
        rows.push(("differing".into(), format!("{} px", m.differing_pixels)));
        rows.push(("size".into(), format!("{}×{}", m.width, m.height)));
    }
    rows.push(("time".into(), format!("{:.2} s", r.seconds)));
    page.push_str("<table class=\"kv\">");
    for (k, v) in rows {
        let _ = write!(page, "<tr><th>{}</th><td>{}</td></tr>", esc(&k), esc(&v));
    }
    page.push_str("</table>");
}

/// The full-size images of row `index`, in a `<template>` (not decoded until the
/// viewer opens them).
fn full_size(out: &mut String, index: usize, images: &SceneImages) {
    let _ = write!(out, "<template id=\"full-{index}\"");
    if let Some((w, h)) = images.size {
        let _ = write!(out, " data-width=\"{w}\" data-height=\"{h}\"");
    }
    out.push('>');
    for (k, (kind, label)) in KINDS.iter().enumerate() {
        if let Some(png) = &images.full[k] {
            let _ = write!(
                out,
                "<img data-kind=\"{kind}\" alt=\"{label}\" src=\"{}\">",
                data_url(png)
            );
        }
    }
    out.push_str("</template>\n");
}

/// The viewer dialog; `report.js` fills it.
const VIEWER: &str = r#"<dialog id="viewer">
<div class="bar">
<button type="button" class="nav" id="prev" title="previous scene (←)">‹</button>
<button type="button" class="nav" id="next" title="next scene (→)">›</button>
<div class="title"><span class="badge" id="v-status"></span> <span id="v-scene"></span></div>
<div class="modes" role="group">
<button type="button" data-mode="side" title="side by side (1)">side by side</button>
<button type="button" data-mode="slider" title="wipe between ours and the reference (2)">slider</button>
<button type="button" data-mode="blink" title="alternate ours and the reference (3, space pauses)">blink</button>
</div>
<label>zoom <select id="zoom"><option value="fit">fit</option><option value="1">1×</option><option value="2">2×</option><option value="4">4×</option><option value="8">8×</option></select></label>
<button type="button" id="close" title="close (Esc)">✕</button>
</div>
<div class="v-trace" id="v-trace"></div>
<div class="stage" id="stage"></div>
</dialog>
"#;

fn esc(s: &str) -> String {
    escape(s).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scene_name_is_bold_and_escaped() {
        assert_eq!(
            scene_name("reference-images/lit_cube.json"),
            "reference-images/<b>lit_cube</b>.json"
        );
        assert_eq!(scene_name("a<b.json"), "<b>a&lt;b</b>.json");
    }
}
