//! Compiling and linking a draw's shaders, with errors that name the scene field.

use super::fragment_stage::CsirFragmentStage;
use crate::scene::{Draw, Scene, SceneError, ShaderSource};
use csir::exec::batch::Plan;
use csir::{Limits, Program, Shader, Stage};
use std::collections::HashMap;
use std::sync::Arc;

/// Compile one shader source of `draw`; a compile error becomes a [`SceneError`] on
/// `draws[i].vertex` / `draws[i].fragment` whose message is the compiler's full
/// `FILE:LINE:COL: error: MESSAGE` report.
fn compile_shader(
    scene: &Scene,
    field: String,
    source: &ShaderSource,
    stage: Stage,
    limits: &Limits,
) -> Result<Shader, SceneError> {
    let name = source.path.display().to_string();
    csir::compile(&source.text, &name, stage, limits).map_err(|errors| {
        scene.error(
            field,
            format!(
                "shader does not compile:\n{}",
                errors.to_string().trim_end()
            ),
        )
    })
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
    )?;
    let fs = compile_shader(
        scene,
        draw.fragment_field(),
        &draw.fragment,
        Stage::Fragment,
        limits,
    )?;
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
    programs: HashMap<(String, String), (Arc<Program>, Arc<Plan>)>,
}

impl ProgramCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// Add a program compiled elsewhere for the shader pair whose source texts are
    /// `vertex` and `fragment` (a draw whose `vertex.text` and `fragment.text` are these
    /// texts then uses it), with its fragment shader's batch plan; replaces an earlier
    /// entry for the same pair.
    pub fn insert(&mut self, vertex: String, fragment: String, program: Arc<Program>) {
        let plan = Arc::new(CsirFragmentStage::plan(&program));
        self.programs.insert((vertex, fragment), (program, plan));
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
        let key = (draw.vertex.text.clone(), draw.fragment.text.clone());
        if let Some((program, plan)) = self.programs.get(&key) {
            return Ok((program.clone(), plan.clone()));
        }
        let program = Arc::new(compile_program(scene, draw, limits)?);
        let plan = Arc::new(CsirFragmentStage::plan(&program));
        self.programs.insert(key, (program.clone(), plan.clone()));
        Ok((program, plan))
    }
}
