//! shader_runner's `texture ...` and `texparameter ...` commands (piglit's
//! `tests/shaders/shader_runner.c`, restated in docs/conformance.md "Textures"): which
//! image each `texture` form creates on which target, and the sampler state a
//! `texparameter TARGET KEY VALUE` line sets. The images themselves are
//! `textures.rs`.

use super::commands::{Command, MAX_TEXTURE_SIDE};
use super::cursor::{Cursor, parse_int};
use crate::texture::gl33::{CompareFunc, DepthMode, GlWrap, TexFormat};
use crate::texture::{Filter, MinFilter};
use csir::sampler_type::TexTarget;

/// A texture image shader_runner can create.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TextureImage {
    /// `texture rgbw UNIT (W, H) [GL_RGBA|GL_RGBA8]`: a 2D texture of red, green, blue
    /// and white quadrants (red at the bottom left, green bottom right, blue top left,
    /// white top right; `piglit_rgbw_texture`).
    Rgbw {
        /// Width in texels.
        width: u32,
        /// Height in texels.
        height: u32,
    },
    /// `texture checkerboard UNIT 0 (W, H) (BLACK) (WHITE)`: squares of W/2 × H/2
    /// texels, "black" at the bottom left (`piglit_checkerboard_texture`).
    Checkerboard {
        /// Width in texels.
        width: u32,
        /// Height in texels.
        height: u32,
        /// Colour of the bottom-left square and its diagonal.
        black: [f32; 4],
        /// Colour of the other two squares.
        white: [f32; 4],
    },
    /// `texture quads UNIT 0 (W, H) (SW, SH) (BL) (BR) (TL) (TR)`: tiles of SW × SH
    /// texels, the tile in an even column and even row (counted from the bottom left)
    /// `BL`, odd column even row `BR`, even column odd row `TL`, both odd `TR`
    /// (`piglit_quads_texture`).
    Quads {
        /// Width in texels.
        width: u32,
        /// Height in texels.
        height: u32,
        /// Tile width and height in texels (at least 1).
        tile: [u32; 2],
        /// The colours `BL`, `BR`, `TL`, `TR`.
        colors: [[f32; 4]; 4],
    },
    /// `texture rgbw 1D UNIT`: 4 texels red, green, blue, white
    /// (`piglit_rgbw_texture_1d`).
    Rgbw1d,
    /// `texture rgbw 3D UNIT`: 2×2×2 texels, x fastest: red, green, blue, white, then
    /// yellow, magenta, cyan, black (`piglit_rgbw_texture_3d`).
    Rgbw3d,
    /// `texture rgbw 2DArray UNIT (W, H, L)` / `texture rgbw 1DArray UNIT (W, L)`:
    /// layer `k` all of colour `k mod 4` of red, green, blue, white
    /// (`piglit_array_texture`).
    RgbwArray {
        /// [`TexTarget::D1Array`] or [`TexTarget::D2Array`].
        target: TexTarget,
        /// Width in texels.
        width: u32,
        /// Height in texels (1 for a 1D array).
        height: u32,
        /// Layers.
        layers: u32,
    },
    /// `texture shadow1D|shadow2D|shadowRect|shadow1DArray|shadow2DArray UNIT (...)`:
    /// a depth texture whose texel in column `x` is `x / (W − 1)` (0 at the left, 1 at
    /// the right) in every row and layer (`piglit_depth_texture`), compared with
    /// `GL_GREATER`.
    Shadow {
        /// 1D, 2D, rectangle, 1D array or 2D array.
        target: TexTarget,
        /// Width in texels.
        width: u32,
        /// Height in texels (layers of a 1D array; 1 for 1D).
        height: u32,
        /// Layers of a 2D array (1 otherwise).
        layers: u32,
    },
    /// `texture miptree UNIT`: an 8×8 2D texture with levels 8×8 red, 4×4 green, 2×2
    /// blue and 1×1 white (`piglit_miptree_texture`).
    Miptree,
    /// `texture integer UNIT (W, H) (B, A) FORMAT`: texel (x, y) is the integers
    /// `(x, y, B, A)` (`piglit_integer_texture`).
    Integer {
        /// Width in texels.
        width: u32,
        /// Height in texels.
        height: u32,
        /// Blue and alpha of every texel.
        blue_alpha: [i32; 2],
        /// Signed (`GL_RGBA*I`) or unsigned (`GL_RGBA*UI`).
        signed: bool,
    },
    /// `texture junk 2DArray UNIT (W, H, L)` (a `GL_RGBA` 2D array made by
    /// `glTexImage3D` with no data) and `texture storage UNIT TARGET FORMAT (LEVELS W
    /// [H [D]])` (`glTexStorage1D/2D/3D`): a texture whose texels GL leaves undefined
    /// (GL 3.3 §3.8.3: a null pointer "creates a texture image with unspecified
    /// contents"; ARB_texture_storage likewise). csir-render gives every texel the
    /// value 0 ((0, 0, 0, 0) for a colour format); the tests that use these forms
    /// render into the texture before reading it.
    Undefined {
        /// The target (`texture junk` is always [`TexTarget::D2Array`]).
        target: TexTarget,
        /// Level 0's width, height and depth (layers, or 6 faces of a cube map), as
        /// [`GlTexture`](crate::texture::gl33::GlTexture) takes them.
        size: [u32; 3],
        /// Mip levels allocated (1 for `texture junk`).
        levels: u32,
        /// The internal format.
        format: TexFormat,
    },
}

