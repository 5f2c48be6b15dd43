//! The executable form of a bound draw: one [`Step`] per instruction that still has
//! per-pixel work, with every operand resolved to a register of the batch register
//! file (a temporary, the colour output, or a per-draw constant register).
//!
//! Register numbers are `u32` (a `u16` could overflow with many constants under a
//! large [`Limits`](crate::Limits) profile); `n` is a component count (1..=4) and `cols` a matrix
//! width (3 or 4). Jump targets are indices into the step list.

use super::plan::{Comps, XYZW};
use crate::exec::math::MinMax;
use crate::ir::first_lanes;
use crate::ir::{CmpCode, Op};

/// A register of the batch register file, or, with [`CONSTANT`] set, entry
/// `r & !CONSTANT` of the draw's constant table (read-only: every lane holds it).
pub(in crate::exec) type Reg = u32;

/// Marks a [`Reg`] as a constant.
pub(super) const CONSTANT: Reg = 1 << 31;

/// One step; see [`run`](super::run) for what each does over the lanes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(in crate::exec) enum Step {
    /// `d[c] ← a[c]` for `c < n` (MOV, STORE_COLOR into the colour register, and
    /// materialising a constant register).
    Mov {
        d: Reg,
        a: Reg,
        n: u8,
    },
    /// `d[k] ← a[sel[k]]` for `k < n`, other components 0.
    Swz {
        d: Reg,
        a: Reg,
        sel: [u8; 4],
        n: u8,
    },
    /// `d[dl] ← a[sl]`.
    SetLane {
        d: Reg,
        a: Reg,
        dl: u8,
        sl: u8,
    },
    Add {
        d: Reg,
        a: Reg,
        b: Reg,
        n: u8,
    },
    Sub {
        d: Reg,
        a: Reg,
        b: Reg,
        n: u8,
    },
    Mul {
        d: Reg,
        a: Reg,
        b: Reg,
        n: u8,
    },
    /// `d[c] ← a[c] / b[c]` for `c < n` (DIV, extended profile: IEEE division).
    Div {
        d: Reg,
        a: Reg,
        b: Reg,
        n: u8,
    },
    /// `d[c] ← a[sa]·b[c]` for `c < n`: a MUL whose `a` was a SWZ broadcasting
    /// component `sa` (fused after binding, see [`tidy`](super::tidy)).
    MulSa {
        d: Reg,
        a: Reg,
        sa: u8,
        b: Reg,
        n: u8,
    },
    /// `d[c] ← a[c]·b[sb]` for `c < n`: a MUL whose `b` was a SWZ broadcasting `sb`.
    MulSb {
        d: Reg,
        a: Reg,
        b: Reg,
        sb: u8,
        n: u8,
    },
    /// `s ← rsq(Σ_{k<w} a[k]·a[k])`, then `d[c] ← a[c]·s` for `c < n`: GLSL's
    /// `normalize` as the front end lowers it (DOT, RSQ, SWZ, MUL), fused after binding.
    Normalize {
        d: Reg,
        a: Reg,
        w: u8,
        n: u8,
    },
    /// `d[0] ← max(Σ_{k<w} a[k]·b[k], m[0])` (MAX by `rule`): a DOT followed by a MAX,
    /// fused after binding (`max(dot(n, l), 0.0)`).
    DotMax {
        d: Reg,
        a: Reg,
        b: Reg,
        w: u8,
        m: Reg,
        rule: MinMax,
    },
    /// `t ← a[c]·b[c]` (or `a[c]·b[sb]` for `sb < 4`), then `d[c] ← t + e[c]` (or
    /// `e[c] + t` with `rev`) for `c < n`: a MUL (or MULSB) followed by an ADD of its
    /// result, fused after binding (`0.3 * diff + 0.6 * spec`, `acc += lc * s`).
    MulAdd {
        d: Reg,
        a: Reg,
        b: Reg,
        sb: u8,
        e: Reg,
        n: u8,
        rev: bool,
    },
    /// `t ← a[c] + b[c]`, then `d[c] ← t·m[c]` (or `m[c]·t` with `rev`) for `c < n`:
    /// an ADD followed by a MUL of its result, fused after binding (`(x + y) * 0.25`,
    /// a sum scaled).
    AddMul {
        d: Reg,
        a: Reg,
        b: Reg,
        m: Reg,
        n: u8,
        rev: bool,
    },
    /// `d[c] ← min(max(a[c], lo[c]), hi[c])` for `c < n` (MAX and MIN by `rule`): a
    /// MAX followed by a MIN of its result, fused after binding (`clamp`).
    Clamp {
        d: Reg,
        a: Reg,
        lo: Reg,
        hi: Reg,
        n: u8,
        rule: MinMax,
    },
    /// `d[c] ← min(a[c], b[c])` for `c < n`, by `rule` (the shader's profile).
    Min {
        d: Reg,
        a: Reg,
        b: Reg,
        n: u8,
        rule: MinMax,
    },
    /// `d[c] ← max(a[c], b[c])` for `c < n`, by `rule` (the shader's profile).
    Max {
        d: Reg,
        a: Reg,
        b: Reg,
        n: u8,
        rule: MinMax,
    },
    Abs {
        d: Reg,
        a: Reg,
        n: u8,
    },
    /// DDX or DDY (`op`) on `n` components: each lane reads `a` in its quad's lanes
    /// (`exec::quad`).
    Derivative {
        d: Reg,
        a: Reg,
        n: u8,
        op: Op,
    },
    Rcp {
        d: Reg,
        a: Reg,
        n: u8,
    },
    Sin {
        d: Reg,
        a: Reg,
        n: u8,
    },
    Cos {
        d: Reg,
        a: Reg,
        n: u8,
    },
    /// Component 0 only.
    Rsq {
        d: Reg,
        a: Reg,
    },
    /// Component 0 only.
    Trunc {
        d: Reg,
        a: Reg,
    },
    /// Component 0 only.
    Pow {
        d: Reg,
        a: Reg,
        b: Reg,
    },
    /// `d[0] ← pow(a[0], n)`: a POW whose exponent is a constant integer with
    /// `|n| <= POWI_MAX` ([`math::pow_int`](crate::exec::math::pow_int), the same bits
    /// as POW), chosen when binding.
    PowInt {
        d: Reg,
        a: Reg,
        n: i16,
    },
    /// `d[0] ← Σ_{k<w} a[k]·b[k]`, summed in order.
    Dot {
        d: Reg,
        a: Reg,
        b: Reg,
        w: u8,
    },
    /// `d[0] ← a[0] code b[0] ? 1 : 0`.
    Cmp {
        d: Reg,
        a: Reg,
        b: Reg,
        code: CmpCode,
    },
    /// `d ← M·b`, M in registers `a..a+cols`.
    MulMv {
        d: Reg,
        a: Reg,
        b: Reg,
        cols: u8,
    },
    /// `d+j ← A·(B column j)`, A at `a..`, B at `b..`.
    MulMm {
        d: Reg,
        a: Reg,
        b: Reg,
        cols: u8,
    },
    /// `d[c] ← f(a[c], b[c])` for `c < n`, `f` the extended profile's integer
    /// instruction `op` on bit patterns ([`math::int::binary`](crate::exec::math::int::binary)).
    IntBinary {
        d: Reg,
        a: Reg,
        b: Reg,
        n: u8,
        op: Op,
    },
    /// `d[c] ← f(a[c])` for `c < n` ([`math::int::unary`](crate::exec::math::int::unary)).
    IntUnary {
        d: Reg,
        a: Reg,
        n: u8,
        op: Op,
    },
    /// `d ← texture(slot, a.xy)`, one [`Samplers`](crate::exec::Samplers) call per lane:
    /// `sample` for SAMPLE (`offset` `None`), `sample_offset` with the instruction's
    /// texel offset for SAMPLE_OFFSET.
    Sample {
        d: Reg,
        a: Reg,
        slot: u8,
        offset: Option<[i8; 2]>,
    },
    /// `d ← textureLod(slot, a.xy, b.x)` (SAMPLE_LOD, and SAMPLE_BIAS with λ = the
    /// bias outside quads), `textureGrad(slot, a.xy, b)` (SAMPLE_GRAD) or, in 2×2
    /// quads, an implicit-LOD lookup (SAMPLE, SAMPLE_OFFSET, SAMPLE_BIAS), with the
    /// texel offset (0, 0 for none): one [`Samplers::sample_lod`] or
    /// [`Samplers::sample_grad`](crate::exec::Samplers::sample_grad) call per lane.
    ///
    /// [`Samplers::sample_lod`]: crate::exec::Samplers::sample_lod
    SampleLod {
        d: Reg,
        a: Reg,
        b: Reg,
        slot: u8,
        offset: [i8; 2],
        mode: LodMode,
    },
    /// TEX (the GL 3.3 lookup family): [`tex_lane`](crate::exec::tex_lane) per lane,
    /// with the quad's operand `a` when `quads`; `c` the register of `b`'s second
    /// temporary (`dPdy` of a 3D or cube `textureGrad`), `b` itself otherwise.
    Tex {
        d: Reg,
        a: Reg,
        b: Reg,
        c: Reg,
        slot: u8,
        lookup: crate::sampler_type::TexLookup,
        quads: bool,
    },
    /// `d.xy ← textureSize(slot, a.x)` ([`texture_size`](crate::exec::texture_size)
    /// per lane: the level may differ between lanes).
    TexSize {
        d: Reg,
        a: Reg,
        slot: u8,
    },
    /// `d ← texelFetch(slot, a.xy, b.x)` ([`texel_fetch`](crate::exec::texel_fetch)
    /// per lane).
    TexFetch {
        d: Reg,
        a: Reg,
        b: Reg,
        slot: u8,
    },
    /// `d[c] ← varying lane array first + c` (after remapping), 0 past the arrays, for
    /// the components `c` in `comps` (all four when bound; narrowed to the live ones
    /// by [`tidy`](super::tidy)).
    LoadVar {
        d: Reg,
        first: u32,
        comps: u8,
    },
    /// `d ← gl_FragCoord`.
    LoadFcoord {
        d: Reg,
    },
    /// `d.x ← gl_FrontFacing` (1.0 or 0.0, the same for every lane of a batch).
    LoadFace {
        d: Reg,
    },
    /// Open a branch for the lanes whose `cond[0] != 0`; if none, jump to `next`
    /// (the ELSE or ENDIF step).
    If {
        cond: Reg,
        next: u32,
    },
    /// Switch to the lanes that did not take the IF; if none, jump to `next` (ENDIF).
    Else {
        next: u32,
    },
    /// Close the innermost branch.
    EndIf,
    /// Discard the running lanes, then jump to the end of the current branch.
    Discard,
    /// Geometry stage, EMIT: each running lane appends registers `first..first +
    /// count` (its position, then its vertex slots) as its next emitted vertex
    /// (`run/geometry.rs`).
    Emit {
        first: Reg,
        count: u8,
    },
    /// Geometry stage, ENDPRIM: each running lane ends its current output strip.
    EndPrim,
}

