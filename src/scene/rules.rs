//! The scene format's semantic rules, one definition each (`docs/scene-format.md`):
//! the ranges, counts and cross-references a scene must meet, with the message that
//! says how a value breaks one. The JSON loader (`load.rs`) calls them while it reads
//! a file, with the JSON field and file; [`Scene::validate`](super::Scene::validate)
//! calls them on a scene built in code, with the field's scene path. What is about
//! JSON alone (syntax, key names, value types) stays in the loader.
//!
//! Each rule returns the message of the broken rule (`Err(String)`); the caller puts
//! the field in front, so the same rule gives the same message body in both places.

use std::ops::RangeInclusive;

use super::NamedTexture;
use super::json::format_number;
use crate::texture::gl33::TexFormat;
use csir::sampler_type::TexTarget;

/// Framebuffer `width` and `height`: 1..=16384 (the rasterizer's largest side).
pub(crate) const FRAME_SIDE: RangeInclusive<i64> = 1..=csir_raster::MAX_FRAMEBUFFER_SIZE as i64;

/// Largest framebuffer side, and so the largest scissor or viewport coordinate.
pub(crate) const MAX_SIDE: i64 = csir_raster::MAX_FRAMEBUFFER_SIZE as i64;

/// An attribute's `location`: 0..=[`MAX_ATTRIBUTE_LOCATION`](super::MAX_ATTRIBUTE_LOCATION).
pub(crate) const ATTRIBUTE_LOCATION: RangeInclusive<i64> = 0..=super::MAX_ATTRIBUTE_LOCATION as i64;

/// An attribute's `size`: 1..=4 components (`glVertexAttribPointer`'s `size`).
pub(crate) const ATTRIBUTE_SIZE: RangeInclusive<i64> = 1..=4;

/// A draw's `instances`: 0..=2^20 (`MAX_INSTANCES`).
pub(crate) const INSTANCES: RangeInclusive<i64> = 0..=super::load::MAX_INSTANCES as i64;

/// A GL 3.3 texture's `width`, `height`, `depth`.
pub(crate) const TEXTURE_SIDE: RangeInclusive<i64> = 1..=16384;

/// A sampler's `base_level` and `max_level`.
pub(crate) const TEXTURE_LEVEL: RangeInclusive<i64> = 0..=1000;

/// What an integer in `range` is called in messages: "an integer in 1..=4".
pub(crate) fn integer_in(range: &RangeInclusive<i64>) -> String {
    format!("an integer in {}..={}", range.start(), range.end())
}

/// `value` lies in `range`; else "expected an integer in A..=B, got VALUE".
pub(crate) fn int_in(range: &RangeInclusive<i64>, value: i64) -> Result<i64, String> {
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(expected(&integer_in(range), &value.to_string()))
    }
}

/// The message of a value that is not what the rule takes: "expected WHAT, got GOT".
pub(crate) fn expected(what: &str, got: &str) -> String {
    format!("expected {what}, got {got}")
}

/// A scene number as an f32: finite after rounding to f32. JSON numbers past f32's
/// range ("1e39 does not fit in a 32-bit float") and, from code, NaN and infinities
/// break it.
pub(crate) fn finite_f32(value: f64) -> Result<f32, String> {
    if value.is_nan() {
        return Err("NaN is not a finite 32-bit float".into());
    }
    let f = value as f32;
    if f.is_finite() {
        Ok(f)
    } else {
        Err(format!(
            "{} does not fit in a 32-bit float",
            format_number(value)
        ))
    }
}

/// A list of numbers of a fixed length `want`: "expected 4 numbers, got 3".
pub(crate) fn number_count(want: usize, got: usize) -> Result<(), String> {
    if want == got {
        Ok(())
    } else {
        Err(format!("expected {want} numbers, got {got}"))
    }
}

/// `state.point_size`, `state.line_width`: above 0 and finite (`glPointSize` and
/// `glLineWidth` refuse others with `GL_INVALID_VALUE`, GL 3.3 core §3.4, §3.5).
pub(crate) const POINT_LINE_SIZE: (&str, fn(f64) -> bool) =
    ("a number above 0", |n| n > 0.0 && (n as f32).is_finite());

/// `expect.max_over_percent`.
pub(crate) const MAX_OVER_PERCENT: (&str, fn(f64) -> bool) =
    ("a percentage from 0 to 100", |p| (0.0..=100.0).contains(&p));

/// `expect.max_mean_abs_error`.
pub(crate) const MAX_MEAN_ABS_ERROR: (&str, fn(f64) -> bool) =
    ("a number above 0 and at most 255 (1/255 units)", |e| {
        e > 0.0 && e <= 255.0
    });

