//! Lookups on a [`GlTexture`]: coordinates to a level, a layer or face and texel
//! indices; nearest and linear filtering in 1, 2 and 3 dimensions; mip level
//! selection; depth comparison. The rules are docs/csir.md "Texture targets".

use super::{FormatClass, GlSampler, GlTexture, GlWrap, Level, TexFormat};
use crate::texture::{Filter, MinFilter};
use csir::exec::{TexLod, TexRequest, fast_log2};
use csir::sampler_type::TexTarget;

/// Where a lookup lands before filtering: the filtered coordinates (normalized but
/// for rectangles), how many of them are filtered, and the layer or face.
#[derive(Clone, Copy, Debug)]
struct Place {
    coord: [f32; 3],
    dims: usize,
    layer: u32,
}

/// A finite stand-in for a coordinate in texel units: NaN is 0, and magnitudes are
/// capped at 2^30 so that integer arithmetic on them cannot overflow (any such
/// coordinate is far outside every texture, where each wrap mode gives the same
/// texel as at the cap).
#[inline]
fn tame(u: f32) -> f32 {
    if u.is_nan() {
        0.0
    } else {
        u.clamp(-1_073_741_824.0, 1_073_741_824.0)
    }
}

/// The cube face and its (s, t) in [0, 1] for the direction `(rx, ry, rz)`, as
/// llvmpipe selects them (docs/csir.md "Texture targets"): z when `|rz| >=
/// max(|rx|, |ry|)`, else x when `|rx| > |ry|`, else y; the face's sign from the
/// sign bit of its major coordinate; `sc`, `tc` from GL 3.3 Table 3.21; `s = sc ·
/// (0.5 / |ma|) + 0.5` with `0.5 / |ma|` taken as 0 for `ma = 0`.
pub fn cube_face([rx, ry, rz]: [f32; 3]) -> (u32, f32, f32, f32) {
    let (ax, ay, az) = (rx.abs(), ry.abs(), rz.abs());
    let z = az >= ax.max(ay);
    let x = !z && ax > ay;
    let (axis, ma) = if z {
        (2, rz)
    } else if x {
        (0, rx)
    } else {
        (1, ry)
    };
    let negative = ma.is_sign_negative();
    let sign = if negative { -1.0 } else { 1.0 };
    let (sc, tc) = match axis {
        0 => (-sign * rz, -ry),
        1 => (rx, sign * rz),
        _ => (sign * rx, -ry),
    };
    let ima = if ma.abs() > 0.0 { 0.5 / ma.abs() } else { 0.0 };
    let face = axis * 2 + u32::from(negative);
    (face, sc * ima + 0.5, tc * ima + 0.5, ma)
}

impl GlTexture {
    /// The filtered coordinates and layer of a lookup at `c`.
    fn place(&self, c: [f32; 4]) -> Place {
        let layer = |v: f32, layers: u32| {
            // floor(r + 0.5), clamped to the layers (GL 3.3 §3.8.8 eq. 3.17)
            let r = tame(v + 0.5).floor() as i64;
            r.clamp(0, i64::from(layers.max(1)) - 1) as u32
        };
        let l0 = &self.levels[0];
        match self.target {
            TexTarget::D1 | TexTarget::Buffer => Place {
                coord: [c[0], 0.0, 0.0],
                dims: 1,
                layer: 0,
            },
            TexTarget::D1Array => Place {
                coord: [c[0], 0.0, 0.0],
                dims: 1,
                layer: layer(c[1], l0.height),
            },
            TexTarget::D2 | TexTarget::Rect => Place {
                coord: [c[0], c[1], 0.0],
                dims: 2,
                layer: 0,
            },
            TexTarget::D2Array => Place {
                coord: [c[0], c[1], 0.0],
                dims: 2,
                layer: layer(c[2], l0.depth),
            },
            TexTarget::D3 => Place {
                coord: [c[0], c[1], c[2]],
                dims: 3,
                layer: 0,
            },
            TexTarget::Cube => {
                let (face, s, t, _) = cube_face([c[0], c[1], c[2]]);
                Place {
                    coord: [s, t, 0.0],
                    dims: 2,
                    layer: face,
                }
            }
        }
    }

    /// The filtered sizes of `level` (width, height, depth; 1 past the dimensions).
    fn dims_of(&self, level: &Level, dims: usize) -> [u32; 3] {
        match dims {
            1 => [level.width, 1, 1],
            2 => [level.width, level.height, 1],
            _ => [level.width, level.height, level.depth],
        }
    }