/// Where a [`Step::SampleLod`]'s level of detail comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::exec) enum LodMode {
    /// λ = `b.x` (SAMPLE_LOD; SAMPLE_BIAS outside quads).
    Explicit,
    /// The gradients `b.xyzw` (SAMPLE_GRAD).
    Grad,
    /// The quad's coarse gradients of `a.xy` (`exec::quad::lod_gradients`, read in all
    /// four lanes of each quad), plus `b.x` when `bias` (SAMPLE_BIAS); `b` is unread
    /// otherwise.
    Quad { bias: bool },
}

/// `count` consecutive registers from `first`, components `comps` of each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Access {
    pub first: Reg,
    pub count: u8,
    pub comps: Comps,
}

impl Access {
    fn one(r: Reg, comps: Comps) -> Access {
        Access {
            first: r,
            count: 1,
            comps,
        }
    }

    /// The registers accessed.
    pub fn registers(self) -> impl Iterator<Item = Reg> {
        self.first..self.first + self.count as Reg
    }
}

impl Step {
    /// What the step writes; `None` for control flow.
    pub(super) fn writes(&self) -> Option<Access> {
        use Step::*;
        let n = first_lanes;
        let one = Access::one;
        Some(match *self {
            Mov { d, n: k, .. }
            | Add { d, n: k, .. }
            | Sub { d, n: k, .. }
            | Mul { d, n: k, .. }
            | Div { d, n: k, .. }
            | MulSa { d, n: k, .. }
            | MulSb { d, n: k, .. }
            | MulAdd { d, n: k, .. }
            | AddMul { d, n: k, .. }
            | Clamp { d, n: k, .. }
            | Min { d, n: k, .. }
            | Max { d, n: k, .. }
            | Abs { d, n: k, .. }
            | Derivative { d, n: k, .. }
            | Rcp { d, n: k, .. }
            | Sin { d, n: k, .. }
            | Cos { d, n: k, .. }
            | IntBinary { d, n: k, .. }
            | IntUnary { d, n: k, .. } => one(d, n(k)),
            SetLane { d, dl, .. } => one(d, 1 << dl),
            Rsq { d, .. }
            | Trunc { d, .. }
            | Pow { d, .. }
            | PowInt { d, .. }
            | Dot { d, .. }
            | DotMax { d, .. }
            | Cmp { d, .. }
            | LoadFace { d } => one(d, 1),
            Normalize { d, n: k, .. } => one(d, n(k)),
            LoadVar { d, comps, .. } => one(d, comps),
            Swz { d, .. }
            | MulMv { d, .. }
            | Sample { d, .. }
            | SampleLod { d, .. }
            | TexFetch { d, .. }
            | Tex { d, .. }
            | LoadFcoord { d } => one(d, XYZW),
            TexSize { d, .. } => one(d, 0b11),
            MulMm { d, cols, .. } => Access {
                first: d,
                count: cols,
                comps: XYZW,
            },
            If { .. } | Else { .. } | EndIf | Discard | Emit { .. } | EndPrim => return None,
        })
    }

