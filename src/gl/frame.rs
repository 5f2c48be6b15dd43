//! A scene as the GL calls it names (docs/scene-format.md): each key becomes the
//! argument of its call in a [`csir_gl::FrameDesc`]; what OpenGL cannot express is an
//! error naming the field.

use crate::pipeline::PreparedScene;
use crate::scene::{
    AttributeType, Draw, PolygonMode, Primitive, ProvokingVertex, Scene, SceneError, ShadeModel,
};
use crate::texture::{Filter, MinFilter, Wrap};
use csir::Program;
use csir_gl::glow;
use csir_gl::{
    AttributeDesc, Blend, Conventional, DrawDesc, DrawState, FrameDesc, ProfileChoice, SamplerDesc,
    ShaderDesc, Stage, TextureDesc, UniformDesc,
};
use csir_raster::{BlendMode, CullMode, DepthTest, RasterState};

/// The profile the scene's shaders are written for: compatibility when any of them is
/// GLSL 1.10 or 1.20 (no `#version`, or a version below 140) or asks for
/// `compatibility`; core otherwise (GLSL 1.40 and later, GLSL ES).
pub fn profile(scene: &Scene) -> ProfileChoice {
    let compatibility = scene.draws.iter().any(|d| {
        [&d.vertex, &d.fragment]
            .into_iter()
            .chain(d.geometry.as_ref().map(|g| &g.shader))
            .any(|s| s.csi.is_none() && needs_compatibility(&s.text))
    });
    if compatibility {
        ProfileChoice::Compatibility
    } else {
        ProfileChoice::Core
    }
}

/// Whether a GLSL source needs a compatibility context: its `#version` (GLSL 1.10 when
/// absent) is below 140 and not ES, or names the `compatibility` profile.
fn needs_compatibility(source: &str) -> bool {
    let version_line = source
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with('#') && l[1..].trim_start().starts_with("version"));
    let Some(line) = version_line else {
        return true;
    };
    let words: Vec<&str> = line[1..].split_whitespace().skip(1).collect();
    let number: u32 = words.first().and_then(|w| w.parse().ok()).unwrap_or(110);
    let es = words.get(1) == Some(&"es") || number == 100;
    words.get(1) == Some(&"compatibility") || (!es && number < 140)
}

/// `scene` as a frame description for `profile`.
///
/// # Errors
/// At the field: a CSI shader (the driver compiles GLSL only), or state that the
/// chosen profile cannot express (two-sided colour, flat shading or a clip plane
/// equation in a core context).
pub fn frame_desc<'s>(
    scene: &'s Scene,
    profile: ProfileChoice,
    prepared: Option<&PreparedScene<'s>>,
) -> Result<FrameDesc<'s>, SceneError> {
    let mut mipmapped = vec![false; scene.textures.len()];
    for d in &scene.draws {
        for b in &d.samplers {
            if let Some(m) = mipmapped.get_mut(b.texture)
                && b.sampler.is_mipmapped()
            {
                *m = true;
            }
        }
    }
    let textures = scene
        .textures
        .iter()
        .zip(&mipmapped)
        .enumerate()
        .map(|(i, (t, &mipmapped))| TextureDesc {
            width: t.texture.width(),
            height: t.texture.height(),
            rgba8: t.texture.texels().as_flattened(),
            mipmapped,
            gl33: t
                .gl33
                .as_ref()
                .map(|g| super::textures33::image(scene, i, g, mipmapped)),
        })
        .collect();
    let draws = scene
        .draws
        .iter()
        .enumerate()
        .map(|(i, d)| draw_desc(scene, d, profile, prepared.and_then(|p| p.program(i))))
        .collect::<Result<_, _>>()?;
    Ok(FrameDesc {
        width: scene.width,
        height: scene.height,
        clear_color: scene.clear_color,
        clear_depth: scene.clear_depth,
        clear_stencil: scene.clear_stencil,
        textures,
        draws,
        targets: super::targets::target_descs(scene),
        framebuffer_srgb: scene.targets.framebuffer_srgb,
        seamless_cube_map: scene.seamless_cube_map,

        samples: scene.samples,
    })
}

