//! Scenes with several colour targets, or a target that is not RGBA8
//! (docs/scene-format.md "Render targets").
//!
//! Such a scene renders once per target: pass `k` draws every draw with its fragment
//! shader's output at `layout(location = k)` as the shader's colour output (its
//! STORE_COLOR moved to `aux` 0, [`select_output`]) into a framebuffer of target `k`'s
//! format, cleared to target `k`'s clear value. This gives exactly what GL's one pass
//! writes to each draw buffer: coverage, depth and discard do not depend on the colour
//! targets, and blending and the colour mask act on each target alone (GL 3.3
//! §4.1.8, §4.2.2), so each pass sees the same fragments GL sends to that target.
//! A scene without `targets` or `framebuffer_srgb` never comes here.

use super::program::ProgramCache;
use super::render::{Frame, PreparedScene, RenderError};
use crate::image_io::Rgba8Image;
use crate::scene::{Draw, Scene, SceneError};
use csir::Program;
use csir::ir::{Op, Type};
use csir_raster::{ColorTarget, Framebuffer, Renderer, TargetClass};

/// One target read back: its format and its values, top row first, as
/// [`Framebuffer::target_values_top_down`] gives them (unorm channels as 0..=255,
/// float ones as `f32` bits, integers as they are; missing channels (0, 0, 1)).
#[derive(Clone, Debug, PartialEq)]
pub struct TargetImage {
    /// The target's format (and `GL_FRAMEBUFFER_SRGB`).
    pub target: ColorTarget,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width · height` pixels, top row first.
    pub values: Vec<[u32; 4]>,
}

impl TargetImage {
    /// The values as RGBA8 bytes, top row first: unorm channels as they are, float
    /// channels converted as fragment colours are ([`csir_raster::to_unorm8`]),
    /// integers clamped to 0..=255 (the PNG of a target, docs/scene-format.md
    /// "Render targets").
    pub fn to_rgba8(&self) -> Vec<u8> {
        let class = self.target.format.class();
        self.values
            .iter()
            .flat_map(|p| {
                p.map(|w| match class {
                    TargetClass::Float => csir_raster::to_unorm8(f32::from_bits(w)),
                    TargetClass::Int => (w as i32).clamp(0, 255) as u8,
                    _ => w.min(255) as u8,
                })
            })
            .collect()
    }
}

/// `program` with its fragment shader's output at `location` made the colour
/// output: the STORE_COLORs of `location` and of location 0 swap their `aux` (the
/// interpreters store `aux` 0 only, docs/csir.md "Interface stores").
pub fn select_output(program: &Program, location: u16) -> Program {
    let mut out = program.clone();
    if location == 0 {
        return out;
    }
    let location = location as i16;
    for ir in &mut out.fragment.ir {
        if ir.opcode() == Some(Op::StoreColor) {
            if ir.aux == location {
                ir.aux = 0;
            } else if ir.aux == 0 {
                ir.aux = location;
            }
        }
    }
    out
}

/// Whether a fragment output of type `ty` may write a target of class `class`: a
/// float output a unorm or float target, an `int` output a signed and a `uint` output
/// an unsigned integer target (GL 3.3 §4.2.1: any other pairing is undefined).
fn output_fits(ty: Type, class: TargetClass) -> bool {
    let signed = matches!(ty, Type::Int | Type::IVec2 | Type::IVec3 | Type::IVec4);
    let unsigned = matches!(ty, Type::Uint | Type::UVec2 | Type::UVec3 | Type::UVec4);
    match class {
        TargetClass::Unorm | TargetClass::Float => !signed && !unsigned,
        TargetClass::Uint => unsigned,
        TargetClass::Int => signed,
    }
}

/// GLSL's name of an output type, for messages.
fn type_name(ty: Type) -> String {
    format!("{ty}")
}

/// The fragment outputs of `draw`'s linked `program` against the scene's targets: an
/// output at a location with no target, or whose type does not fit its target's
/// format, is an error on `draws[i].fragment` naming the output and the target; so
/// is a dual-source blend without the second source colour
/// (`pipeline/dual_source.rs`).
pub fn check_outputs(scene: &Scene, draw: &Draw, program: &Program) -> Result<(), SceneError> {
    let targets = &scene.targets;
    for (location, symbol) in program.fragment.interface.color_outputs() {
        let k = location as usize;
        let Some(target) = targets.list.get(k) else {
            return Err(scene.error(
                draw.fragment_field(),
                format!(
                    "output '{}' at location {location} has no target: the scene has {} \
                     (targets[0..{}]); add targets up to targets[{location}], or write the \
                     output at a location below {}",
                    symbol.name,
                    targets.len(),
                    targets.len(),
                    targets.len()
                ),
            ));
        };
        let ty = symbol.ty;
        if !output_fits(ty, target.format.class()) {
            let want = match target.format.class() {
                TargetClass::Uint => "a uint/uvecN output",
                TargetClass::Int => "an int/ivecN output",
                _ => "a float/vecN output",
            };
            return Err(scene.error(
                draw.fragment_field(),
                format!(
                    "output '{}' ({}) writes targets[{k}], which is {}: undefined in GL \
                     (GL 3.3 §4.2.1); that target takes {want}, or give targets[{k}] a \
                     format of the output's kind",
                    symbol.name,
                    type_name(ty),
                    target.format.name()
                ),
            ));
        }
    }
    super::dual_source::check_second_source(scene, draw, program)
}

/// Renders `prepared` (whose scene has `targets` or `framebuffer_srgb`) target by
/// target, as the module doc says. The frame's `image` is target 0 as RGBA8 and its
/// `draws` target 0's pass's statistics.
pub(super) fn render_targets(
    prepared: &PreparedScene<'_>,
    renderer: &mut Renderer,
) -> Result<Frame, RenderError> {
    let scene = prepared.scene();
    let targets = &scene.targets;
    let mut cache = ProgramCache::new();
    let mut images = Vec::with_capacity(targets.len());
    let mut first = None;
    for (k, &target) in targets.list.iter().enumerate() {
        let variant;
        let pass = if k == 0 {
            prepared
        } else {
            variant = PreparedScene::for_output(scene, prepared.limits(), &mut cache, k as u16)?;
            &variant
        };
        let mut fb = Framebuffer::with_target(scene.width, scene.height, target)?;
        fb.clear_target(targets.clear[k], scene.clear_depth);
        let draws = pass.draw_with(renderer, &mut fb, &mut super::draw_runner::PlainDraw)?;
        if k == 0 {
            let image = Rgba8Image::new(fb.width(), fb.height(), fb.to_rgba8_top_down())
                .expect("a framebuffer is at least 1x1 and reads back all its pixels");
            first = Some((image, draws));
        }
        images.push(TargetImage {
            target,
            width: fb.width(),
            height: fb.height(),
            values: fb.target_values_top_down(),
        });
    }
    let (image, draws) = first.expect("a scene has at least one target");
    Ok(Frame {
        image,
        draws,
        targets: images,
    })
}