    /// Call `f` with everything the step reads (a partial or masked write also keeps
    /// its destination's other values, but that is not a read of them).
    pub(super) fn reads(&self, mut f: impl FnMut(Access)) {
        use Step::*;
        let n = first_lanes;
        let one = Access::one;
        match *self {
            Mov { a, n: k, .. }
            | Abs { a, n: k, .. }
            | Derivative { a, n: k, .. }
            | Rcp { a, n: k, .. }
            | Sin { a, n: k, .. }
            | Cos { a, n: k, .. }
            | IntUnary { a, n: k, .. } => f(one(a, n(k))),
            Swz { a, sel, n: k, .. } => {
                f(one(a, (0..k as usize).fold(0, |s, i| s | 1 << sel[i])));
            }
            SetLane { a, sl, .. } => f(one(a, 1 << sl)),
            Rsq { a, .. } | Trunc { a, .. } | PowInt { a, .. } | TexSize { a, .. } => f(one(a, 1)),
            Add { a, b, n: k, .. }
            | Sub { a, b, n: k, .. }
            | Mul { a, b, n: k, .. }
            | Div { a, b, n: k, .. }
            | Min { a, b, n: k, .. }
            | Max { a, b, n: k, .. }
            | IntBinary { a, b, n: k, .. } => {
                f(one(a, n(k)));
                f(one(b, n(k)));
            }
            MulSa { a, sa, b, n: k, .. } => {
                f(one(a, 1 << sa));
                f(one(b, n(k)));
            }
            MulSb { a, b, sb, n: k, .. } => {
                f(one(a, n(k)));
                f(one(b, 1 << sb));
            }
            MulAdd {
                a, b, sb, e, n: k, ..
            } => {
                f(one(a, n(k)));
                f(one(b, if sb < 4 { 1 << sb } else { n(k) }));
                f(one(e, n(k)));
            }
            AddMul { a, b, m, n: k, .. } => {
                f(one(a, n(k)));
                f(one(b, n(k)));
                f(one(m, n(k)));
            }
            Clamp {
                a, lo, hi, n: k, ..
            } => {
                f(one(a, n(k)));
                f(one(lo, n(k)));
                f(one(hi, n(k)));
            }
            Pow { a, b, .. } | Cmp { a, b, .. } => {
                f(one(a, 1));
                f(one(b, 1));
            }
            Dot { a, b, w, .. } => {
                f(one(a, n(w)));
                f(one(b, n(w)));
            }
            DotMax { a, b, w, m, .. } => {
                f(one(a, n(w)));
                f(one(b, n(w)));
                f(one(m, 1));
            }
            Normalize { a, w, n: k, .. } => f(one(a, n(w) | n(k))),
            MulMv { a, b, cols, .. } => {
                f(Access {
                    first: a,
                    count: cols,
                    comps: n(cols),
                });
                f(one(b, n(cols)));
            }
            MulMm { a, b, cols, .. } => {
                for r in [a, b] {
                    f(Access {
                        first: r,
                        count: cols,
                        comps: n(cols),
                    });
                }
            }
            Sample { a, .. } => f(one(a, 0b11)),
            Tex { a, b, c, .. } => {
                f(one(a, XYZW));
                f(one(b, XYZW));
                f(one(c, XYZW));
            }
            TexFetch { a, b, .. } => {
                f(one(a, 0b11));
                f(one(b, 1));
            }
            SampleLod { a, b, mode, .. } => {
                f(one(a, 0b11));
                match mode {
                    LodMode::Explicit | LodMode::Quad { bias: true } => f(one(b, 1)),
                    LodMode::Grad => f(one(b, 0b1111)),
                    LodMode::Quad { bias: false } => {}
                }
            }
            If { cond, .. } => f(one(cond, 1)),
            Emit { first, count } => f(Access {
                first,
                count,
                comps: XYZW,
            }),
            LoadVar { .. }
            | EndPrim
            | LoadFcoord { .. }
            | LoadFace { .. }
            | Else { .. }
            | EndIf
            | Discard => {}
        }
    }