/// A number rule `(what, valid)` on `value` ("expected WHAT, got VALUE").
pub(crate) fn number_rule(rule: (&str, fn(f64) -> bool), value: f64) -> Result<f64, String> {
    if rule.1(value) {
        Ok(value)
    } else {
        Err(expected(rule.0, &format_number(value)))
    }
}

/// A draw has vertices: a mesh or at least one attribute.
pub(crate) const NEEDS_VERTICES: &str = "needs mesh or attributes";

/// A draw takes its vertices from a mesh or from attributes.
pub(crate) const MESH_OR_ATTRIBUTES: &str = "give either mesh or attributes, not both";

/// A mesh brings its own triangle list.
pub(crate) const MESH_HAS_INDICES: &str = "not allowed with mesh (the mesh has its own index list)";

/// A mesh is drawn as triangles, without restart.
pub(crate) const MESH_IS_TRIANGLES: &str = "a mesh is a triangle list: give attributes (and \
     indices) to draw another primitive or to restart one";

/// A restart index restarts an index list.
pub(crate) const RESTART_NEEDS_INDICES: &str =
    "restarts an indexed draw (glDrawElements): give indices";

/// Some attribute must set the vertex count.
pub(crate) const NEEDS_PER_VERTEX_ATTRIBUTE: &str = "every attribute has a divisor: give at least \
     one per-vertex array (divisor 0), whose length sets the vertex count";

/// Each attribute location once per draw.
pub(crate) fn location_once(earlier: &[u32], location: u32) -> Result<(), String> {
    if earlier.contains(&location) {
        Err(format!("location {location} is given twice"))
    } else {
        Ok(())
    }
}

/// An attribute's `data` holds whole elements of `size` values.
pub(crate) fn whole_elements(len: usize, size: u32) -> Result<u32, String> {
    if size == 0 || !len.is_multiple_of(size as usize) {
        return Err(format!("length {len} is not a multiple of size {size}"));
    }
    u32::try_from(len / size as usize).map_err(|_| "too many vertices".to_string())
}

/// An instanced array (`divisor` > 0) holds the elements `instances` instances read
/// (GL 3.3 core §2.8.2).
pub(crate) fn instanced_elements(count: u32, divisor: u32, instances: u32) -> Result<(), String> {
    let needed = super::instanced_elements(divisor, instances);
    if count < needed {
        Err(format!(
            "holds {count} elements; {instances} instances with divisor {divisor} read {needed}"
        ))
    } else {
        Ok(())
    }
}

/// Every per-vertex array holds as many vertices as the first (attributes[`first`],
/// `n` vertices).
pub(crate) fn same_vertex_count(count: u32, first: usize, n: u32) -> Result<(), String> {
    if count == n {
        Ok(())
    } else {
        Err(format!(
            "holds {count} vertices, attributes[{first}] holds {n}"
        ))
    }
}

/// A plain triangle list has whole triangles.
pub(crate) fn whole_triangles(len: usize) -> Result<(), String> {
    if len.is_multiple_of(3) {
        Ok(())
    } else {
        Err(format!("length {len} is not a multiple of 3"))
    }
}

/// An index names a vertex (`< vertex_count`), or is the restart index.
pub(crate) fn index_in_range(
    index: f64,
    vertex_count: u32,
    restart: Option<u32>,
) -> Result<(), String> {
    if index >= f64::from(vertex_count) && restart.is_none_or(|r| index != f64::from(r)) {
        Err(format!(
            "index {} is out of range ({vertex_count} vertices)",
            format_number(index)
        ))
    } else {
        Ok(())
    }
}

/// A uniform key is `NAME` or `NAME[INDEX]` ([`csir::UniformKey`]).
pub(crate) fn uniform_key(key: &str) -> Result<(), String> {
    match csir::UniformKey::parse(key) {
        Some(_) => Ok(()),
        None => Err("not a uniform name (expected NAME or NAME[INDEX])".into()),
    }
}

/// A sampler's `texture` names one of the scene's textures; its index.
pub(crate) fn texture_named(textures: &[NamedTexture], name: &str) -> Result<usize, String> {
    textures
        .iter()
        .position(|t| t.name == name)
        .ok_or_else(|| format!("no texture named {name:?} in textures"))
}

/// `state.clip_planes` has at most `GL_MAX_CLIP_PLANES` entries.
pub(crate) fn clip_plane_count(count: usize) -> Result<(), String> {
    let max = super::MAX_CLIP_PLANES;
    if count > max {
        Err(format!(
            "{count} clip planes, more than GL_MAX_CLIP_PLANES ({max})"
        ))
    } else {
        Ok(())
    }
}

