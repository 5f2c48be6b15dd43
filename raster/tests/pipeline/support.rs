//! Test stages and helpers shared by the pipeline tests.

use csir_raster::*;

/// A vertex stage over stored clip positions and per-vertex varyings.
pub struct Mesh {
    pub positions: Vec<[f32; 4]>,
    pub varyings: Vec<Vec<f32>>,
    /// Each varying's interpolation (empty: all smooth).
    pub interpolation: Vec<Interpolation>,
    /// How many of the last varyings are user clip distances.
    pub clip_distances: usize,
}

impl Mesh {
    /// A mesh without varyings.
    pub fn new(positions: Vec<[f32; 4]>) -> Self {
        let n = positions.len();
        Mesh {
            positions,
            varyings: vec![Vec::new(); n],
            interpolation: Vec::new(),
            clip_distances: 0,
        }
    }

    /// A mesh with varyings (all vertices the same count).
    pub fn with_varyings(positions: Vec<[f32; 4]>, varyings: Vec<Vec<f32>>) -> Self {
        assert_eq!(positions.len(), varyings.len());
        Mesh {
            positions,
            varyings,
            interpolation: Vec::new(),
            clip_distances: 0,
        }
    }

    /// A mesh from window-space pixel positions (x, y, depth) of a `w × h` framebuffer
    /// with w = 1, so that the positions are exact for power-of-two sizes.
    pub fn from_window(points: &[[f32; 3]], w: u32, h: u32) -> Self {
        Mesh::new(
            points
                .iter()
                .map(|&[x, y, z]| window_to_clip(x, y, z, w, h))
                .collect(),
        )
    }
}

/// Clip position (w = 1) of window position `(x, y)` and depth `z` in [0, 1].
pub fn window_to_clip(x: f32, y: f32, z: f32, w: u32, h: u32) -> [f32; 4] {
    [
        x / w as f32 * 2.0 - 1.0,
        y / h as f32 * 2.0 - 1.0,
        z * 2.0 - 1.0,
        1.0,
    ]
}

impl VertexStage for Mesh {
    type Scratch = ();
    fn new_scratch(&self) {}
    fn varying_count(&self) -> usize {
        self.varyings.first().map_or(0, Vec::len)
    }
    fn shade_vertex(&self, _: &mut (), index: u32, position: &mut [f32; 4], varyings: &mut [f32]) {
        *position = self.positions[index as usize];
        varyings.copy_from_slice(&self.varyings[index as usize]);
    }
    fn interpolation(&self) -> &[Interpolation] {
        &self.interpolation
    }
    fn clip_distance_count(&self) -> usize {
        self.clip_distances
    }
}

/// Colour from the first four varyings (missing ones: 0, alpha 1).
pub struct VaryingColor;

impl FragmentStage for VaryingColor {
    type Scratch = Vec<LaneArray>;
    fn new_scratch(&self) -> Self::Scratch {
        vec![[0.0; MAX_LANES]; MAX_VARYINGS]
    }
    fn may_discard(&self) -> bool {
        false
    }
    fn shade(
        &self,
        scratch: &mut Self::Scratch,
        tri: &Triangle<'_>,
        batch: &FragmentBatch,
        out: &mut FragmentOutput,
    ) {
        tri.interpolate(batch, scratch);
        for c in 0..4 {
            let fill = if c == 3 { 1.0 } else { 0.0 };
            for lane in 0..batch.len {
                out.color[c][lane] = if c < tri.varying_count() {
                    scratch[c][lane]
                } else {
                    fill
                };
            }
        }
    }
}

/// A constant colour; discards fragments whose `gl_FragCoord.x` exceeds `discard_right_of`.
pub struct Flat {
    pub color: [f32; 4],
    pub discard_right_of: Option<f32>,
}

impl Flat {
    pub fn new(color: [f32; 4]) -> Self {
        Flat {
            color,
            discard_right_of: None,
        }
    }
}

impl FragmentStage for Flat {
    type Scratch = ();
    fn new_scratch(&self) {}
    fn may_discard(&self) -> bool {
        self.discard_right_of.is_some()
    }
    fn shade(&self, _: &mut (), _: &Triangle<'_>, batch: &FragmentBatch, out: &mut FragmentOutput) {
        for lane in 0..batch.len {
            for c in 0..4 {
                out.color[c][lane] = self.color[c];
            }
            if self
                .discard_right_of
                .is_some_and(|cut| batch.frag_coord[0][lane] > cut)
            {
                out.discard.insert(lane);
            }
        }
    }
}

/// A framebuffer cleared to transparent black and depth 1.
pub fn framebuffer(w: u32, h: u32) -> Framebuffer {
    let mut fb = Framebuffer::new(w, h).unwrap();
    fb.clear([0.0; 4], 1.0);
    fb
}

/// Draws `mesh` (all its vertices) with `indices`, `fs` and `state`.
pub fn draw<F: FragmentStage>(
    fb: &mut Framebuffer,
    mesh: &Mesh,
    indices: Option<&[u32]>,
    fs: &F,
    state: RasterState,
) -> DrawStats {
    let call = DrawCall {
        vertex_stage: mesh,
        fragment_stage: fs,
        vertex_count: mesh.positions.len() as u32,
        indices: indices.map(Indices::new),
        state,
        topology: Default::default(),
    };
    Renderer::new().draw(fb, &call).unwrap()
}

/// State without depth test and with additive blending: overlaps show up as sums.
pub fn additive() -> RasterState {
    RasterState {
        depth_test: DepthTest::Disabled,
        blend: BlendMode::Additive,
        ..RasterState::default()
    }
}

/// Red channel of every pixel, indexed `[y][x]` in window space (y up).
pub fn red(fb: &Framebuffer) -> Vec<Vec<u8>> {
    (0..fb.height())
        .map(|y| {
            (0..fb.width())
                .map(|x| fb.color(x, y).unwrap()[0])
                .collect()
        })
        .collect()
}

/// A tiny deterministic random generator (xorshift64*), so tests need no dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        let unit = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * unit
    }
}