/// One draw as GL calls.
fn draw_desc<'s>(
    scene: &'s Scene,
    draw: &'s Draw,
    profile: ProfileChoice,
    program: Option<&Program>,
) -> Result<DrawDesc<'s>, SceneError> {
    let mut shaders = Vec::new();
    let geometry = draw.geometry.as_ref().map(|g| {
        (
            Stage::Geometry,
            &g.shader,
            format!("{}.geometry", draw.field()),
        )
    });
    for (stage, source, field) in [
        (Stage::Vertex, &draw.vertex, draw.vertex_field()),
        (Stage::Fragment, &draw.fragment, draw.fragment_field()),
    ]
    .into_iter()
    .chain(geometry)
    {
        if source.csi.is_some() {
            return Err(scene.error(
                field,
                format!(
                    "{} is a compiled CSI shader; an OpenGL driver compiles GLSL only: \
                     give the GLSL source it was compiled from",
                    source.path.display()
                ),
            ));
        }
        if let Some(at) = source.text.find('\0') {
            let line = source.text[..at].lines().count().max(1);
            return Err(scene.error(
                field,
                format!(
                    "{}: a NUL byte on line {line}: GLSL text has none (a driver would read \
                     the source only up to it)",
                    source.path.display()
                ),
            ));
        }
        shaders.push(ShaderDesc {
            stage,
            name: source.path.to_str().unwrap_or("shader"),
            // a byte-order mark is the file's encoding, not GLSL: the driver gets the text
            source: source.text.strip_prefix('\u{feff}').unwrap_or(&source.text),
        });
    }
    let (attribute_bindings, conventional) = vertex_inputs(draw, program);
    let (matrices, uniforms) = matrices(scene, draw)?;
    let mut state = draw_state(scene, draw, profile)?;
    state.matrices = matrices;
    Ok(DrawDesc {
        shaders,
        attribute_bindings,
        conventional,
        attributes: draw
            .attributes
            .iter()
            .map(|a| AttributeDesc {
                location: a.location,
                size: a.size,
                data: &a.data,
                ty: attribute_type(a.ty),
                divisor: a.divisor,
            })
            .collect(),
        instances: draw.instances,
        mode: match &draw.geometry {
            Some(g) => geometry_mode(g.mode),
            None => mode(draw.primitive),
        },
        indices: draw.elements.as_deref().unwrap_or(&draw.indices),
        restart: draw.primitive_restart_index,
        uniforms: uniforms
            .into_iter()
            .map(|u| UniformDesc {
                key: &u.key,
                values: &u.values,
                ints: u.ints.as_deref(),
            })
            .collect(),
        samplers: draw
            .samplers
            .iter()
            .map(|b| SamplerDesc {
                name: &b.name,
                texture: b.texture,
                min_filter: min_filter(b.sampler.min_filter),
                mag_filter: filter(b.sampler.mag_filter),
                wrap: [wrap(b.sampler.wrap); 3],
                gl33: None,
            })
            .map(|desc| super::textures33::sampler(scene, draw, desc))
            .collect(),
        state,
    })
}

/// User inputs to bind by name, and compatibility inputs with arrays of their own, each
/// with its attribute location.
type VertexInputs = (Vec<(String, u32)>, Vec<(Conventional, u32)>);

/// The vertex inputs as this renderer locates them, for the driver: user inputs for
/// `glBindAttribLocation` (an explicit `layout(location)`, else declaration order:
/// docs/scene-format.md `attributes`), so that the driver reads the same arrays; and the
/// compatibility profile's built-in inputs with their own arrays (docs/glsl-dialects.md:
/// `gl_Normal` 1, `gl_MultiTexCoord0` 2, `gl_Color` 3, `gl_SecondaryColor` 4,
/// `gl_MultiTexCoord1..3` 5..7). They come from the draw's linked `program` when the
/// scene was prepared, else from compiling the vertex shader alone; both are empty when
/// this renderer cannot compile it (the driver then chooses).
fn vertex_inputs(draw: &Draw, program: Option<&Program>) -> VertexInputs {
    let located: Vec<(String, u16)> = match program {
        Some(program) => program
            .attributes
            .iter()
            .map(|a| (a.name.clone(), a.location))
            .collect(),
        None => {
            let limits = csir::Profile::Extended.limits();
            let name = draw.vertex.path.display().to_string();
            let Ok(shader) = csir::compile(&draw.vertex.text, &name, csir::Stage::Vertex, &limits)
            else {
                return (Vec::new(), Vec::new());
            };
            shader
                .interface
                .symbols
                .iter()
                .filter_map(|s| match s.kind {
                    csir::ir::SymbolKind::Attribute { location } => {
                        Some((s.name.clone(), location))
                    }
                    _ => None,
                })
                .collect()
        }
    };
    let mut bindings = Vec::new();
    let mut conventional = Vec::new();
    for (name, location) in &located {
        let location = u32::from(*location);
        let input = match name.as_str() {
            "gl_Vertex" => continue, // generic attribute 0 is gl_Vertex (GL 2.1 §2.7)
            "gl_Normal" => Conventional::Normal,
            "gl_Color" => Conventional::Color,
            "gl_SecondaryColor" => Conventional::SecondaryColor,
            name if name.starts_with("gl_MultiTexCoord") => {
                match name["gl_MultiTexCoord".len()..].parse() {
                    Ok(unit) => Conventional::TexCoord(unit),
                    Err(_) => continue,
                }
            }
            name if name.starts_with("gl_") => continue,
            name => {
                bindings.push((name.to_string(), location));
                continue;
            }
        };
        conventional.push((input, location));
    }
    (bindings, conventional)
}