    /// The texel of `level` at filtered indices `i` and layer `layer` (the layer is
    /// the y of a 1D array and the z of a 2D array or cube).
    fn texel(&self, level: &Level, i: [u32; 3], layer: u32) -> [f32; 4] {
        match self.target {
            TexTarget::D1Array => level.at(i[0], layer, 0),
            TexTarget::D2Array | TexTarget::Cube => level.at(i[0], i[1], layer),
            _ => level.at(i[0], i[1], i[2]),
        }
    }

    /// λ of a lookup before the sampler's bias and clamps (GL 3.3 §3.8.11):
    /// explicit, or from the derivatives as `½·fast_log2(ρ²)` with ρ² the larger
    /// squared length of the derivative vectors in texels of the base level (as
    /// SAMPLE's `lod_from_gradients`); a cube's derivatives are first carried onto
    /// the face (llvmpipe's `0.5·(d·sc − sc·d·ma/ma)/ma`).
    fn lambda(&self, sampler: &GlSampler, req: &TexRequest) -> f32 {
        let (dx, dy, bias) = match req.lod {
            TexLod::Level(l) => return l,
            TexLod::Derivatives { dx, dy, bias } => (dx, dy, bias),
        };
        let base = self.base(sampler);
        let level = &self.levels[base];
        let (dx, dy, dims) = if self.target == TexTarget::Cube {
            let c = req.coord;
            let (face, ..) = cube_face([c[0], c[1], c[2]]);
            let (axis, ma) = (face / 2, [c[0], c[1], c[2]][face as usize / 2]);
            let sign = if ma.is_sign_negative() { -1.0 } else { 1.0 };
            let minor = |v: [f32; 3]| match axis {
                0 => (-sign * v[2], -v[1], v[0]),
                1 => (v[0], sign * v[2], v[1]),
                _ => (sign * v[0], -v[1], v[2]),
            };
            let (sc, tc, _) = minor([c[0], c[1], c[2]]);
            let project = |d: [f32; 3]| {
                let (dsc, dtc, dma) = minor(d);
                [
                    0.5 * (dsc - sc * dma / ma) / ma,
                    0.5 * (dtc - tc * dma / ma) / ma,
                    0.0,
                ]
            };
            (project(dx), project(dy), 2)
        } else {
            (dx, dy, self.target.dims() as usize)
        };
        let size = self.dims_of(level, dims);
        let scale = |k: usize| {
            if self.target == TexTarget::Rect {
                1.0
            } else {
                size[k] as f32
            }
        };
        let len2 = |d: [f32; 3]| (0..dims).map(|k| (d[k] * scale(k)).powi(2)).sum::<f32>();
        let rho2 = len2(dx).max(len2(dy));
        let rho2 = if rho2.is_finite() { rho2 } else { 0.0 };
        0.5 * fast_log2(rho2) + bias
    }

    /// The base level the sampler reads (clamped to the levels there are).
    fn base(&self, sampler: &GlSampler) -> usize {
        (sampler.base_level as usize).min(self.levels.len() - 1)
    }

    /// A filtered lookup (TEX's `texture`, `textureLod`, `textureGrad` and their
    /// offsets): λ with the bias and clamps (GL 3.3 §3.8.11), the magnification
    /// filter for λ ≤ 0, else the minification filter with its level choice
    /// (`*_mipmap_nearest`: level `base + round(λ)`, ties to even;
    /// `*_mipmap_linear`: levels `⌊λ⌋`, `⌊λ⌋ + 1` blended by `frac(λ)` in f32), each
    /// clamped to the base..=max levels; with a comparison, each texel compared
    /// before filtering, the result `(r, r, r, 1)`. Integer formats filter nearest.
    /// Never panics; NaN coordinates read as 0 and NaN λ magnifies.
    pub fn lookup(&self, sampler: &GlSampler, req: &TexRequest) -> [f32; 4] {
        let place = self.place(req.coord);
        let lambda = self.lambda(sampler, req) + sampler.lod_bias;
        let lambda = lambda.clamp(sampler.min_lod, sampler.max_lod);
        let integer = matches!(self.format.class(), FormatClass::Int | FormatClass::Uint);
        let minify = lambda > 0.0;
        let (filter, mip) = if minify {
            (
                sampler.min_filter.texel_filter(),
                sampler.min_filter.mip_filter(),
            )
        } else {
            (sampler.mag_filter, None)
        };
        let filter = if integer { Filter::Nearest } else { filter };
        let base = self.base(sampler);
        let last = (sampler.max_level as usize).clamp(base, self.levels.len() - 1);
        let compare = match (sampler.compare, self.format.class()) {
            (Some(f), FormatClass::Depth) => {
                let lane = self.target.coords().max(2) as usize;
                let reference = req.coord[lane.min(3)];
                let reference = if self.is_fixed_point_depth() {
                    reference.clamp(0.0, 1.0)
                } else {
                    reference
                };
                Some((f, reference))
            }
            _ => None,
        };
        let at =
            |level: usize| self.filter_level(sampler, level, place, filter, req.offset, compare);
        let result = match mip {
            None => at(base),
            Some(Filter::Nearest) => {
                let k = lambda.round_ties_even().max(0.0) as usize;
                at((base + k).min(last))
            }
            Some(Filter::Linear) => {
                let whole = lambda.floor();
                let frac = lambda - whole;
                let k = (base + whole.max(0.0) as usize).min(last);
                let first = at(k);
                if k >= last || frac <= 0.0 {
                    first
                } else {
                    let second = at(k + 1);
                    std::array::from_fn(|c| first[c] + frac * (second[c] - first[c]))
                }
            }
        };
        match (compare, self.depth_mode(), self.format.class()) {
            (_, Some(mode), FormatClass::Depth) => mode.expand(result[0]),
            (Some(_), _, _) => [result[0], result[0], result[0], 1.0],
            _ => result,
        }
    }