    /// Replace every register `r` the step names by `f(r)` (the first register of
    /// MULMV/MULMM spans only).
    pub(super) fn rename(&mut self, mut f: impl FnMut(Reg) -> Reg) {
        use Step::*;
        match self {
            Add { d, a, b, .. }
            | Sub { d, a, b, .. }
            | Mul { d, a, b, .. }
            | Div { d, a, b, .. }
            | MulSa { d, a, b, .. }
            | MulSb { d, a, b, .. }
            | Min { d, a, b, .. }
            | Max { d, a, b, .. }
            | Pow { d, a, b }
            | Dot { d, a, b, .. }
            | Cmp { d, a, b, .. }
            | MulMv { d, a, b, .. }
            | MulMm { d, a, b, .. }
            | IntBinary { d, a, b, .. } => {
                *a = f(*a);
                *b = f(*b);
                *d = f(*d);
            }
            DotMax { d, a, b, m, .. } => {
                *a = f(*a);
                *b = f(*b);
                *m = f(*m);
                *d = f(*d);
            }
            MulAdd { d, a, b, e, .. } => {
                *a = f(*a);
                *b = f(*b);
                *e = f(*e);
                *d = f(*d);
            }
            AddMul { d, a, b, m, .. } => {
                *a = f(*a);
                *b = f(*b);
                *m = f(*m);
                *d = f(*d);
            }
            Clamp { d, a, lo, hi, .. } => {
                *a = f(*a);
                *lo = f(*lo);
                *hi = f(*hi);
                *d = f(*d);
            }
            Normalize { d, a, .. } => {
                *a = f(*a);
                *d = f(*d);
            }
            TexFetch { d, a, b, .. } | SampleLod { d, a, b, .. } => {
                *a = f(*a);
                *b = f(*b);
                *d = f(*d);
            }
            Tex { d, a, b, c, .. } => {
                *a = f(*a);
                *b = f(*b);
                *c = f(*c);
                *d = f(*d);
            }
            Mov { d, a, .. }
            | Swz { d, a, .. }
            | SetLane { d, a, .. }
            | Abs { d, a, .. }
            | Derivative { d, a, .. }
            | Rcp { d, a, .. }
            | Sin { d, a, .. }
            | Cos { d, a, .. }
            | Rsq { d, a }
            | Trunc { d, a }
            | PowInt { d, a, .. }
            | IntUnary { d, a, .. }
            | Sample { d, a, .. }
            | TexSize { d, a, .. } => {
                *a = f(*a);
                *d = f(*d);
            }
            LoadVar { d, .. } | LoadFcoord { d } | LoadFace { d } => *d = f(*d),
            If { cond, .. } => *cond = f(*cond),
            Emit { first, .. } => *first = f(*first),
            Else { .. } | EndIf | Discard | EndPrim => {}
        }
    }

