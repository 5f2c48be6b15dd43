//! [`Scene::validate`]: the scene format's rules ([`super::rules`], the same ones the
//! JSON loader applies while it reads a file) checked on a scene as plain data, for a
//! scene built in code ([`Scene::builder`](super::Scene::builder)) or changed after
//! loading. Errors name the field by its scene path (`draws[0].attributes[1].size`).

use super::rules;
use super::{Attribute, AttributeType, Draw, Scene, SceneError};
use crate::texture::gl33::GlSampler;

/// A broken rule: the field's scene path and the message.
type Broken = (String, String);

impl Scene {
    /// Checks every rule of the scene format that the JSON loader checks and that the
    /// plain data can break (`docs/scene-format.md`; `docs/scene-in-code.md` lists
    /// them), plus the bookkeeping loading fills in: each draw's `index` is its
    /// position, `vertex_count` is what the per-vertex attributes hold, every sampler's
    /// texture index exists, every geometry input vertex exists.
    /// [`render_scene`](crate::pipeline::render_scene) calls it first.
    ///
    /// What it does not check: what needs the compiled program (left to the pipeline,
    /// as for a loaded scene), and the memory budget of loading (a scene in memory has
    /// already been allocated; rendering has its own limits).
    ///
    /// # Errors
    /// The first broken rule, in document order, as a [`SceneError`] on this scene's
    /// `path` whose field is the scene path of the value (`draws[0].indices[4]`) and
    /// whose message is the one the loader gives for the same fault in a file.
    pub fn validate(&self) -> Result<(), SceneError> {
        self.broken_rule()
            .map_or(Ok(()), |(field, message)| Err(self.error(field, message)))
    }

    fn broken_rule(&self) -> Option<Broken> {
        for (field, side) in [("width", self.width), ("height", self.height)] {
            if let Err(m) = rules::int_in(&rules::FRAME_SIDE, i64::from(side)) {
                return Some((field.to_string(), m));
            }
        }
        if let Some(b) = finite_list(&self.clear_color, "clear.color") {
            return Some(b);
        }
        if let Err(m) = rules::finite_f32(f64::from(self.clear_depth)) {
            return Some(("clear.depth".into(), m));
        }
        if let Err(m) = rules::target_count(self.targets.len()) {
            return Some(("targets".into(), m));
        }
        if let Err(m) = rules::target_clear_count(self.targets.clear.len(), self.targets.len()) {
            return Some(("clear.color".into(), m));
        }
        if let Err(m) = rules::samples(i64::from(self.samples)) {
            return Some(("samples".into(), m));
        }
        if let Err(b) = rules::multisample_support(self.samples, &self.targets, None) {
            return Some(b);
        }
        for (i, draw) in self.draws.iter().enumerate() {
            if let Some(b) = self.broken_draw_rule(i, draw) {
                return Some(b);
            }
            if let Err((key, m)) =
                rules::multisample_support(self.samples, &self.targets, Some(draw))
            {
                return Some((format!("draws[{i}].{key}"), m));
            }
            let blend = draw.state.raster.blend;
            if let Err(m) = rules::integer_blending(&self.targets, blend)
                .and_then(|()| rules::dual_source_targets(&self.targets, blend))
            {
                return Some((format!("draws[{i}].state.blend"), m));
            }
        }
        if let Some(rule) = self.expect {
            for (key, rule_of, value) in [
                (
                    "max_over_percent",
                    rules::MAX_OVER_PERCENT,
                    rule.max_over_percent,
                ),
                (
                    "max_mean_abs_error",
                    rules::MAX_MEAN_ABS_ERROR,
                    rule.max_mean_abs_error,
                ),
            ] {
                if let Err(m) = rules::number_rule(rule_of, value) {
                    return Some((format!("expect.{key}"), m));
                }
            }
        }
        None
    }

