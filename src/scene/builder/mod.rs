//! Scenes built in code: [`Scene::builder`] → [`SceneBuilder`], draws from
//! [`Draw::new`] → [`DrawBuilder`], state from [`DrawState`]'s helpers
//! (`docs/scene-in-code.md`). The builder fills in what loading fills in for a file
//! (draw indexes, vertex counts, triangle assembly, shader names, texture indexes, mip
//! chains) and [`SceneBuilder::build`] checks the result with
//! [`Scene::validate`], so a bad value is the same named error as in a scene file.
//!
//! Each scene key is one method: a new key is one more method on [`SceneBuilder`]
//! (scene), [`DrawBuilder`] (draw) or [`DrawState`] (state).

mod draw;
mod state;
mod textures;

use std::path::PathBuf;

pub use draw::DrawBuilder;
pub(crate) use draw::{plain_triangles, triangle_lists};
pub(crate) use textures::{TextureGrowth, complete_textures};

use super::{Draw, NamedTexture, Scene, SceneError, Targets, rules};
use crate::compare::ToleranceRule;
use crate::texture::Texture;
use crate::texture::gl33::{GlTexture, TexFormat};
use csir::sampler_type::TexTarget;
use csir_raster::{ColorTarget, TargetFormat};

/// The path a built scene goes by in errors until [`SceneBuilder::name`] names it.
pub const BUILT_SCENE_NAME: &str = "<scene built in code>";

/// A scene being built in code: its framebuffer, clear values, textures and draws.
///
/// Methods take and return the builder; misuse is not a panic but an error from
/// [`SceneBuilder::build`], the one the scene format gives the same fault in a file.
#[derive(Clone, Debug)]
pub struct SceneBuilder {
    path: PathBuf,
    width: u32,
    height: u32,
    clear_color: [f32; 4],
    clear_depth: f32,
    clear_stencil: u8,
    targets: Targets,
    /// Whether [`SceneBuilder::target`] was called (the default target list replaced).
    targets_listed: bool,
    textures: Vec<NamedTexture>,
    draws: Vec<DrawBuilder>,
    expect: Option<ToleranceRule>,
    seamless_cube_map: bool,

    samples: u32,
    /// Faults found when a method was called, (field, message), in call order.
    faults: Vec<(String, String)>,
}

impl Scene {
    /// A scene of a `width × height` framebuffer (each 1..=16384) to be built in code:
    /// add textures and draws, then [`SceneBuilder::build`]. It starts as a scene file
    /// with only `format`, `width` and `height` would: clear colour (0, 0, 0, 1), clear
    /// depth 1, no textures, no draws.
    ///
    /// ```
    /// use csir_render::pipeline::{RenderOptions, render_scene};
    /// use csir_render::scene::{Draw, DrawState, Scene};
    ///
    /// const VERTEX: &str = "#version 330 core
    /// layout(location = 0) in vec2 aPos;
    /// layout(location = 1) in vec4 aColor;
    /// out vec4 vColor;
    /// void main() { vColor = aColor; gl_Position = vec4(aPos, 0.0, 1.0); }";
    /// const FRAGMENT: &str = "#version 330 core
    /// in vec4 vColor;
    /// uniform float uAlpha;
    /// out vec4 fragColor;
    /// void main() { fragColor = vec4(vColor.rgb, uAlpha); }";
    ///
    /// // a red quad (two triangles from an index buffer), half covered by green
    /// let quad = |x0: f32, x1: f32, rgba: [f32; 4], alpha: f32| {
    ///     Draw::new(VERTEX, FRAGMENT)
    ///         .attribute(0, 2, &[x0, -1.0, x1, -1.0, x1, 1.0, x0, 1.0])
    ///         .attribute(1, 4, &rgba.repeat(4))
    ///         .indices(&[0, 1, 2, 0, 2, 3])
    ///         .uniform("uAlpha", &[alpha])
    /// };
    /// let scene = Scene::builder(4, 2)
    ///     .clear_color([0.0, 0.0, 1.0, 1.0])
    ///     .draw(quad(-1.0, 1.0, [1.0, 0.0, 0.0, 1.0], 1.0).state(DrawState::no_depth()))
    ///     .draw(quad(0.0, 1.0, [0.0, 1.0, 0.0, 1.0], 0.5).state(DrawState::alpha_blend()))
    ///     .build()?;
    /// let frame = render_scene(&scene, &RenderOptions::default())?;
    /// let px = frame.image.pixels();
    /// assert_eq!(&px[0..4], &[255, 0, 0, 255]); // left half: red
    /// // right: green at alpha 0.5 (128 as RGBA8) over red, `alpha` on RGB and A:
    /// // R 255·(255−128)/255 = 127, G 255·128/255 = 128, A 128·128/255 + 255·127/255 ≈ 191
    /// assert_eq!(&px[12..16], &[127, 128, 0, 191]);
    ///
    /// // a fault is the loader's error, on the field's scene path
    /// let bad = Scene::builder(4, 2)
    ///     .draw(Draw::new(VERTEX, FRAGMENT).attribute(0, 9, &[0.0; 9]))
    ///     .build()
    ///     .unwrap_err();
    /// assert_eq!(bad.field, "draws[0].attributes[0].size");
    /// assert_eq!(bad.message(), "expected an integer in 1..=4, got 9");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn builder(width: u32, height: u32) -> SceneBuilder {
        SceneBuilder {
            path: PathBuf::from(BUILT_SCENE_NAME),
            width,
            height,
            clear_color: [0.0, 0.0, 0.0, 1.0],
            clear_depth: 1.0,
            clear_stencil: 0,
            targets: Targets::default(),
            targets_listed: false,
            textures: Vec::new(),
            draws: Vec::new(),
            expect: None,
            seamless_cube_map: false,

            samples: 1,
            faults: Vec::new(),
        }
    }
}