/// The compatibility profile's matrix uniforms a scene may set, and how GL holds them:
/// `gl_ModelViewMatrix` and `gl_ProjectionMatrix` are the two matrices GL keeps
/// (`glLoadMatrixf`); GL derives every other one from them.
const MODELVIEW: &str = "gl_ModelViewMatrix";
const PROJECTION: &str = "gl_ProjectionMatrix";
const MODELVIEW_PROJECTION: &str = "gl_ModelViewProjectionMatrix";

/// The modelview and projection matrices for a draw's built-in matrix uniforms
/// (identity until set, as in the CPU renderer), and the draw's other uniforms. A
/// `gl_ModelViewProjectionMatrix` is met by the projection `MVP · MV⁻¹` (with the
/// modelview given or identity); given with both others, it must be their product.
/// Any other built-in matrix (`gl_NormalMatrix`, the inverses and transposes) is an
/// error: GL derives it and cannot hold a value of its own.
fn matrices<'s>(
    scene: &Scene,
    draw: &'s Draw,
) -> Result<([[f32; 16]; 2], Vec<&'s crate::scene::UniformValue>), SceneError> {
    let mut others = Vec::new();
    let (mut modelview, mut projection, mut mvp) = (None, None, None);
    for u in &draw.uniforms {
        let matrix = || -> Result<glam::Mat4, SceneError> {
            <[f32; 16]>::try_from(u.values.as_slice())
                .map(|m| glam::Mat4::from_cols_array(&m))
                .map_err(|_| {
                    scene.error(
                        draw.uniform_field(&u.key),
                        format!("expected 16 floats for a mat4, got {}", u.values.len()),
                    )
                })
        };
        match u.key.as_str() {
            MODELVIEW => modelview = Some(matrix()?),
            PROJECTION => projection = Some(matrix()?),
            MODELVIEW_PROJECTION => mvp = Some(matrix()?),
            key if key.starts_with("gl_") => {
                return Err(scene.error(
                    draw.uniform_field(key),
                    format!(
                        "OpenGL derives {key} from gl_ModelViewMatrix and \
                         gl_ProjectionMatrix and holds no value of its own: set those two \
                         (or gl_ModelViewProjectionMatrix) instead"
                    ),
                ));
            }
            _ => others.push(u),
        }
    }
    let mv = modelview.unwrap_or(glam::Mat4::IDENTITY);
    let p = match (projection, mvp) {
        (p, None) => p.unwrap_or(glam::Mat4::IDENTITY),
        (None, Some(mvp)) => {
            let inverse = mv.inverse();
            if !inverse.is_finite() {
                return Err(scene.error(
                    draw.uniform_field(MODELVIEW_PROJECTION),
                    "GL derives it as projection · modelview, and gl_ModelViewMatrix has no \
                     inverse to find the projection with",
                ));
            }
            mvp * inverse
        }
        (Some(p), Some(mvp)) => {
            let scale = mvp
                .to_cols_array()
                .iter()
                .fold(1.0f32, |m, v| m.max(v.abs()));
            if !(p * mv).abs_diff_eq(mvp, 1e-5 * scale) {
                return Err(scene.error(
                    draw.uniform_field(MODELVIEW_PROJECTION),
                    "GL derives it as gl_ProjectionMatrix · gl_ModelViewMatrix, and the \
                     value given is not that product",
                ));
            }
            p
        }
    };
    Ok(([mv.to_cols_array(), p.to_cols_array()], others))
}

