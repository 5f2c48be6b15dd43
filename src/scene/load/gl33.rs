//! The scene keys of GL 3.3 textures and samplers (docs/scene-format.md "GL 3.3
//! textures"): a texture's `target`, `paths`, `format`, inline `data` with `width`,
//! `height`, `depth`; a sampler's `wrap_s`, `wrap_t`, `wrap_r`, `clamp_to_border`,
//! `border_color`, `compare`, `min_lod`, `max_lod`, `lod_bias`, `base_level`,
//! `max_level`. A scene without them loads exactly as before.

use super::super::json::{Json, get};
use super::super::model::NamedTexture;
use super::Loader;
use crate::budget::{Bytes, MemoryEstimate};
use crate::file_read::MAX_PNG_BYTES;
use crate::image_io::decode_png;
use crate::scene::SceneError;
use crate::scene::rules;
use crate::texture::gl33::{CompareFunc, GlSampler, GlTexture, GlWrap, TexFormat};
use crate::texture::{Sampler, Texture};
use csir::sampler_type::TexTarget;
use std::path::PathBuf;

/// The keys of a texture.
pub(super) const TEXTURE_KEYS: &[&str] = &[
    "path", "paths", "target", "format", "data", "width", "height", "depth",
];

/// The GL 3.3 keys of a sampler (besides `texture`, `filter`, `min_filter`,
/// `mag_filter`, `wrap`).
pub(super) const SAMPLER_KEYS: &[&str] = &[
    "wrap_s",
    "wrap_t",
    "wrap_r",
    "border_color",
    "compare",
    "min_lod",
    "max_lod",
    "lod_bias",
    "base_level",
    "max_level",
];

/// Every target with its scene name.
const TARGETS: [(&str, TexTarget); 8] = [
    ("2d", TexTarget::D2),
    ("1d", TexTarget::D1),
    ("3d", TexTarget::D3),
    ("cube", TexTarget::Cube),
    ("1d_array", TexTarget::D1Array),
    ("2d_array", TexTarget::D2Array),
    ("rectangle", TexTarget::Rect),
    ("buffer", TexTarget::Buffer),
];