impl TextureImage {
    /// The texture target the image is bound to.
    pub fn target(&self) -> TexTarget {
        match *self {
            TextureImage::Rgbw1d => TexTarget::D1,
            TextureImage::Rgbw3d => TexTarget::D3,
            TextureImage::RgbwArray { target, .. }
            | TextureImage::Shadow { target, .. }
            | TextureImage::Undefined { target, .. } => target,
            _ => TexTarget::D2,
        }
    }
}

/// A `texparameter TARGET KEY VALUE` setting (`glTexParameter` on the texture bound
/// to TARGET on the active unit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TexParameter {
    /// `compare_func greater|gequal|less|lequal|equal|notequal|never|always`.
    CompareFunc(CompareFunc),
    /// `compare_mode none|compare_ref_to_texture` (not in shader_runner, which sets
    /// the mode with the `texture shadow*` commands; accepted for completeness).
    CompareMode(bool),
    /// `depth_mode intensity|luminance|alpha|red` (`GL_DEPTH_TEXTURE_MODE`).
    DepthMode(DepthMode),
    /// `min nearest|linear|nearest_mipmap_nearest|linear_mipmap_nearest|
    /// nearest_mipmap_linear|linear_mipmap_linear`.
    MinFilter(MinFilter),
    /// `mag nearest|linear`.
    MagFilter(Filter),
    /// `wrap_s|wrap_t|wrap_r repeat|clamp_to_edge|clamp_to_border|mirrored_repeat`:
    /// the axis (0 = s, 1 = t, 2 = r) and the mode.
    Wrap(usize, GlWrap),
    /// `lod_bias F` (`GL_TEXTURE_LOD_BIAS`).
    LodBias(f32),
    /// `min_lod F`.
    MinLod(f32),
    /// `max_lod F`.
    MaxLod(f32),
    /// `base_level N`.
    BaseLevel(u32),
    /// `max_level N`.
    MaxLevel(u32),
    /// `border_color R G B A`.
    BorderColor([f32; 4]),
}

/// The target named as piglit's `parse_tex_target` names it (`1D`, `2D`, `3D`, `Rect`,
/// `Cube`, `1DArray`, `2DArray`; `CubeArray` is past GL 3.3).
fn target_named(word: &str) -> Option<TexTarget> {
    Some(match word {
        "1D" => TexTarget::D1,
        "2D" => TexTarget::D2,
        "3D" => TexTarget::D3,
        "Rect" => TexTarget::Rect,
        "Cube" => TexTarget::Cube,
        "1DArray" => TexTarget::D1Array,
        "2DArray" => TexTarget::D2Array,
        _ => return None,
    })
}