/// `state.scissor` and `state.viewport` component `k` of `[x, y, w, h]`: the range
/// of x and y (`xy`), and 0..=16384 for the width and height.
pub(crate) fn rect_component(xy: &RangeInclusive<i64>, k: usize) -> RangeInclusive<i64> {
    if k < 2 { xy.clone() } else { 0..=MAX_SIDE }
}

/// The range of a scissor's x and y.
pub(crate) const SCISSOR_XY: RangeInclusive<i64> = 0..=MAX_SIDE;

/// The range of a viewport's x and y.
pub(crate) const VIEWPORT_XY: RangeInclusive<i64> = -MAX_SIDE..=MAX_SIDE;

/// A viewport is at least 1 × 1.
pub(crate) fn viewport_size(w: i64, h: i64) -> Result<(), String> {
    if w < 1 || h < 1 {
        Err(format!(
            "the viewport's width and height must be at least 1 (GL makes a negative size an \
             error), got {w} × {h}"
        ))
    } else {
        Ok(())
    }
}

/// The scissor rectangle lies inside the `width × height` framebuffer (a rectangle
/// reaching outside is most likely a mistake in the scene; GL would clip it to the
/// window).
pub(crate) fn scissor_inside(
    [x, y, w, h]: [u32; 4],
    width: u32,
    height: u32,
) -> Result<(), String> {
    let (x1, y1) = (u64::from(x) + u64::from(w), u64::from(y) + u64::from(h));
    if x1 > u64::from(width) || y1 > u64::from(height) {
        return Err(format!(
            "the scissor rectangle [{x}, {y}, {w}, {h}] reaches outside the {width} × {height} \
             framebuffer (to x {x1}, y {y1}); keep x + w ≤ {width} and y + h ≤ {height}"
        ));
    }
    Ok(())
}

/// A value of a `NAMES` table given by name: the value, or the message of a name not
/// in it (the list of names).
pub(crate) fn one_of<T: Copy>(names: &[(&str, T)], name: &str, got: &str) -> Result<T, String> {
    if let Some((_, v)) = names.iter().find(|(n, _)| *n == name) {
        return Ok(*v);
    }
    let list: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
    Err(expected(&format!("one of {}", list.join(", ")), got))
}

/// The texels of a texture given as `data`: `format.components()` numbers per texel,
/// texel after texel (x fastest, then y, then z), widened to RGBA.
pub(crate) fn texels_of(format: TexFormat, numbers: &[f32]) -> Vec<[f64; 4]> {
    numbers
        .chunks_exact(format.components())
        .map(|c| std::array::from_fn(|k| c.get(k).map_or(0.0, |&v| f64::from(v))))
        .collect()
}

/// A `data` texture's `depth` when not given: 6 faces for a cube map, else 1.
pub(crate) fn default_texture_depth(target: TexTarget) -> u32 {
    if target == TexTarget::Cube { 6 } else { 1 }
}

/// A stencil face's `func`: one of the depth test's comparisons but `"none"` (GL 3.3
/// §4.1.4: `glStencilFunc` takes the eight comparison functions; the test is turned off
/// by leaving `stencil` out or `null`).
pub(crate) fn stencil_func(func: csir_raster::DepthTest) -> Result<(), String> {
    if func.is_enabled() {
        Ok(())
    } else {
        Err(
            "\"none\" is not a stencil function (glStencilFunc takes never, less, \
             equal, lequal, greater, notequal, gequal or always); to turn the stencil \
             test off, leave stencil out or give null"
                .into(),
        )
    }
}

/// A scene's number of colour targets: 1..=[`MAX_TARGETS`](super::MAX_TARGETS)
/// (`GL_MAX_COLOR_ATTACHMENTS`).
pub(crate) fn target_count(count: usize) -> Result<(), String> {
    if (1..=super::MAX_TARGETS).contains(&count) {
        Ok(())
    } else {
        Err(format!(
            "{count} targets; a scene has 1..={} (GL_MAX_COLOR_ATTACHMENTS)",
            super::MAX_TARGETS
        ))
    }
}

/// A per-target `clear.color` list: one colour per target.
pub(crate) fn target_clear_count(colours: usize, targets: usize) -> Result<(), String> {
    if colours == targets {
        Ok(())
    } else {
        Err(format!(
            "{colours} colours for {targets} targets; give one RGBA list per target, or one \
             RGBA list for all of them"
        ))
    }
}