impl Loader<'_> {
    /// Whether texture `value` uses a GL 3.3 key (anything but `path`).
    pub(super) fn is_gl33_texture(value: &Json) -> bool {
        matches!(value, Json::Object(e) if e.iter().any(|(k, _)| k != "path"))
    }

    /// A texture with GL 3.3 keys: its target (default `2d`), format (default
    /// `rgba8`) and texels from one PNG (`path`), several (`paths`: slices, layers or
    /// the cube's faces +x, −x, +y, −y, +z, −z, in order, each flipped as `path`
    /// is) or inline `data` (`width`, `height`, `depth`; numbers per texel as the
    /// format has components).
    pub(super) fn gl33_texture(
        &mut self,
        name: &str,
        value: &Json,
    ) -> Result<NamedTexture, SceneError> {
        let at = format!("textures.{name}");
        let entries = self.record(value, &at, TEXTURE_KEYS)?;
        let target = self.choice(
            get(entries, "target"),
            &format!("{at}.target"),
            &TARGETS,
            TexTarget::D2,
        )?;
        let format = self.choice(
            get(entries, "format"),
            &format!("{at}.format"),
            &TexFormat::NAMES,
            TexFormat::Rgba8,
        )?;
        let sources = ["path", "paths", "data"]
            .into_iter()
            .filter(|k| get(entries, k).is_some())
            .collect::<Vec<_>>();
        if sources.len() != 1 {
            return Err(self.error(
                &at,
                format!(
                    "give exactly one of path, paths and data (got {})",
                    if sources.is_empty() {
                        "none".to_string()
                    } else {
                        sources.join(", ")
                    }
                ),
            ));
        }
        let dimension = |s: &Self, key: &str, default: Option<i64>| {
            s.integer(
                get(entries, key),
                &format!("{at}.{key}"),
                rules::TEXTURE_SIDE,
                default,
            )
            .map(|v| v as u32)
        };
        let (size, values, path): ([u32; 3], Vec<[f64; 4]>, PathBuf) = if sources[0] == "data" {
            let width = dimension(self, "width", None)?;
            let height = dimension(self, "height", Some(1))?;
            let default_depth = rules::default_texture_depth(target);
            let depth = dimension(self, "depth", Some(i64::from(default_depth)))?;
            let count = width as u64 * height as u64 * depth as u64;
            self.reserve_texels(&at, count)?;
            let field = format!("{at}.data");
            let n = format.components();
            let numbers = self.floats(
                get(entries, "data").expect("checked"),
                &field,
                Some(count as usize * n),
            )?;
            let texels = rules::texels_of(format, &numbers);
            (
                [width, height, depth],
                texels,
                self.scene_path.to_path_buf(),
            )
        } else {
            for key in ["width", "height", "depth"] {
                if get(entries, key).is_some() {
                    return Err(self.error(
                        format!("{at}.{key}"),
                        "the size comes from the images: give it only with data",
                    ));
                }
            }
            let files: Vec<(String, &str)> = match (get(entries, "path"), get(entries, "paths")) {
                (Some(p), _) => vec![(
                    format!("{at}.path"),
                    self.string(Some(p), &format!("{at}.path"), "a PNG file path")?,
                )],
                (_, Some(Json::Numbers(n))) => {
                    let got = Json::Number(n[0]).brief();
                    return Err(self.error(
                        format!("{at}.paths[0]"),
                        format!("expected a PNG file path, got {got}"),
                    ));
                }
                (_, Some(Json::Array(list))) if !list.is_empty() => list
                    .iter()
                    .enumerate()
                    .map(|(k, p)| {
                        let f = format!("{at}.paths[{k}]");
                        self.string(Some(p), &f, "a PNG file path").map(|s| (f, s))
                    })
                    .collect::<Result<_, _>>()?,
                (_, Some(other)) => {
                    return Err(self.error(
                        format!("{at}.paths"),
                        format!(
                            "expected a non-empty list of PNG file paths, got {}",
                            other.brief()
                        ),
                    ));
                }
                (None, None) => unreachable!("one source is given"),
            };
            let mut values = Vec::new();
            let mut size: Option<[u32; 2]> = None;
            let mut first = None;
            for (field, rel) in &files {
                let (path, bytes) = self.read_file(rel, field, MAX_PNG_BYTES)?;
                let image =
                    decode_png(&bytes, &path).map_err(|e| self.error(field, e.to_string()))?;
                let (w, h) = (image.width(), image.height());
                self.reserve_texels(field, u64::from(w) * u64::from(h))?;
                if let Some(s) = size
                    && s != [w, h]
                {
                    return Err(self.error(
                        field,
                        format!("{} is {w}x{h}, the first image {}x{}: every image of a texture has one size", path.display(), s[0], s[1]),
                    ));
                }
                size = Some([w, h]);
                first.get_or_insert(path);
                // Row 0 = the PNG's bottom row, as `path` of a 2D texture.
                let t = Texture::from_image(&image);
                values.extend(t.texels().iter().map(|p| p.map(f64::from)));
            }
            let [w, h] = size.expect("at least one image");
            let layers = files.len() as u32;
            let size = match target {
                TexTarget::D1 | TexTarget::Buffer if layers == 1 => [w * h, 1, 1],
                _ => [w, h, layers],
            };
            let scale = |c: [f64; 4]| {
                if format.is_unorm8()
                    || matches!(
                        format,
                        TexFormat::Rgba8ui | TexFormat::Rgba32i | TexFormat::Rgba32ui
                    )
                {
                    c
                } else {
                    c.map(|v| v / 255.0)
                }
            };
            (
                size,
                values.into_iter().map(scale).collect(),
                first.expect("one path"),
            )
        };
        let texture = GlTexture::from_values(target, format, size, &values)
            .map_err(|e| self.error(&at, e))?;
        Ok(NamedTexture {
            name: name.to_owned(),
            path,
            texture: Texture::from_texels(1, 1, vec![[0; 4]]).expect("1x1"),
            gl33: Some(texture),
        })
    }

    /// Count `texels` (16 bytes each, kept as f32 RGBA) against the memory budget.
    pub(super) fn reserve_texels(&mut self, field: &str, texels: u64) -> Result<(), SceneError> {
        let bytes = texels.saturating_mul(16);
        let with = MemoryEstimate {
            textures: self.memory.textures.saturating_add(bytes),
            ..self.memory
        };
        with.check(self.max_memory).map_err(|e| {
            self.error(field, format!("{} of texels do not fit: {e}", Bytes(bytes)))
        })?;
        self.memory.textures = with.textures;
        Ok(())
    }

    /// The GL 3.3 state of a sampler whose entries use one of [`SAMPLER_KEYS`] or
    /// `wrap: "clamp_to_border"`; `None` for a sampler without them.
    pub(super) fn gl33_sampler(
        &self,
        entries: &super::Entries,
        field: &str,
        sampler: Sampler,
    ) -> Result<Option<GlSampler>, SceneError> {
        let border_wrap =
            matches!(get(entries, "wrap"), Some(Json::String(s)) if s == "clamp_to_border");
        if !border_wrap && !SAMPLER_KEYS.iter().any(|k| get(entries, k).is_some()) {
            return Ok(None);
        }
        let mut state = GlSampler::from_sampler(sampler);
        let all = self.choice(
            get(entries, "wrap"),
            &format!("{field}.wrap"),
            &GlWrap::NAMES,
            GlWrap::from_wrap(sampler.wrap),
        )?;
        for (k, key) in ["wrap_s", "wrap_t", "wrap_r"].into_iter().enumerate() {
            state.wrap[k] = self.choice(
                get(entries, key),
                &format!("{field}.{key}"),
                &GlWrap::NAMES,
                all,
            )?;
        }
        if let Some(v) = get(entries, "border_color") {
            let c = self.floats(v, &format!("{field}.border_color"), Some(4))?;
            state.border_color = [c[0], c[1], c[2], c[3]];
        }
        if let Some(v) = get(entries, "compare") {
            state.compare = Some(self.choice(
                Some(v),
                &format!("{field}.compare"),
                &CompareFunc::NAMES,
                CompareFunc::Lequal,
            )?);
        }
        for (key, slot) in [
            ("min_lod", &mut state.min_lod),
            ("max_lod", &mut state.max_lod),
            ("lod_bias", &mut state.lod_bias),
        ] {
            if let Some(v) = get(entries, key) {
                *slot = self.floats(v, &format!("{field}.{key}"), Some(1))?[0];
            }
        }
        state.base_level = self.integer(
            get(entries, "base_level"),
            &format!("{field}.base_level"),
            rules::TEXTURE_LEVEL,
            Some(0),
        )? as u32;
        state.max_level = self.integer(
            get(entries, "max_level"),
            &format!("{field}.max_level"),
            rules::TEXTURE_LEVEL,
            Some(1000),
        )? as u32;
        Ok(Some(state))
    }
}