/// `texture ...` (after the word `texture`). `text` is the whole line, for naming an
/// unsupported form.
pub(super) fn texture(c: &mut Cursor<'_>, text: &str) -> Result<Command, String> {
    let kind = c.word().unwrap_or_default();
    // `texture rgbw 1D 0`: a target word between the kind and the unit.
    let target_word = match c.clone().word() {
        Some(w) if parse_int(w).is_none() && !w.starts_with('(') => {
            c.word();
            Some(w)
        }
        _ => None,
    };
    let what = match target_word {
        Some(t) => format!("texture {kind} {t}"),
        None => format!("texture {kind}"),
    };
    let unit = |c: &mut Cursor<'_>| -> Result<u32, String> {
        let u = c.int().map_err(|e| format!("{what}: unit: {e}"))?;
        u32::try_from(u)
            .ok()
            .filter(|&u| u < 32)
            .ok_or_else(|| format!("{what}: unit {u} is not in 0..=31"))
    };
    let size = |c: &mut Cursor<'_>, n: usize| -> Result<Vec<u32>, String> {
        let v = c.int_tuple(n).map_err(|e| format!("{what}: size: {e}"))?;
        let sides: Option<Vec<u32>> = v
            .iter()
            .map(|&s| {
                u32::try_from(s)
                    .ok()
                    .filter(|s| (1..=MAX_TEXTURE_SIDE).contains(s))
            })
            .collect();
        sides.ok_or_else(|| {
            let shown: Vec<String> = v.iter().map(i32::to_string).collect();
            format!(
                "{what}: size {} is not in 1..={MAX_TEXTURE_SIDE} on each side",
                shown.join("x")
            )
        })
    };
    let level0 = |c: &mut Cursor<'_>| -> Result<Option<Command>, String> {
        let level = c.int().map_err(|e| format!("{what}: level: {e}"))?;
        Ok((level != 0).then(|| Command::Unsupported(format!("{what} at level {level}"))))
    };
    let color = |c: &mut Cursor<'_>, which: &str| -> Result<[f32; 4], String> {
        let v = c
            .float_tuple(4)
            .map_err(|e| format!("{what}: {which} colour: {e}"))?;
        Ok([v[0], v[1], v[2], v[3]])
    };
    let made = |unit: u32, image: TextureImage| Ok(Command::Texture { unit, image });
    let target = target_word.map(|w| (w, target_named(w)));
    match (kind, target) {
        ("rgbw", None) => {
            let unit = unit(c)?;
            let s = size(c, 2)?;
            match c.word() {
                None | Some("GL_RGBA") | Some("GL_RGBA8") => made(
                    unit,
                    TextureImage::Rgbw {
                        width: s[0],
                        height: s[1],
                    },
                ),
                Some(format) => Ok(Command::Unsupported(format!("texture rgbw {format}"))),
            }
        }
        ("rgbw", Some((_, Some(TexTarget::D1)))) => made(unit(c)?, TextureImage::Rgbw1d),
        ("rgbw", Some((_, Some(TexTarget::D3)))) => made(unit(c)?, TextureImage::Rgbw3d),
        ("rgbw", Some((_, Some(array @ (TexTarget::D1Array | TexTarget::D2Array))))) => {
            let unit = unit(c)?;
            let s = size(c, if array == TexTarget::D1Array { 2 } else { 3 })?;
            let (width, height, layers) = match s[..] {
                [w, l] => (w, 1, l),
                [w, h, l] => (w, h, l),
                _ => unreachable!("size() reads 2 or 3 values"),
            };
            made(
                unit,
                TextureImage::RgbwArray {
                    target: array,
                    width,
                    height,
                    layers,
                },
            )
        }
        (shadow, None) if shadow.starts_with("shadow") => {
            let (target, n) = match shadow {
                "shadow1D" => (TexTarget::D1, 1),
                "shadow2D" => (TexTarget::D2, 2),
                "shadowRect" => (TexTarget::Rect, 2),
                "shadow1DArray" => (TexTarget::D1Array, 2),
                "shadow2DArray" => (TexTarget::D2Array, 3),
                _ => return Ok(Command::Unsupported(command_words(text))),
            };
            let unit = unit(c)?;
            let s = size(c, n)?;
            let (width, height, layers) = match s[..] {
                [w] => (w, 1, 1),
                [w, h] => (w, h, 1),
                [w, h, l] => (w, h, l),
                _ => unreachable!("size() reads 1 to 3 values"),
            };
            made(
                unit,
                TextureImage::Shadow {
                    target,
                    width,
                    height,
                    layers,
                },
            )
        }
        ("miptree", None) => made(unit(c)?, TextureImage::Miptree),
        ("checkerboard", None) => {
            let unit = unit(c)?;
            if let Some(skip) = level0(c)? {
                return Ok(skip);
            }
            let s = size(c, 2)?;
            let black = color(c, "first")?;
            let white = color(c, "second")?;
            made(
                unit,
                TextureImage::Checkerboard {
                    width: s[0],
                    height: s[1],
                    black,
                    white,
                },
            )
        }
        ("quads", None) => {
            let unit = unit(c)?;
            if let Some(skip) = level0(c)? {
                return Ok(skip);
            }
            let s = size(c, 2)?;
            let tile = size(c, 2)?;
            let mut colors = [[0.0; 4]; 4];
            for (k, which) in ["bottom-left", "bottom-right", "top-left", "top-right"]
                .into_iter()
                .enumerate()
            {
                colors[k] = color(c, which)?;
            }
            made(
                unit,
                TextureImage::Quads {
                    width: s[0],
                    height: s[1],
                    tile: [tile[0], tile[1]],
                    colors,
                },
            )
        }
        ("integer", None) => {
            let unit = unit(c)?;
            let s = size(c, 2)?;
            let ba = c
                .int_tuple(2)
                .map_err(|e| format!("{what}: blue and alpha: {e}"))?;
            let format = c.word().ok_or_else(|| {
                format!("{what}: expected an internal format, found the end of the line")
            })?;
            let signed = match format {
                "GL_RGBA8I" | "GL_RGBA16I" | "GL_RGBA32I" => true,
                "GL_RGBA8UI" | "GL_RGBA16UI" | "GL_RGBA32UI" => false,
                _ => return Ok(Command::Unsupported(format!("texture integer {format}"))),
            };
            made(
                unit,
                TextureImage::Integer {
                    width: s[0],
                    height: s[1],
                    blue_alpha: [ba[0], ba[1]],
                    signed,
                },
            )
        }
        ("junk", Some((_, Some(TexTarget::D2Array)))) => {
            let unit = unit(c)?;
            let s = size(c, 3)?;
            made(
                unit,
                TextureImage::Undefined {
                    target: TexTarget::D2Array,
                    size: [s[0], s[1], s[2]],
                    levels: 1,
                    format: TexFormat::Rgba8,
                },
            )
        }
        ("storage", None) => storage(c, &what),
        // Forms shader_runner does not have (`texture rgbw Cube`, `texture
        // shadowCube`, ...: piglit fails such a line as an unknown command) and
        // formats csir-render does not store: named, the test is skipped.
        _ => Ok(Command::Unsupported(what)),
    }
}