    /// One level's filtered texel (or comparison result in `x`).
    fn filter_level(
        &self,
        sampler: &GlSampler,
        level: usize,
        place: Place,
        filter: Filter,
        offset: [i8; 3],
        compare: Option<(super::CompareFunc, f32)>,
    ) -> [f32; 4] {
        let lv = &self.levels[level];
        let size = self.dims_of(lv, place.dims);
        let border = self.format.border(sampler.border_color);
        // The cube's faces wrap clamp-to-edge whatever the sampler says (GL 3.3 §3.8.7;
        // with TEXTURE_CUBE_MAP_SEAMLESS a linear lookup reads across the edges
        // instead, `seamless.rs`).
        let wrap = |k: usize| {
            if self.target == TexTarget::Cube {
                GlWrap::ClampToEdge
            } else {
                sampler.wrap[k]
            }
        };
        let fetch_layer = |layer: u32, i: [Option<u32>; 3]| -> [f32; 4] {
            let t = match i {
                [Some(x), Some(y), Some(z)] => self.texel(lv, [x, y, z], layer),
                _ => border,
            };
            match compare {
                Some((f, reference)) => {
                    let r = f.test(reference, t[0]);
                    [r, r, r, 1.0]
                }
                None => t,
            }
        };
        let fetch = |i: [Option<u32>; 3]| fetch_layer(place.layer, i);
        if filter == Filter::Linear && self.target == TexTarget::Cube && sampler.seamless_cube_map {
            let st = [place.coord[0], place.coord[1]];
            return super::seamless::seamless_linear(size[0], place.layer, st, |face, x, y| {
                fetch_layer(face, [Some(x), Some(y), Some(0)])
            });
        }
        let unnormalized = self.target == TexTarget::Rect;
        let mut taps = [[(Some(0u32), 1.0f32); 2]; 3];
        for (k, tap) in taps.iter_mut().enumerate() {
            if k >= place.dims {
                *tap = [(Some(0), 1.0), (Some(0), 0.0)];
                continue;
            }
            let u = if unnormalized {
                place.coord[k]
            } else {
                place.coord[k] * size[k] as f32
            };
            let o = i64::from(offset[k]);
            *tap = match filter {
                Filter::Nearest => {
                    let i = tame(u).floor() as i64 + o;
                    let t = wrap(k).index(i, size[k]);
                    [(t, 1.0), (t, 0.0)]
                }
                Filter::Linear => {
                    let u = tame(u - 0.5);
                    let i0 = u.floor();
                    let w = u - i0;
                    let i0 = i0 as i64 + o;
                    [
                        (wrap(k).index(i0, size[k]), 1.0 - w),
                        (wrap(k).index(i0 + 1, size[k]), w),
                    ]
                }
            };
        }
        if filter == Filter::Nearest {
            return fetch([taps[0][0].0, taps[1][0].0, taps[2][0].0]);
        }
        // Lerps along x, then y, then z, as llvmpipe's linear filter.
        let lerp = |a: [f32; 4], b: [f32; 4], w: f32| -> [f32; 4] {
            std::array::from_fn(|c| a[c] + w * (b[c] - a[c]))
        };
        let row = |j: usize, l: usize| {
            let y = taps[1][j].0;
            let z = taps[2][l].0;
            let a = fetch([taps[0][0].0, y, z]);
            if place.dims < 1 {
                return a;
            }
            lerp(a, fetch([taps[0][1].0, y, z]), taps[0][1].1)
        };
        let plane = |l: usize| {
            let a = row(0, l);
            if place.dims < 2 {
                return a;
            }
            lerp(a, row(1, l), taps[1][1].1)
        };
        let a = plane(0);
        if place.dims < 3 {
            return a;
        }
        lerp(a, plane(1), taps[2][1].1)
    }