impl SceneBuilder {
    /// The scene's path in errors and shader names (default [`BUILT_SCENE_NAME`]);
    /// shaders are named `PATH/draws[i].vertex` and so on.
    pub fn name(mut self, path: impl Into<PathBuf>) -> SceneBuilder {
        self.path = path.into();
        self
    }

    /// `clear.color`, RGBA.
    pub fn clear_color(mut self, rgba: [f32; 4]) -> SceneBuilder {
        self.clear_color = rgba;
        self
    }

    /// `clear.depth`, clamped to [0, 1] as `glClearDepth` does.
    pub fn clear_depth(mut self, depth: f32) -> SceneBuilder {
        self.clear_depth = depth.clamp(0.0, 1.0);
        self
    }

    /// `clear.stencil` (`glClearStencil`), the 8-bit stencil buffer's clear value.
    pub fn clear_stencil(mut self, value: u8) -> SceneBuilder {
        self.clear_stencil = value;
        self
    }

    /// A `targets` entry: colour attachment `k` (the `k`-th call) in `format`, cleared
    /// to `clear` (RGBA; an integer target takes each number's integer part, as
    /// `glClearBufferiv`/`uiv`). The fragment output at `layout(location = k)`
    /// writes it. Without a call the scene has one `rgba8` target cleared to
    /// [`clear_color`](Self::clear_color).
    pub fn target(mut self, format: TargetFormat, clear: [f64; 4]) -> SceneBuilder {
        if !self.targets_listed {
            self.targets.list.clear();
            self.targets.clear.clear();
            self.targets.given = true;
            self.targets_listed = true;
        }
        self.targets.list.push(ColorTarget {
            format,
            framebuffer_srgb: self.targets.framebuffer_srgb,
        });
        self.targets.clear.push(clear);
        self
    }

    /// `seamless_cube_map` (`GL_TEXTURE_CUBE_MAP_SEAMLESS`, default false): linear
    /// lookups on cube maps filter across face edges (docs/csir.md "Seamless cube
    /// maps").
    pub fn seamless_cube_map(mut self, on: bool) -> SceneBuilder {
        self.seamless_cube_map = on;
        self
    }

    /// `samples`: samples per pixel, 1 (the default) or 4 (docs/scene-format.md
    /// "Multisampling"; another count is an error of [`SceneBuilder::build`]).
    pub fn samples(mut self, samples: u32) -> SceneBuilder {
        self.samples = samples;
        self
    }

    /// `framebuffer_srgb` (`GL_FRAMEBUFFER_SRGB`): writes to `srgb8_alpha8` targets
    /// are encoded and blended in linear (GL 3.3 §4.1.8).
    pub fn framebuffer_srgb(mut self, on: bool) -> SceneBuilder {
        self.targets.framebuffer_srgb = on;
        self.targets.given = true;
        for t in &mut self.targets.list {
            t.framebuffer_srgb = on;
        }
        self
    }

    /// A `textures` entry: the RGBA8 2D texture `texture` (row 0 the bottom row, as a
    /// loaded PNG is), which samplers name `name`.
    pub fn texture(mut self, name: &str, texture: Texture) -> SceneBuilder {
        self.push_texture(name, texture, None);
        self
    }