/// The draw's state as GL calls; in a core context, a clip plane whose equation would
/// need `glClipPlane` is an error.
fn draw_state(scene: &Scene, draw: &Draw, profile: ProfileChoice) -> Result<DrawState, SceneError> {
    let core = profile == ProfileChoice::Core;
    let state = &draw.state;
    let field = |key: &str| format!("{}.state.{key}", draw.field());
    let core_error = |key: &str, what: &str| {
        scene.error(
            field(key),
            format!(
                "{what} needs a compatibility context, and this scene's shaders are \
                 written for the core profile (GLSL 1.40 or later): write the shaders \
                 in GLSL 1.10/1.20, or leave the key at its default"
            ),
        )
    };
    // Two-sided colour and the shade model act on the compatibility built-in colours
    // only (GL 2.1 §2.14.1, §2.14.7), which core shaders cannot declare: in a core
    // context they change nothing, as in the CPU renderer, and have no GL call.
    let mut clip_planes = [None; 8];
    for i in state.clip_planes.enabled_planes() {
        clip_planes[i] = Some(state.clip_planes.equations[i]);
    }
    if core && state.clip_planes.any() && !writes_clip_distance(&draw.vertex.text) {
        return Err(core_error(
            "clip_planes",
            "a clip plane equation (glClipPlane) for a vertex shader that does not write \
             gl_ClipDistance",
        ));
    }
    let raster = raster_state(&state.raster);
    Ok(DrawState {
        point_size: state.points_lines.point_size,
        program_point_size: state.points_lines.program_point_size,
        line_width: state.points_lines.line_width,
        polygon_mode: match state.points_lines.polygon_mode {
            PolygonMode::Fill => glow::FILL,
            PolygonMode::Line => glow::LINE,
            PolygonMode::Point => glow::POINT,
        },
        provoking_first: state.provoking_vertex == ProvokingVertex::First,
        two_sided_color: state.two_sided_color && !core,
        flat_shading: state.shade_model == ShadeModel::Flat && !core,
        clip_planes,
        alpha_to_coverage: state.multisample.alpha_to_coverage,
        sample_coverage: state
            .multisample
            .sample_coverage
            .map(|c| (c.value, c.invert)),
        ..raster
    })
}

/// Whether a vertex shader names `gl_ClipDistance` outside comments (then the driver
/// clips by the distances it writes, and the plane equations are not used).
fn writes_clip_distance(source: &str) -> bool {
    source.lines().any(|line| {
        let code = line.split("//").next().unwrap_or("");
        code.contains("gl_ClipDistance")
    })
}

/// Depth test, depth mask, culling and blending as GL calls (scene-format.md
/// `state`): `depth_test: none` disables the test, and with it depth writes.
fn raster_state(state: &RasterState) -> DrawState {
    let depth_func = match state.depth_test {
        DepthTest::Disabled => None,
        DepthTest::Less => Some(glow::LESS),
        DepthTest::LessEqual => Some(glow::LEQUAL),
        DepthTest::Greater => Some(glow::GREATER),
        DepthTest::GreaterEqual => Some(glow::GEQUAL),
        DepthTest::Equal => Some(glow::EQUAL),
        DepthTest::NotEqual => Some(glow::NOTEQUAL),
        DepthTest::Always => Some(glow::ALWAYS),
        DepthTest::Never => Some(glow::NEVER),
    };
    let cull_face = match state.cull {
        CullMode::Disabled => None,
        CullMode::Back => Some(glow::BACK),
        CullMode::Front => Some(glow::FRONT),
    };
    let blend = match state.blend {
        BlendMode::Replace => None,
        BlendMode::Alpha => Some(Blend::add(glow::SRC_ALPHA, glow::ONE_MINUS_SRC_ALPHA)),
        BlendMode::Additive => Some(Blend::add(glow::ONE, glow::ONE)),
        BlendMode::Function(f) => Some(super::fragment_ops::blend(&f)),
    };
    DrawState {
        color_mask: state.color_mask,
        scissor: state.scissor.map(|r| r.map(|v| v as i32)),
        viewport: state.viewport,
        depth_range: state.depth_range,
        polygon_offset: state.polygon_offset.map(|o| [o.factor, o.units]),
        stencil: state.stencil.map(super::fragment_ops::stencil),
        depth_clamp: state.depth_clamp,
        depth_func,
        depth_mask: state.depth_write,
        cull_face,
        blend,
        ..DrawState::default()
    }
}