/// `texture storage UNIT TARGET FORMAT (LEVELS W [H [D]])` after `storage`:
/// `glTexStorage1D` with one size, `2D` with two, `3D` with three (a 1D array's second
/// size is its layers, a cube map's two sizes are a face's).
fn storage(c: &mut Cursor<'_>, what: &str) -> Result<Command, String> {
    let unit = c.int().map_err(|e| format!("{what}: unit: {e}"))?;
    let unit = u32::try_from(unit)
        .ok()
        .filter(|&u| u < 32)
        .ok_or_else(|| format!("{what}: unit {unit} is not in 0..=31"))?;
    let word = c.word().unwrap_or_default();
    let target =
        target_named(word).ok_or_else(|| format!("{what}: `{word}` is not a texture target"))?;
    let name = c.word().unwrap_or_default();
    let Some(format) = storage_format(name) else {
        return Ok(Command::Unsupported(format!("{what} {name}")));
    };
    c.expect_char('(')
        .map_err(|e| format!("{what}: size: {e}"))?;
    let mut numbers = Vec::new();
    while !c.eat_char(')') {
        if c.at_end() || numbers.len() == 4 {
            return Err(format!(
                "{what}: expected (LEVELS W [H [D]]), found {}",
                c.found()
            ));
        }
        c.eat_char(',');
        numbers.push(c.int().map_err(|e| format!("{what}: size: {e}"))?);
    }
    let sides: Option<Vec<u32>> = numbers
        .iter()
        .map(|&n| {
            u32::try_from(n)
                .ok()
                .filter(|n| (1..=MAX_TEXTURE_SIDE).contains(n))
        })
        .collect();
    let Some(sides) = sides.filter(|s| s.len() >= 2) else {
        return Err(format!(
            "{what}: expected a level count and 1 to 3 sizes in 1..={MAX_TEXTURE_SIDE}"
        ));
    };
    let (levels, dims) = (sides[0], &sides[1..]);
    let size = match (target, dims) {
        (TexTarget::Cube, [w, h]) => [*w, *h, 6],
        (_, [w]) => [*w, 1, 1],
        (_, [w, h]) => [*w, *h, 1],
        (_, [w, h, d]) => [*w, *h, *d],
        _ => unreachable!("1 to 3 sizes"),
    };
    Ok(Command::Texture {
        unit,
        image: TextureImage::Undefined {
            target,
            size,
            levels,
            format,
        },
    })
}