    /// `texelFetch` (TEX's fetch mode): the texel at `p` (the layer in the last
    /// coordinate of an array) of level `base_level + level`, unfiltered; (0, 0, 0, 0)
    /// outside the level or for a level the texture does not have.
    pub fn fetch(&self, sampler: &GlSampler, p: [i32; 3], level: i32) -> [f32; 4] {
        let Some(lv) = usize::try_from(level)
            .ok()
            .and_then(|l| l.checked_add(self.base(sampler)))
            .and_then(|l| self.levels.get(l))
        else {
            return [0.0; 4];
        };
        let inside = |v: i32, n: u32| u32::try_from(v).ok().filter(|&v| v < n);
        let at = match self.target {
            TexTarget::D1 | TexTarget::Buffer => inside(p[0], lv.width).map(|x| (x, 0, 0)),
            TexTarget::D1Array => inside(p[0], lv.width)
                .zip(inside(p[1], lv.height))
                .map(|(x, y)| (x, y, 0)),
            TexTarget::D2 | TexTarget::Rect | TexTarget::Cube => inside(p[0], lv.width)
                .zip(inside(p[1], lv.height))
                .map(|(x, y)| (x, y, 0)),
            TexTarget::D2Array | TexTarget::D3 => inside(p[0], lv.width)
                .zip(inside(p[1], lv.height))
                .zip(inside(p[2], lv.depth))
                .map(|((x, y), z)| (x, y, z)),
        };
        at.map_or([0.0; 4], |(x, y, z)| lv.at(x, y, z))
    }

    /// `textureSize` (TEX's size mode): level `base_level + level`'s size as GLSL
    /// 3.30 §8.7 gives it per target (width; width, height; width, height, depth or
    /// layers), 0 past the components and for a level the texture does not have.
    pub fn size_of(&self, sampler: &GlSampler, level: i32) -> [i32; 3] {
        let Some(lv) = usize::try_from(level)
            .ok()
            .and_then(|l| l.checked_add(self.base(sampler)))
            .and_then(|l| self.levels.get(l))
        else {
            return [0; 3];
        };
        let (w, h, d) = (lv.width as i32, lv.height as i32, lv.depth as i32);
        match self.target {
            TexTarget::D1 | TexTarget::Buffer => [w, 0, 0],
            TexTarget::D2 | TexTarget::Rect | TexTarget::Cube | TexTarget::D1Array => [w, h, 0],
            TexTarget::D2Array | TexTarget::D3 => [w, h, d],
        }
    }
}

/// The level of size `next` below `above`: each texel the linear, clamp-to-edge
/// lookup of `above` at its centre, per layer or face, rounded to the format.
pub(super) fn downsample(
    target: TexTarget,
    format: TexFormat,
    above: &Level,
    next: [u32; 3],
) -> Level {
    let tex = GlTexture {
        target,
        format,
        levels: vec![above.clone()],
        upload: Vec::new(),
        depth_mode: None,
        fixed_point_depth: false,
    };
    let sampler = GlSampler {
        mag_filter: Filter::Linear,
        min_filter: MinFilter::Linear,
        ..GlSampler::default()
    };
    let [w, h, d] = next;
    let mut texels = Vec::with_capacity(w as usize * h as usize * d as usize);
    let dims = if target == TexTarget::Cube {
        2
    } else {
        target.dims() as usize
    };
    let round = |v: f32| {
        if format.is_unorm8() {
            (v * 255.0).round() / 255.0
        } else if format == TexFormat::Rgba16f {
            super::half_round(v)
        } else {
            v
        }
    };
    for z in 0..d {
        for y in 0..h {
            for x in 0..w {
                let centre = |i: u32, n: u32| (i as f32 + 0.5) / n as f32;
                let (coord, layer) = match target {
                    TexTarget::D1Array => ([centre(x, w), 0.0, 0.0], y),
                    TexTarget::D2Array | TexTarget::Cube => ([centre(x, w), centre(y, h), 0.0], z),
                    _ => ([centre(x, w), centre(y, h), centre(z, d)], 0),
                };
                let place = Place { coord, dims, layer };
                let t = tex.filter_level(&sampler, 0, place, Filter::Linear, [0; 3], None);
                texels.push(if format == TexFormat::Srgb8Alpha8 {
                    t
                } else {
                    t.map(round)
                });
            }
        }
    }
    Level {
        width: w,
        height: h,
        depth: d,
        texels,
    }
}