    fn broken_draw_rule(&self, i: usize, draw: &Draw) -> Option<Broken> {
        let at = format!("draws[{i}]");
        if draw.index != i {
            return Some((
                format!("{at}.index"),
                format!(
                    "index {} is not the draw's position in draws ({i})",
                    draw.index
                ),
            ));
        }
        if let Err(m) = rules::int_in(&rules::INSTANCES, i64::from(draw.instances)) {
            return Some((format!("{at}.instances"), m));
        }
        if let Some(b) = broken_attributes(&at, draw) {
            return Some(b);
        }
        let index_rules = |field: String, list: &[u32], restart: Option<u32>| {
            list.iter().enumerate().find_map(|(k, &index)| {
                rules::index_in_range(f64::from(index), draw.vertex_count, restart)
                    .err()
                    .map(|m| (format!("{field}[{k}]"), m))
            })
        };
        // `indices` is the triangle list the rasterizer draws; `elements`, when there
        // is one, the list the scene gave (which may hold the restart index).
        let field = format!("{at}.indices");
        if let Err(m) = rules::whole_triangles(draw.indices.len()) {
            return Some((field, m));
        }
        if let Some(b) = match &draw.elements {
            Some(list) => index_rules(field.clone(), list, draw.primitive_restart_index),
            None => None,
        }
        .or_else(|| index_rules(field, &draw.indices, None))
        {
            return Some(b);
        }
        if let Some(g) = &draw.geometry {
            let field = format!("{at}.geometry");
            if let Some(b) = index_rules(field.clone(), &g.primitives, None) {
                return Some(b);
            }
            let n = g.input.vertices();
            if !g.primitives.len().is_multiple_of(n) {
                return Some((
                    field,
                    format!(
                        "{} input vertices are not whole {} of {n}",
                        g.primitives.len(),
                        g.mode
                    ),
                ));
            }
        }
        for u in &draw.uniforms {
            let field = format!("{at}.uniforms.{}", u.key);
            if let Err(m) = rules::uniform_key(&u.key) {
                return Some((field, m));
            }
            if let Some(b) = finite_list(&u.values, &field) {
                return Some(b);
            }
        }
        for s in &draw.samplers {
            let field = format!("{at}.samplers.{}", s.name);
            let count = self.textures.len();
            if s.texture >= count {
                return Some((
                    format!("{field}.texture"),
                    format!(
                        "texture {} does not exist (the scene has {count} texture{})",
                        s.texture,
                        if count == 1 { "" } else { "s" }
                    ),
                ));
            }
            if let Some(gl) = &s.gl33
                && let Some(b) = broken_gl_sampler(&field, gl)
            {
                return Some(b);
            }
        }
        self.broken_state_rule(&format!("{at}.state"), draw)
    }

    fn broken_state_rule(&self, at: &str, draw: &Draw) -> Option<Broken> {
        let state = &draw.state;
        let pl = &state.points_lines;
        for (key, value) in [("point_size", pl.point_size), ("line_width", pl.line_width)] {
            if let Err(m) = rules::number_rule(rules::POINT_LINE_SIZE, f64::from(value)) {
                return Some((format!("{at}.{key}"), m));
            }
        }
        for plane in state.clip_planes.enabled_planes() {
            let field = format!("{at}.clip_planes[{plane}]");
            if let Some(b) = finite_list(&state.clip_planes.equations[plane], &field) {
                return Some(b);
            }
        }
        let raster = &state.raster;
        if let Some(rect) = raster.scissor {
            let field = format!("{at}.scissor");
            for (k, v) in rect.into_iter().enumerate() {
                let range = rules::rect_component(&rules::SCISSOR_XY, k);
                if let Err(m) = rules::int_in(&range, i64::from(v)) {
                    return Some((format!("{field}[{k}]"), m));
                }
            }
            if let Err(m) = rules::scissor_inside(rect, self.width, self.height) {
                return Some((field, m));
            }
        }
        if let Some(rect) = raster.viewport {
            let field = format!("{at}.viewport");
            for (k, v) in rect.into_iter().enumerate() {
                let range = rules::rect_component(&rules::VIEWPORT_XY, k);
                if let Err(m) = rules::int_in(&range, i64::from(v)) {
                    return Some((format!("{field}[{k}]"), m));
                }
            }
            if let Err(m) = rules::viewport_size(i64::from(rect[2]), i64::from(rect[3])) {
                return Some((field, m));
            }
        }
        if let Some(b) = finite_list(&raster.depth_range, &format!("{at}.depth_range")) {
            return Some(b);
        }
        if let Some(stencil) = raster.stencil {
            for (side, face) in [("front", stencil.front), ("back", stencil.back)] {
                if let Err(m) = rules::stencil_func(face.func) {
                    return Some((format!("{at}.stencil.{side}.func"), m));
                }
            }
        }
        if let Some(c) = state.multisample.sample_coverage {
            let field = format!("{at}.sample_coverage.value");
            if let Err(m) = rules::finite_f32(f64::from(c.value)) {
                return Some((field, m));
            }
            if let Err(m) = rules::number_rule(rules::SAMPLE_COVERAGE_VALUE, f64::from(c.value)) {
                return Some((field, m));
            }
        }
        if let Some(offset) = raster.polygon_offset {
            for (key, v) in [("factor", offset.factor), ("units", offset.units)] {
                if let Err(m) = rules::finite_f32(f64::from(v)) {
                    return Some((format!("{at}.polygon_offset.{key}"), m));
                }
            }
        }
        None
    }
}