/// The internal formats `texture storage` creates, by GL name.
fn storage_format(name: &str) -> Option<TexFormat> {
    Some(match name {
        "GL_RGBA8" | "GL_RGBA" => TexFormat::Rgba8,
        "GL_SRGB8_ALPHA8" => TexFormat::Srgb8Alpha8,
        "GL_R8" => TexFormat::R8,
        "GL_RG8" => TexFormat::Rg8,
        "GL_RGBA16F" => TexFormat::Rgba16f,
        "GL_RGBA32F" => TexFormat::Rgba32f,
        "GL_R32F" => TexFormat::R32f,
        "GL_DEPTH_COMPONENT32F" => TexFormat::Depth32f,
        "GL_RGBA8UI" => TexFormat::Rgba8ui,
        "GL_RGBA32I" => TexFormat::Rgba32i,
        "GL_RGBA32UI" => TexFormat::Rgba32ui,
        _ => return None,
    })
}

/// The words of `text` before its first number or tuple (`texture shadowCube`).
fn command_words(text: &str) -> String {
    text.split_whitespace()
        .take_while(|w| {
            !w.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | '('))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `texparameter TARGET KEY VALUE` (after the word `texparameter`).
pub(super) fn texparameter(c: &mut Cursor<'_>, text: &str) -> Result<Command, String> {
    let target_word = c.word().unwrap_or_default();
    let Some(target) = target_named(target_word) else {
        return Ok(Command::Unsupported(command_words(text)));
    };
    let key = c.word().unwrap_or_default();
    let what = format!("texparameter {target_word} {key}");
    let mut name = |table: &[(&str, TexParameter)]| -> Result<TexParameter, String> {
        let value = c.word().unwrap_or_default();
        match table.iter().find(|(n, _)| *n == value) {
            Some((_, p)) => Ok(*p),
            None => {
                let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
                Err(format!(
                    "{what}: '{value}' is not one of {}",
                    names.join(", ")
                ))
            }
        }
    };
    let number = |c: &mut Cursor<'_>| c.float().map_err(|e| format!("{what}: {e}"));
    let level = |c: &mut Cursor<'_>| {
        let v = c.int().map_err(|e| format!("{what}: {e}"))?;
        u32::try_from(v).map_err(|_| format!("{what}: level {v} is negative"))
    };
    let parameter = match key {
        "compare_func" => {
            name(&CompareFunc::NAMES.map(|(n, f)| (n, (TexParameter::CompareFunc(f)))))?
        }
        "compare_mode" => name(&[
            ("none", (TexParameter::CompareMode(false))),
            ("compare_ref_to_texture", (TexParameter::CompareMode(true))),
            ("compare_r_to_texture", (TexParameter::CompareMode(true))),
        ])?,
        "depth_mode" => name(&DepthMode::NAMES.map(|(n, m)| (n, (TexParameter::DepthMode(m)))))?,
        "min" => name(&[
            ("nearest", (TexParameter::MinFilter(MinFilter::Nearest))),
            ("linear", (TexParameter::MinFilter(MinFilter::Linear))),
            (
                "nearest_mipmap_nearest",
                (TexParameter::MinFilter(MinFilter::NearestMipmapNearest)),
            ),
            (
                "linear_mipmap_nearest",
                (TexParameter::MinFilter(MinFilter::LinearMipmapNearest)),
            ),
            (
                "nearest_mipmap_linear",
                (TexParameter::MinFilter(MinFilter::NearestMipmapLinear)),
            ),
            (
                "linear_mipmap_linear",
                (TexParameter::MinFilter(MinFilter::LinearMipmapLinear)),
            ),
        ])?,
        "mag" => name(&[
            ("nearest", (TexParameter::MagFilter(Filter::Nearest))),
            ("linear", (TexParameter::MagFilter(Filter::Linear))),
        ])?,
        "wrap_s" | "wrap_t" | "wrap_r" => {
            let axis = match key {
                "wrap_s" => 0,
                "wrap_t" => 1,
                _ => 2,
            };
            name(&[
                ("repeat", (TexParameter::Wrap(axis, GlWrap::Repeat))),
                (
                    "clamp_to_edge",
                    (TexParameter::Wrap(axis, GlWrap::ClampToEdge)),
                ),
                (
                    "clamp_to_border",
                    (TexParameter::Wrap(axis, GlWrap::ClampToBorder)),
                ),
                (
                    "mirrored_repeat",
                    (TexParameter::Wrap(axis, GlWrap::MirroredRepeat)),
                ),
            ])?
        }
        "lod_bias" => TexParameter::LodBias(number(c)?),
        "min_lod" => TexParameter::MinLod(number(c)?),
        "max_lod" => TexParameter::MaxLod(number(c)?),
        "base_level" => TexParameter::BaseLevel(level(c)?),
        "max_level" => TexParameter::MaxLevel(level(c)?),
        "border_color" => {
            let v = c.floats(4).map_err(|e| format!("{what}: {e}"))?;
            TexParameter::BorderColor([v[0], v[1], v[2], v[3]])
        }
        // `swizzle_r` (GL 3.3's texture swizzle, which csir-render's textures do not
        // have) and anything else: named, the test is skipped.
        _ => return Ok(Command::Unsupported(what)),
    };
    Ok(Command::TexParameter { target, parameter })
}