    /// A GL 3.3 `textures` entry given as `data` (`target`, `format`, `width`,
    /// `height`, `depth`): `format.components()` numbers per texel, x fastest, then y,
    /// then z (layers, or the cube's faces +x, −x, +y, −y, +z, −z); `size` is
    /// `[width, height, depth]` (depth 6 for a cube). The texture is made when
    /// [`SceneBuilder::build`] runs, with the loader's rules and messages.
    pub fn texture_data(
        mut self,
        name: &str,
        target: TexTarget,
        format: TexFormat,
        size: [u32; 3],
        data: &[f32],
    ) -> SceneBuilder {
        let at = format!("textures.{name}");
        match texture_from_data(target, format, size, data) {
            Ok(gl) => self.push_texture(name, stand_in(), Some(gl)),
            Err((key, message)) => {
                let field = if key.is_empty() {
                    at
                } else {
                    format!("{at}.{key}")
                };
                self.faults.push((field, message));
            }
        }
        self
    }

    /// A GL 3.3 `textures` entry made in code ([`GlTexture`]).
    pub fn gl_texture(mut self, name: &str, texture: GlTexture) -> SceneBuilder {
        self.push_texture(name, stand_in(), Some(texture));
        self
    }

    /// A `draws` entry, drawn after those added before it.
    pub fn draw(mut self, draw: DrawBuilder) -> SceneBuilder {
        self.draws.push(draw);
        self
    }

    /// `expect`: the scene's own tolerance rule against its reference image.
    pub fn expect(mut self, rule: ToleranceRule) -> SceneBuilder {
        self.expect = Some(rule);
        self
    }

    /// The scene: draws finished in order (indexes, vertex counts, triangle lists,
    /// texture indexes), mip chains made for mipmapped samplers, then
    /// [`Scene::validate`]d.
    ///
    /// # Errors
    /// The first fault, as the [`SceneError`] a scene file with the same fault gets
    /// (same message), on this scene's path and the field's scene path
    /// (`draws[0].attributes[1].size`).
    pub fn build(self) -> Result<Scene, SceneError> {
        let path = self.path;
        if let Some((field, message)) = self.faults.into_iter().next() {
            return Err(SceneError::new(path, field, message));
        }
        let mut draws = Vec::with_capacity(self.draws.len());
        for (index, draw) in self.draws.into_iter().enumerate() {
            let draw: Draw = draw
                .finish(index, &path, &self.textures)
                .map_err(|(field, message)| SceneError::new(&path, field, message))?;
            draws.push(draw);
        }
        let mut scene = Scene {
            seamless_cube_map: self.seamless_cube_map,
            path,
            width: self.width,
            height: self.height,
            clear_color: self.clear_color,
            clear_depth: self.clear_depth,
            clear_stencil: self.clear_stencil,
            targets: if self.targets_listed {
                self.targets
            } else {
                // the one default target, cleared to clear.color as the loader does
                Targets {
                    clear: vec![self.clear_color.map(f64::from)],
                    ..self.targets
                }
            },
            textures: self.textures,
            draws,
            expect: self.expect,
            samples: self.samples,
        };
        scene.validate()?;
        // a scene in code is in memory already: nothing to refuse
        complete_textures(
            &scene.path,
            &mut scene.textures,
            &scene.draws,
            &mut |_, _| Ok(()),
        )?;
        Ok(scene)
    }

    fn push_texture(&mut self, name: &str, texture: Texture, gl33: Option<GlTexture>) {
        if self.textures.iter().any(|t| t.name == name) {
            self.faults.push((
                format!("textures.{name}"),
                format!("a texture named {name:?} is given twice"),
            ));
            return;
        }
        self.textures.push(NamedTexture {
            name: name.to_string(),
            path: self.path.join(format!("textures.{name}")),
            texture,
            gl33,
        });
    }
}

/// The 1×1 RGBA8 stand-in a GL 3.3 texture's [`NamedTexture::texture`] holds.
fn stand_in() -> Texture {
    Texture::from_texels(1, 1, vec![[0; 4]]).unwrap_or_else(|_| unreachable!("1x1 is valid"))
}

/// A GL 3.3 texture from `data` as the loader makes one: each side in range, as many
/// numbers as texels × components, each finite, then [`GlTexture::from_values`]'s
/// rules. Errors are (key under the texture, message).
fn texture_from_data(
    target: TexTarget,
    format: TexFormat,
    size: [u32; 3],
    data: &[f32],
) -> Result<GlTexture, (String, String)> {
    for (key, side) in ["width", "height", "depth"].into_iter().zip(size) {
        rules::int_in(&rules::TEXTURE_SIDE, i64::from(side)).map_err(|m| (key.to_string(), m))?;
    }
    let texels = size.iter().map(|&s| u64::from(s)).product::<u64>();
    let count = texels.saturating_mul(format.components() as u64);
    rules::number_count(count as usize, data.len()).map_err(|m| ("data".to_string(), m))?;
    for (k, v) in data.iter().enumerate() {
        rules::finite_f32(f64::from(*v)).map_err(|m| (format!("data[{k}]"), m))?;
    }
    GlTexture::from_values(target, format, size, &rules::texels_of(format, data))
        .map_err(|e| (String::new(), e.to_string()))
}