    /// Point the destination at `to`. Returns `false` (and changes nothing) for steps
    /// without exactly one destination register.
    pub(super) fn set_destination(&mut self, to: Reg) -> bool {
        use Step::*;
        match self {
            Mov { d, .. }
            | Swz { d, .. }
            | SetLane { d, .. }
            | Add { d, .. }
            | Sub { d, .. }
            | Mul { d, .. }
            | Div { d, .. }
            | MulSa { d, .. }
            | MulSb { d, .. }
            | MulAdd { d, .. }
            | AddMul { d, .. }
            | Clamp { d, .. }
            | Min { d, .. }
            | Max { d, .. }
            | Abs { d, .. }
            | Derivative { d, .. }
            | Rcp { d, .. }
            | Sin { d, .. }
            | Cos { d, .. }
            | Rsq { d, .. }
            | Trunc { d, .. }
            | Pow { d, .. }
            | PowInt { d, .. }
            | Dot { d, .. }
            | DotMax { d, .. }
            | Normalize { d, .. }
            | Cmp { d, .. }
            | MulMv { d, .. }
            | IntBinary { d, .. }
            | IntUnary { d, .. }
            | Sample { d, .. }
            | SampleLod { d, .. }
            | TexSize { d, .. }
            | TexFetch { d, .. }
            | Tex { d, .. }
            | LoadVar { d, .. }
            | LoadFcoord { d }
            | LoadFace { d } => {
                *d = to;
                true
            }
            MulMm { .. } | If { .. } | Else { .. } | EndIf | Discard | Emit { .. } | EndPrim => {
                false
            }
        }
    }
}
