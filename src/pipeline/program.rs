//! Compiling and linking a draw's shaders, with errors that name the scene field.

use super::fragment_stage::CsirFragmentStage;
use crate::scene::{Draw, Scene, SceneError, ShaderSource};
use csir::exec::batch::Plan;
use csir::{Limits, Program, Shader, Stage};
use std::collections::HashMap;
use std::sync::Arc;

/// Compile one shader source of `draw`; a compile error becomes a [`SceneError`] on
/// `draws[i].vertex` / `draws[i].fragment` whose message is the compiler's full
/// `FILE:LINE:COL: error: MESSAGE` report. A CSI file is loaded instead (see
/// [`load_csi_shader`]).
fn compile_shader(
    scene: &Scene,
    field: String,
    source: &ShaderSource,
    stage: Stage,
    limits: &Limits,
    before_geometry: bool,
) -> Result<Shader, SceneError> {
    if let Some(bytes) = &source.csi {
        return load_csi_shader(scene, field, source, bytes, stage, limits);
    }
    let name = source.path.display().to_string();
    let units = [csir::Unit {
        name: &name,
        source: &source.text,
    }];
    let compiled = match (stage, before_geometry) {
        (Stage::Vertex, true) => csir::compile_vertex_for_geometry(&units, limits),
        _ => csir::compile_units(&units, stage, limits),
    };
    compiled.map_err(|errors| {
        scene.error(
            field,
            format!(
                "shader does not compile:\n{}",
                errors.to_string().trim_end()
            ),
        )
    })
}

/// Load the CSI file `source` (bytes `bytes`) through the untrusted loader
/// ([`csir::load_csi`]) under `limits`, as `field` of the scene.
///
/// Errors, on `field`: the loader's (byte offset and reason: bad magic, checksum, a
/// count above `limits`, an extended-profile blob under `--profile seed`, ...); a blob
/// of the other stage; a CSI v1 blob, which carries no interface names and so cannot
/// be linked by name (the v1 metadata rule of shaders/src/csi/v1.rs and
/// docs/scene-format.md "Shaders": save it as v2 with `compile --csi`).
fn load_csi_shader(
    scene: &Scene,
    field: String,
    source: &ShaderSource,
    bytes: &[u8],
    stage: Stage,
    limits: &Limits,
) -> Result<Shader, SceneError> {
    let path = source.path.display();
    let shader = csir::load_csi(bytes, limits)
        .map_err(|e| scene.error(field.clone(), format!("{path}: {e}")))?;
    if shader.stage != stage {
        return Err(scene.error(
            field,
            format!(
                "{path} holds a {} shader; this field needs a {stage} shader",
                shader.stage
            ),
        ));
    }
    if !shader.interface.named {
        return Err(scene.error(
            field,
            format!(
                "{path} is CSI v1, which carries no attribute, varying or uniform names, so a \
                 scene cannot link it; save the shader as CSI v2 (`csir-render compile \
                 SHADER --csi OUT.csi`)"
            ),
        ));
    }
    Ok(shader)
}

/// Compile and link `draw`'s vertex and fragment shaders under `limits`.
///
/// Errors: a compile error on `draws[i].vertex` or `draws[i].fragment`, a link error
/// (missing or mistyped varying, ...) on `draws[i]`.
pub fn compile_program(scene: &Scene, draw: &Draw, limits: &Limits) -> Result<Program, SceneError> {
    let vs = compile_shader(
        scene,
        draw.vertex_field(),
        &draw.vertex,
        Stage::Vertex,
        limits,
        draw.geometry.is_some(),
    )?;
    let fs = compile_shader(
        scene,
        draw.fragment_field(),
        &draw.fragment,
        Stage::Fragment,
        limits,
        false,
    )?;
    if let Some(geometry) = &draw.geometry {
        let gs = compile_shader(
            scene,
            format!("{}.geometry", draw.field()),
            &geometry.shader,
            Stage::Geometry,
            limits,
            false,
        )?;
        return Program::link_geometry(vs, gs, fs).map_err(|e| {
            scene.error(
                draw.field(),
                format!(
                    "program ({} + {} + {}) does not link: {e}",
                    draw.vertex.path.display(),
                    geometry.shader.path.display(),
                    draw.fragment.path.display()
                ),
            )
        });
    }
    Program::link(vs, fs).map_err(|e| {
        scene.error(
            draw.field(),
            format!(
                "program ({} + {}) does not link: {e}",
                draw.vertex.path.display(),
                draw.fragment.path.display()
            ),
        )
    })
}

/// Programs of one scene, compiled once per distinct (vertex, fragment) source pair,
/// with the batch [`Plan`] of each fragment shader (decoded once per program, bound
/// per draw).
#[derive(Default)]
pub struct ProgramCache {
    programs: HashMap<ProgramKey, (Arc<Program>, Arc<Plan>)>,
}

/// The vertex, fragment and (if any) geometry shader of a cached program.
type ProgramKey = (ShaderKey, ShaderKey, Option<ShaderKey>);

/// What identifies one shader of a pair in the cache: its GLSL text, or its CSI bytes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum ShaderKey {
    Glsl(String),
    Csi(Vec<u8>),
}

impl ShaderKey {
    fn of(source: &ShaderSource) -> ShaderKey {
        match &source.csi {
            Some(bytes) => ShaderKey::Csi(bytes.clone()),
            None => ShaderKey::Glsl(source.text.clone()),
        }
    }
}

impl ProgramCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// Add a program compiled elsewhere for the shaders whose source texts are
    /// `vertex`, `fragment` and `geometry` (a draw whose `vertex.text`,
    /// `fragment.text` and geometry text are these then uses it), with its fragment
    /// shader's batch plan; replaces an earlier entry for the same shaders.
    pub fn insert(
        &mut self,
        vertex: String,
        fragment: String,
        geometry: Option<String>,
        program: Arc<Program>,
    ) {
        let plan = Arc::new(CsirFragmentStage::plan(&program));
        self.programs.insert(
            (
                ShaderKey::Glsl(vertex),
                ShaderKey::Glsl(fragment),
                geometry.map(ShaderKey::Glsl),
            ),
            (program, plan),
        );
    }

    /// The linked program of `draw`, compiled on first use.
    pub fn get(
        &mut self,
        scene: &Scene,
        draw: &Draw,
        limits: &Limits,
    ) -> Result<Arc<Program>, SceneError> {
        self.get_with_plan(scene, draw, limits)
            .map(|(program, _)| program)
    }

    /// The linked program of `draw` and its fragment shader's batch plan, made on
    /// first use.
    pub fn get_with_plan(
        &mut self,
        scene: &Scene,
        draw: &Draw,
        limits: &Limits,
    ) -> Result<(Arc<Program>, Arc<Plan>), SceneError> {
        let key = (
            ShaderKey::of(&draw.vertex),
            ShaderKey::of(&draw.fragment),
            draw.geometry.as_ref().map(|g| ShaderKey::of(&g.shader)),
        );
        if let Some((program, plan)) = self.programs.get(&key) {
            return Ok((program.clone(), plan.clone()));
        }
        let program = Arc::new(compile_program(scene, draw, limits)?);
        let plan = Arc::new(CsirFragmentStage::plan(&program));
        self.programs.insert(key, (program.clone(), plan.clone()));
        Ok((program, plan))
    }
}