#[cfg(test)]
mod tests {
    use super::super::commands::parse_line_for_tests as cmd;
    use super::*;

    fn tex(unit: u32, image: TextureImage) -> Command {
        Command::Texture { unit, image }
    }

    #[test]
    fn every_texture_form_parses() {
        assert_eq!(
            cmd("texture rgbw 1 (8, 4)"),
            Ok(tex(
                1,
                TextureImage::Rgbw {
                    width: 8,
                    height: 4
                }
            ))
        );
        assert_eq!(cmd("texture rgbw 1D 2"), Ok(tex(2, TextureImage::Rgbw1d)));
        assert_eq!(cmd("texture rgbw 3D 0"), Ok(tex(0, TextureImage::Rgbw3d)));
        let undefined = |target, size, levels, format| TextureImage::Undefined {
            target,
            size,
            levels,
            format,
        };
        assert_eq!(
            cmd("texture junk 2DArray 2 ( 64 , 32 , 4 )"),
            Ok(tex(
                2,
                undefined(TexTarget::D2Array, [64, 32, 4], 1, TexFormat::Rgba8)
            ))
        );
        assert_eq!(
            cmd("texture storage 1 2D GL_RGBA32F (3 8 4)"),
            Ok(tex(
                1,
                undefined(TexTarget::D2, [8, 4, 1], 3, TexFormat::Rgba32f)
            ))
        );
        assert_eq!(
            cmd("texture storage 0 Cube GL_RGBA8 (1 16 16)"),
            Ok(tex(
                0,
                undefined(TexTarget::Cube, [16, 16, 6], 1, TexFormat::Rgba8)
            ))
        );
        assert_eq!(
            cmd("texture storage 0 2DArray GL_R8 (2 4 4 3)"),
            Ok(tex(
                0,
                undefined(TexTarget::D2Array, [4, 4, 3], 2, TexFormat::R8)
            ))
        );
        assert_eq!(
            cmd("texture storage 0 1D GL_RGBA8UI (1 5)"),
            Ok(tex(
                0,
                undefined(TexTarget::D1, [5, 1, 1], 1, TexFormat::Rgba8ui)
            ))
        );
        assert_eq!(
            cmd("texture storage 0 Foo GL_RGBA8 (1 5)").unwrap_err(),
            "texture storage: `Foo` is not a texture target"
        );
        assert_eq!(
            cmd("texture storage 0 2D GL_RGBA8 (1)").unwrap_err(),
            "texture storage: expected a level count and 1 to 3 sizes in 1..=2048"
        );
        assert_eq!(
            cmd("texture rgbw 2DArray 3 (4, 2, 5)"),
            Ok(tex(
                3,
                TextureImage::RgbwArray {
                    target: TexTarget::D2Array,
                    width: 4,
                    height: 2,
                    layers: 5
                }
            ))
        );
        assert_eq!(
            cmd("texture rgbw 1DArray 0 (4, 3)"),
            Ok(tex(
                0,
                TextureImage::RgbwArray {
                    target: TexTarget::D1Array,
                    width: 4,
                    height: 1,
                    layers: 3
                }
            ))
        );
        for (text, target, size) in [
            ("texture shadow1D 0 (32)", TexTarget::D1, [32, 1, 1]),
            ("texture shadow2D 0 (32, 16)", TexTarget::D2, [32, 16, 1]),
            (
                "texture shadowRect 0 (32, 16)",
                TexTarget::Rect,
                [32, 16, 1],
            ),
            (
                "texture shadow1DArray 0 (32, 4)",
                TexTarget::D1Array,
                [32, 4, 1],
            ),
            (
                "texture shadow2DArray 0 (8, 4, 3)",
                TexTarget::D2Array,
                [8, 4, 3],
            ),
        ] {
            assert_eq!(
                cmd(text),
                Ok(tex(
                    0,
                    TextureImage::Shadow {
                        target,
                        width: size[0],
                        height: size[1],
                        layers: size[2]
                    }
                )),
                "{text}"
            );
        }
        assert_eq!(cmd("texture miptree 5"), Ok(tex(5, TextureImage::Miptree)));
        assert_eq!(
            cmd("texture integer 0 (4, 2) (7, -1) GL_RGBA32I"),
            Ok(tex(
                0,
                TextureImage::Integer {
                    width: 4,
                    height: 2,
                    blue_alpha: [7, -1],
                    signed: true
                }
            ))
        );
        assert_eq!(
            cmd(
                "texture quads 0 0 (4, 4) (1, 2) (1, 0, 0, 1) (0, 1, 0, 1) (0, 0, 1, 1) (1, 1, 1, 1)"
            ),
            Ok(tex(
                0,
                TextureImage::Quads {
                    width: 4,
                    height: 4,
                    tile: [1, 2],
                    colors: [
                        [1.0, 0.0, 0.0, 1.0],
                        [0.0, 1.0, 0.0, 1.0],
                        [0.0, 0.0, 1.0, 1.0],
                        [1.0; 4]
                    ]
                }
            ))
        );
        for (text, name) in [
            (
                "texture storage 0 2D GL_RGB10 (1 4 4)",
                "texture storage GL_RGB10",
            ),
            ("texture rgbw Cube 0", "texture rgbw Cube"),
            (
                "texture rgbw 0 (8, 8) GL_RGBA16F",
                "texture rgbw GL_RGBA16F",
            ),
            (
                "texture integer 0 (4, 4) (0, 0) GL_R8I",
                "texture integer GL_R8I",
            ),
            ("texture shadowCube 0 (8, 8)", "texture shadowCube"),
            (
                "texture checkerboard 0 1 (8, 8) (0, 0, 0, 0) (1, 1, 1, 1)",
                "texture checkerboard at level 1",
            ),
        ] {
            assert_eq!(cmd(text), Ok(Command::Unsupported(name.into())), "{text}");
        }
    }