/// The attribute rules of draw `at`: at least one, locations in range and once each,
/// sizes 1..=4, finite float data in whole elements, instanced arrays long enough,
/// every per-vertex array `vertex_count` long.
fn broken_attributes(at: &str, draw: &Draw) -> Option<Broken> {
    if draw.attributes.is_empty() {
        return Some((at.to_string(), rules::NEEDS_VERTICES.to_string()));
    }
    let mut locations = Vec::new();
    // (count, the attribute that set it) of the per-vertex arrays
    let mut per_vertex: Option<(u32, usize)> = None;
    for (k, a) in draw.attributes.iter().enumerate() {
        let af = format!("{at}.attributes[{k}]");
        if let Some(b) = broken_attribute(&af, a, &locations, draw.instances, &mut per_vertex, k) {
            return Some(b);
        }
        locations.push(a.location);
    }
    let Some((count, first)) = per_vertex else {
        return Some((
            format!("{at}.attributes"),
            rules::NEEDS_PER_VERTEX_ATTRIBUTE.to_string(),
        ));
    };
    if count != draw.vertex_count {
        return Some((
            format!("{at}.vertex_count"),
            format!(
                "{} vertices, but attributes[{first}] (location {}) holds {count}",
                draw.vertex_count, draw.attributes[first].location
            ),
        ));
    }
    None
}

fn broken_attribute(
    af: &str,
    a: &Attribute,
    earlier: &[u32],
    instances: u32,
    per_vertex: &mut Option<(u32, usize)>,
    k: usize,
) -> Option<Broken> {
    let location = rules::int_in(&rules::ATTRIBUTE_LOCATION, i64::from(a.location))
        .and_then(|_| rules::location_once(earlier, a.location));
    if let Err(m) = location {
        return Some((format!("{af}.location"), m));
    }
    if let Err(m) = rules::int_in(&rules::ATTRIBUTE_SIZE, i64::from(a.size)) {
        return Some((format!("{af}.size"), m));
    }
    let data = format!("{af}.data");
    // integer arrays hold 32-bit patterns, any of which is valid
    if a.ty == AttributeType::Float
        && let Some(b) = finite_list(&a.data, &data)
    {
        return Some(b);
    }
    let count = match rules::whole_elements(a.data.len(), a.size) {
        Ok(c) => c,
        Err(m) => return Some((data, m)),
    };
    let counted = if a.divisor > 0 {
        rules::instanced_elements(count, a.divisor, instances)
    } else {
        match *per_vertex {
            None => {
                *per_vertex = Some((count, k));
                Ok(())
            }
            Some((n, first)) => rules::same_vertex_count(count, first, n),
        }
    };
    counted.err().map(|m| (data, m))
}

/// The GL 3.3 sampler state's numbers: finite colours and λ values, levels in range.
fn broken_gl_sampler(field: &str, gl: &GlSampler) -> Option<Broken> {
    if let Some(b) = finite_list(&gl.border_color, &format!("{field}.border_color")) {
        return Some(b);
    }
    for (key, v) in [
        ("min_lod", gl.min_lod),
        ("max_lod", gl.max_lod),
        ("lod_bias", gl.lod_bias),
    ] {
        if let Err(m) = rules::finite_f32(f64::from(v)) {
            return Some((format!("{field}.{key}"), m));
        }
    }
    for (key, v) in [("base_level", gl.base_level), ("max_level", gl.max_level)] {
        if let Err(m) = rules::int_in(&rules::TEXTURE_LEVEL, i64::from(v)) {
            return Some((format!("{field}.{key}"), m));
        }
    }
    None
}

/// The first value of `values` that is not a finite f32, at `field[k]`.
fn finite_list(values: &[f32], field: &str) -> Option<Broken> {
    values.iter().enumerate().find_map(|(k, &v)| {
        rules::finite_f32(f64::from(v))
            .err()
            .map(|m| (format!("{field}[{k}]"), m))
    })
}