/// A draw's `blend` with the scene's targets: no blending while a target holds
/// integers (GL 3.3 §4.1.8 blends fixed- and floating-point buffers only).
pub(crate) fn integer_blending(
    targets: &super::Targets,
    blend: csir_raster::BlendMode,
) -> Result<(), String> {
    if blend == csir_raster::BlendMode::Replace {
        return Ok(());
    }
    let Some(k) = targets.list.iter().position(|t| t.format.is_integer()) else {
        return Ok(());
    };
    Err(format!(
        "targets[{k}] is {}, an integer format, which is never blended (GL 3.3 §4.1.8: \
         blending applies to fixed- and floating-point buffers); set `blend` to `none` for \
         this draw, or give the target a float format such as `rgba32f`",
        targets.format(k).name()
    ))
}

/// A draw's `blend` with the scene's targets: a blend that reads the second source
/// colour (`src1_*` factors, dual-source blending) draws into one target only (GL 3.3
/// §4.1.8: `GL_MAX_DUAL_SOURCE_DRAW_BUFFERS` is 1; GL's draw gives
/// `GL_INVALID_OPERATION` with more draw buffers).
pub(crate) fn dual_source_targets(
    targets: &super::Targets,
    blend: csir_raster::BlendMode,
) -> Result<(), String> {
    let csir_raster::BlendMode::Function(f) = blend else {
        return Ok(());
    };
    if !f.reads_src1() || targets.len() <= 1 {
        return Ok(());
    }
    Err(format!(
        "a blend factor `src1_*` (dual-source blending) draws into one target, and the \
         scene has {} (GL 3.3 §4.1.8: GL_MAX_DUAL_SOURCE_DRAW_BUFFERS is 1); give the \
         scene one target, or blend without the src1 factors",
        targets.len()
    ))
}

/// A scene's `samples`: one of [`SAMPLE_COUNTS`](super::SAMPLE_COUNTS), 1 or 4.
pub(crate) fn samples(value: i64) -> Result<u32, String> {
    match super::SAMPLE_COUNTS
        .iter()
        .find(|&&n| i64::from(n) == value)
    {
        Some(&n) => Ok(n),
        None => Err(expected(
            "1 or 4 (4: llvmpipe's standard 4-sample pattern; GL_MAX_SAMPLES allows no \
             other count here)",
            &value.to_string(),
        )),
    }
}

/// `sample_coverage.value`: a number in 0..=1 (`glSampleCoverage`'s value, a fraction
/// of the samples).
pub(crate) const SAMPLE_COVERAGE_VALUE: (&str, fn(f64) -> bool) =
    ("a number from 0 to 1", |v| (0.0..=1.0).contains(&v));

/// What a 4-sample scene cannot draw yet, as `(key, message)` on the scene (`key`
/// `samples`) or on draw `draw` (`key` its field below `draws[i]`): integer and sRGB
/// targets (whose resolve GL defines apart), `alpha_to_coverage` with several
/// targets, points, lines and polygon modes other than `fill` (llvmpipe draws those
/// as rectangles under multisampling, which csir-render does not).
pub(crate) fn multisample_support(
    samples: u32,
    targets: &super::Targets,
    draw: Option<&super::Draw>,
) -> Result<(), (String, String)> {
    if samples == 1 {
        return Ok(());
    }
    let Some(draw) = draw else {
        if let Some(t) = targets.list.iter().find(|t| {
            matches!(
                t.format.class(),
                csir_raster::TargetClass::Int | csir_raster::TargetClass::Uint
            ) || t.format == csir_raster::TargetFormat::Srgb8Alpha8
        }) {
            return Err((
                "samples".into(),
                format!(
                    "not drawn yet with a {} target (only unorm and float targets are \
                     resolved); use samples 1 or another target format",
                    t.format.name()
                ),
            ));
        }
        return Ok(());
    };
    let not_yet = |key: &str, what: &str| {
        Err((
            key.to_string(),
            format!(
                "{what} not drawn yet with samples 4 (llvmpipe draws them as rectangles \
                 under multisampling); draw triangles, or use samples 1"
            ),
        ))
    };
    if draw.geometry.is_none() && draw.primitive.kind() != super::PrimitiveKind::Triangles {
        return not_yet("primitive", "points and lines are");
    }
    if draw.state.points_lines.polygon_mode != super::PolygonMode::Fill {
        return not_yet("state.polygon_mode", "polygon modes line and point are");
    }
    if draw.state.multisample.alpha_to_coverage && targets.len() > 1 {
        return Err((
            "state.alpha_to_coverage".into(),
            "not drawn yet with several targets; use one target".into(),
        ));
    }
    Ok(())
}