/// `glDrawElements`'s mode for a primitive type.
fn mode(primitive: Primitive) -> u32 {
    match primitive {
        Primitive::Triangles => glow::TRIANGLES,
        Primitive::TriangleStrip => glow::TRIANGLE_STRIP,
        Primitive::TriangleFan => glow::TRIANGLE_FAN,
        Primitive::TrianglesAdjacency => glow::TRIANGLES_ADJACENCY,
        Primitive::TriangleStripAdjacency => glow::TRIANGLE_STRIP_ADJACENCY,
        Primitive::Points => glow::POINTS,
        Primitive::Lines => glow::LINES,
        Primitive::LineStrip => glow::LINE_STRIP,
        Primitive::LineLoop => glow::LINE_LOOP,
        Primitive::LinesAdjacency => glow::LINES_ADJACENCY,
        Primitive::LineStripAdjacency => glow::LINE_STRIP_ADJACENCY,
    }
}

/// The vertex array type: `GL_FLOAT`, or `GL_INT` / `GL_UNSIGNED_INT` for
/// `glVertexAttribIPointer`.
fn attribute_type(ty: AttributeType) -> u32 {
    match ty {
        AttributeType::Float => glow::FLOAT,
        AttributeType::Int => glow::INT,
        AttributeType::Uint => glow::UNSIGNED_INT,
    }
}

/// The `glDrawElements` mode of a draw with a geometry shader, by its GL name (one of
/// `crate::scene::GEOMETRY_MODES`).
fn geometry_mode(name: &str) -> u32 {
    match name {
        "points" => glow::POINTS,
        "lines" => glow::LINES,
        "line_strip" => glow::LINE_STRIP,
        "line_loop" => glow::LINE_LOOP,
        "lines_adjacency" => glow::LINES_ADJACENCY,
        "line_strip_adjacency" => glow::LINE_STRIP_ADJACENCY,
        "triangle_strip" => glow::TRIANGLE_STRIP,
        "triangle_fan" => glow::TRIANGLE_FAN,
        "triangles_adjacency" => glow::TRIANGLES_ADJACENCY,
        "triangle_strip_adjacency" => glow::TRIANGLE_STRIP_ADJACENCY,
        _ => glow::TRIANGLES,
    }
}

/// `GL_NEAREST` or `GL_LINEAR`.
fn filter(f: Filter) -> u32 {
    match f {
        Filter::Nearest => glow::NEAREST,
        Filter::Linear => glow::LINEAR,
    }
}

/// The `GL_TEXTURE_MIN_FILTER` value.
fn min_filter(f: MinFilter) -> u32 {
    match f {
        MinFilter::Nearest => glow::NEAREST,
        MinFilter::Linear => glow::LINEAR,
        MinFilter::NearestMipmapNearest => glow::NEAREST_MIPMAP_NEAREST,
        MinFilter::LinearMipmapNearest => glow::LINEAR_MIPMAP_NEAREST,
        MinFilter::NearestMipmapLinear => glow::NEAREST_MIPMAP_LINEAR,
        MinFilter::LinearMipmapLinear => glow::LINEAR_MIPMAP_LINEAR,
    }
}

/// The `GL_TEXTURE_WRAP_*` value.
fn wrap(w: Wrap) -> u32 {
    match w {
        Wrap::Clamp => glow::CLAMP_TO_EDGE,
        Wrap::Repeat => glow::REPEAT,
        Wrap::Mirror => glow::MIRRORED_REPEAT,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shaders_choose_the_profile_by_their_version() {
        assert!(needs_compatibility("void main() {}"));
        assert!(needs_compatibility("#version 120\nvoid main() {}"));
        assert!(needs_compatibility("// x\n#version 330 compatibility\n"));
        assert!(!needs_compatibility("#version 330 core\n"));
        assert!(!needs_compatibility("  #  version 140\n"));
        assert!(!needs_compatibility("#version 300 es\n"));
        assert!(!needs_compatibility("#version 100\n"));
    }

    #[test]
    fn the_raster_state_is_the_gl_calls_it_names() {
        let s = raster_state(&RasterState {
            depth_test: DepthTest::Disabled,
            depth_write: true,
            cull: CullMode::Front,
            blend: BlendMode::Alpha,
            ..RasterState::default()
        });
        assert_eq!(s.depth_func, None);
        assert_eq!(s.cull_face, Some(glow::FRONT));
        let b = s.blend.expect("alpha blends");
        assert_eq!(
            (
                b.src_rgb,
                b.dst_rgb,
                b.src_alpha,
                b.dst_alpha,
                b.equation_rgb
            ),
            (
                glow::SRC_ALPHA,
                glow::ONE_MINUS_SRC_ALPHA,
                glow::SRC_ALPHA,
                glow::ONE_MINUS_SRC_ALPHA,
                glow::FUNC_ADD
            )
        );
        assert_eq!(
            raster_state(&RasterState::default()).depth_func,
            Some(glow::LESS)
        );
    }
}