    #[test]
    fn texture_errors_name_the_form_and_value() {
        assert_eq!(
            cmd("texture shadow2D 0 (32)").unwrap_err(),
            "texture shadow2D: size: expected ',', found ')'"
        );
        assert_eq!(
            cmd("texture rgbw 2DArray 0 (4, 0, 2)").unwrap_err(),
            "texture rgbw 2DArray: size 4x0x2 is not in 1..=2048 on each side"
        );
        assert_eq!(
            cmd("texture rgbw 3D 40").unwrap_err(),
            "texture rgbw 3D: unit 40 is not in 0..=31"
        );
        assert_eq!(
            cmd("texture integer 0 (4, 4) (1, 2)").unwrap_err(),
            "texture integer: expected an internal format, found the end of the line"
        );
    }

    #[test]
    fn every_texparameter_key_parses() {
        let p = |target, parameter| Ok(Command::TexParameter { target, parameter });
        let d2 = TexTarget::D2;
        assert_eq!(
            cmd("texparameter 2D compare_func greater"),
            p(d2, TexParameter::CompareFunc(CompareFunc::Greater))
        );
        assert_eq!(
            cmd("texparameter 1D depth_mode alpha"),
            p(TexTarget::D1, TexParameter::DepthMode(DepthMode::Alpha))
        );
        assert_eq!(
            cmd("texparameter 2D compare_mode none"),
            p(d2, TexParameter::CompareMode(false))
        );
        assert_eq!(
            cmd("texparameter 2D min nearest_mipmap_linear"),
            p(d2, TexParameter::MinFilter(MinFilter::NearestMipmapLinear))
        );
        assert_eq!(
            cmd("texparameter Rect mag linear"),
            p(TexTarget::Rect, TexParameter::MagFilter(Filter::Linear))
        );
        assert_eq!(
            cmd("texparameter 2D wrap_s repeat"),
            p(d2, TexParameter::Wrap(0, GlWrap::Repeat))
        );
        assert_eq!(
            cmd("texparameter 2D wrap_t clamp_to_border"),
            p(d2, TexParameter::Wrap(1, GlWrap::ClampToBorder))
        );
        assert_eq!(
            cmd("texparameter 3D wrap_r mirrored_repeat"),
            p(TexTarget::D3, TexParameter::Wrap(2, GlWrap::MirroredRepeat))
        );
        assert_eq!(
            cmd("texparameter 2D lod_bias 1.0"),
            p(d2, TexParameter::LodBias(1.0))
        );
        assert_eq!(
            cmd("texparameter 2D min_lod -2"),
            p(d2, TexParameter::MinLod(-2.0))
        );
        assert_eq!(
            cmd("texparameter 2D max_lod 3.5"),
            p(d2, TexParameter::MaxLod(3.5))
        );
        assert_eq!(
            cmd("texparameter 2D base_level 1"),
            p(d2, TexParameter::BaseLevel(1))
        );
        assert_eq!(
            cmd("texparameter 2DArray max_level 2"),
            p(TexTarget::D2Array, TexParameter::MaxLevel(2))
        );
        assert_eq!(
            cmd("texparameter Cube border_color 0.5 0 1 1"),
            p(
                TexTarget::Cube,
                TexParameter::BorderColor([0.5, 0.0, 1.0, 1.0])
            )
        );
        assert_eq!(
            cmd("texparameter 2D swizzle_r green"),
            Ok(Command::Unsupported("texparameter 2D swizzle_r".into()))
        );
        assert_eq!(
            cmd("texparameter CubeArray min linear"),
            Ok(Command::Unsupported(
                "texparameter CubeArray min linear".into()
            ))
        );
        assert_eq!(
            cmd("texparameter 2D compare_func bigger").unwrap_err(),
            "texparameter 2D compare_func: 'bigger' is not one of never, less, equal, lequal, greater, notequal, gequal, always"
        );
        assert_eq!(
            cmd("texparameter 2D base_level -1").unwrap_err(),
            "texparameter 2D base_level: level -1 is negative"
        );
        assert_eq!(
            cmd("texparameter 2D border_color 1 0 0").unwrap_err(),
            "texparameter 2D border_color: expected a number, found the end of the line"
        );
    }
}
