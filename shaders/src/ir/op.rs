//! The CSIR instruction set: one entry per opcode, with its numeric code, its
//! documentation and its description ([`OpInfo`]), from which the enum [`Op`],
//! [`ALL_OPS`] and [`Op::info`] are generated. This is where an instruction is
//! defined; `docs/architecture.md` walks through adding one.
//!
//! Codes are the seed's and never change: they are the `op` byte of the 16-byte record
//! and of CSI files (`docs/architecture.md`, "Where an instruction is defined").

use super::op_info::{
    Aux, Control, Effect, Emission, Input, Lanes, Lanes::*, OpInfo, Output, Temps,
};
use super::{Stage, VerifyRule};
use std::fmt;

/// Generates [`Op`], [`ALL_OPS`] and the description table from the entries below.
/// Codes must be `0, 1, 2, ...` in order (checked at compile time).
macro_rules! instruction_set {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident = $code:literal => $info:expr;
    )*) => {
        /// One CSIR operation. The discriminants are the `Ir::op` byte values and never
        /// change. Operand meaning per opcode is documented on each variant and
        /// described by [`Op::info`]; `aux`/`aux2` change meaning by opcode (the record
        /// is deliberately generic).
        #[repr(u8)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Op {
            $( $(#[doc = $doc])* $name = $code, )*
        }

        /// Every opcode in numeric order; `ALL_OPS[n as usize].code() == n`.
        pub const ALL_OPS: [Op; [$($code),*].len()] = [$(Op::$name),*];

        /// The description of every opcode, indexed by code.
        static INFO: [OpInfo; ALL_OPS.len()] = [$({ use Op::*; $info }),*];

        const _: () = {
            let codes = [$($code),*];
            let mut i = 0;
            while i < codes.len() {
                assert!(codes[i] == i, "opcodes must be numbered 0, 1, 2, ... in order");
                i += 1;
            }
        };
    };
}

/// `lanes 0..ncomp`, `ncomp` 0 meaning 4.
const NCOMP_OR_4: Lanes = Ncomp { zero_means: 4 };
/// `lanes 0..ncomp`, `ncomp` 0 meaning 1.
const NCOMP_OR_1: Lanes = Ncomp { zero_means: 1 };

instruction_set! {
    /// Removed instruction; only the opcode byte was rewritten by the optimizer.
    Nop = 0 => OpInfo::new(Nop, "nop", Effect::None).unused_fields_unchecked();
    /// `dst ← imm[aux .. aux+ncomp]` (`ncomp` 1..=4), the other lanes zeroed.
    Const = 1 => OpInfo::compute(Const, "const").dst(All).aux(Aux::Immediates)
        .unused_fields_unchecked();
    /// `dst ← a` on the first `ncomp` lanes (0 means 4); other lanes untouched.
    Mov = 2 => OpInfo::compute(Mov, "mov").dst(NCOMP_OR_4).a(NCOMP_OR_4).ncomp_at_most_4();
    /// Swizzle: lane i ← `a[(aux >> 2i) & 3]` for i < ncomp (0 means 1); other lanes
    /// zeroed.
    Swz = 3 => OpInfo::compute(Swz, "swz").dst(All).a(Swizzled).aux(Aux::Swizzle)
        .ncomp_at_most_4();
    /// `dst[aux & 3] ← a[aux2 & 3]`, a read-modify-write of `dst` (`ncomp`, the vector's
    /// width, is informational). Never removed: it keeps the destination's other lanes.
    SetLane = 4 => OpInfo::compute(SetLane, "lane").dst(AuxLane).a(Aux2Lane).aux(Aux::Lanes)
        .kept().dst_counts_as_read();
    /// Component-wise `a + b` on `ncomp` lanes (0 means 4).
    Add = 5 => OpInfo::compute(Add, "add").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4();
    /// Component-wise `a - b` on `ncomp` lanes (0 means 4).
    Sub = 6 => OpInfo::compute(Sub, "sub").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4();
    /// Component-wise `a * b` on `ncomp` lanes (0 means 4).
    Mul = 7 => OpInfo::compute(Mul, "mul").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4();
    /// Component-wise maximum on `ncomp` lanes (0 means 4): `a > b ? a : b` in the seed
    /// profile (a NaN operand gives `b`), IEEE 754 maxNum in the extended profile (a
    /// NaN operand gives the other; docs/csir.md "MIN and MAX").
    Max = 8 => OpInfo::compute(Max, "max").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().by_profile();
    /// Component-wise minimum on `ncomp` lanes (0 means 4): `a < b ? a : b` in the seed
    /// profile, IEEE 754 minNum in the extended profile (as MAX).
    Min = 9 => OpInfo::compute(Min, "min").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().by_profile();
    /// Component-wise `|a|` on `ncomp` lanes (0 means 4).
    Abs = 10 => OpInfo::compute(Abs, "abs").dst(NCOMP_OR_4).a(NCOMP_OR_4).ncomp_at_most_4();
    /// `dst.x ← Σ a[i]·b[i]` over `aux` lanes (2..=4), summed in order.
    Dot = 11 => OpInfo::compute(Dot, "dot").dst(X).a(DotWidth).b(DotWidth).aux(Aux::DotWidth);
    /// `dst.x ← 1/sqrt(a.x)`, 0 for `a.x <= 0` or NaN.
    Rsq = 12 => OpInfo::compute(Rsq, "rsq").dst(X).a(X);
    /// Per lane (`ncomp`, 0 means 1): `1/a`, 0 where `a == 0`.
    Rcp = 13 => OpInfo::compute(Rcp, "rcp").dst(NCOMP_OR_1).a(NCOMP_OR_1).ncomp_at_most_4();
    /// Component-wise sine on `ncomp` lanes (0 means 1).
    Sin = 14 => OpInfo::compute(Sin, "sin").dst(NCOMP_OR_1).a(NCOMP_OR_1).ncomp_at_most_4();
    /// Component-wise cosine on `ncomp` lanes (0 means 1).
    Cos = 15 => OpInfo::compute(Cos, "cos").dst(NCOMP_OR_1).a(NCOMP_OR_1).ncomp_at_most_4();
    /// `dst.x ← powf(a.x, b.x)` (`ncomp` at most 4, otherwise ignored).
    Pow = 16 => OpInfo::compute(Pow, "pow").dst(X).a(X).b(X).ncomp_at_most_4();
    /// `dst.x ← trunc(a.x)` (toward zero).
    Trunc = 17 => OpInfo::compute(Trunc, "trunc").dst(X).a(X);
    /// `dst.x ← compare(a.x, b.x) ? 1.0 : 0.0` with `aux` a [`CmpCode`](super::CmpCode).
    Cmp = 18 => OpInfo::compute(Cmp, "cmp").dst(X).a(X).b(X).aux(Aux::Compare);
    /// `dst ← M·b` where M is the matrix in temps `a .. a+aux` (columns), aux 3 or 4;
    /// lanes from `aux` on are zeroed.
    MulMv = 19 => OpInfo::compute(MulMv, "mul_mv").dst(All)
        .a_span(Temps::Columns, MatrixWidth).b(MatrixWidth).aux(Aux::MatrixWidth);
    /// Column j of `dst .. dst+aux` ← A·(column j of B); A at `a..`, B at `b..`; aux 3
    /// or 4. Never removed (the optimizer looks at the first destination only).
    MulMm = 20 => OpInfo::compute(MulMm, "mul_mm").dst_span(Temps::Columns, All)
        .a_span(Temps::Columns, MatrixWidth).b_span(Temps::Columns, MatrixWidth)
        .aux(Aux::MatrixWidth).kept();
    /// `dst ← texture(sampler aux, a.xy)`.
    Sample = 21 => OpInfo::new(Sample, "sample2d", Effect::Load(Input::Texture)).dst(All)
        .a(Xy).aux(Aux::Sampler).dump_aux_always().implicit_lod();
    /// `dst ← attribute[aux]` (vertex stage).
    LoadAttr = 22 => OpInfo::new(LoadAttr, "load_attr", Effect::Load(Input::Attribute))
        .dst(All).aux(Aux::Attribute).only_in(Stage::Vertex, VerifyRule::AttributeStage)
        .dump_aux_always();
    /// `dst ← varying[remap(aux)]` (fragment stage).
    LoadVar = 23 => OpInfo::new(LoadVar, "load_var", Effect::Load(Input::Varying)).dst(All)
        .aux(Aux::Varying).ncomp_at_most_4()
        .only_in(Stage::Fragment, VerifyRule::VaryingLoadStage);
    /// `dst .. dst+aux2 ← uniform vec4 slots aux .. aux+aux2`.
    LoadUni = 24 => OpInfo::new(LoadUni, "load_uni", Effect::Load(Input::Uniform))
        .dst_span(Temps::Slots, All).aux(Aux::UniformSlots).dump_aux_always();
    /// `dst ← gl_FragCoord` (fragment stage).
    LoadFcoord = 25 => OpInfo::new(LoadFcoord, "load_fragcoord", Effect::Load(Input::FragCoord))
        .dst(All).only_in(Stage::Fragment, VerifyRule::FragCoordStage);
    /// `gl_Position ← a` (vertex stage only).
    StorePos = 26 => OpInfo::new(StorePos, "store_pos", Effect::Store(Output::Position)).a(All)
        .only_in(Stage::Vertex, VerifyRule::PositionStage).also_in_geometry();
    /// `varying[aux] ← a` (vertex stage, and the geometry stage's outputs).
    StoreVar = 27 => OpInfo::new(StoreVar, "store_var", Effect::Store(Output::Varying)).a(All)
        .aux(Aux::Varying).only_in(Stage::Vertex, VerifyRule::VaryingStoreStage)
        .also_in_geometry();
    /// `colour ← a` (fragment stage only).
    StoreColor = 28 => OpInfo::new(StoreColor, "store_color", Effect::Store(Output::Color))
        .a(All).only_in(Stage::Fragment, VerifyRule::ColorStage);
    /// Open a structured conditional on `a.x != 0` (NaN is true).
    If = 29 => OpInfo::new(If, "if", Effect::Control(Control::If)).a(X);
    /// Switch to the other branch of the innermost IF.
    Else = 30 => OpInfo::new(Else, "else", Effect::Control(Control::Else));
    /// Close the innermost IF.
    EndIf = 31 => OpInfo::new(EndIf, "endif", Effect::Control(Control::EndIf));
    /// Discard the fragment and stop (fragment stage only).
    Discard = 32 => OpInfo::new(Discard, "discard", Effect::Control(Control::Discard))
        .only_in(Stage::Fragment, VerifyRule::DiscardStage);
    // The extended profile's integer and bit instructions: what each
    // computes, with its edge rules, is `exec::math::int`.
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): `a + b`, wrapping modulo 2^32 (signed and unsigned alike).
    UAdd = 33 => OpInfo::compute(UAdd, "uadd").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): `a · b`, the low 32 bits (signed and unsigned alike).
    UMul = 34 => OpInfo::compute(UMul, "umul").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): signed `a / b` toward zero; `x / 0 = 0`, `INT_MIN / -1 = INT_MIN`.
    IDiv = 35 => OpInfo::compute(IDiv, "idiv").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): unsigned `a / b`; `x / 0 = 0xFFFFFFFF`.
    UDiv = 36 => OpInfo::compute(UDiv, "udiv").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): signed remainder of IDIV (sign of `a`); `x % 0 = -1`.
    IMod = 37 => OpInfo::compute(IMod, "imod").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): unsigned `a % b`; `x % 0 = 0xFFFFFFFF`.
    UMod = 38 => OpInfo::compute(UMod, "umod").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): `a << (b & 31)`.
    Shl = 39 => OpInfo::compute(Shl, "shl").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): arithmetic `a >> (b & 31)`.
    IShr = 40 => OpInfo::compute(IShr, "ishr").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): logical `a >> (b & 31)`.
    UShr = 41 => OpInfo::compute(UShr, "ushr").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): bitwise `a & b`.
    And = 42 => OpInfo::compute(And, "and").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): bitwise `a | b`.
    Or = 43 => OpInfo::compute(Or, "or").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): bitwise `a ^ b`.
    Xor = 44 => OpInfo::compute(Xor, "xor").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): signed minimum.
    IMin = 45 => OpInfo::compute(IMin, "imin").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): signed maximum.
    IMax = 46 => OpInfo::compute(IMax, "imax").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): unsigned minimum.
    UMin = 47 => OpInfo::compute(UMin, "umin").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): unsigned maximum.
    UMax = 48 => OpInfo::compute(UMax, "umax").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): signed `a < b`: 1.0 or 0.0 (a float boolean, as CMP gives).
    ISlt = 49 => OpInfo::compute(ISlt, "islt").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): signed `a >= b`: 1.0 or 0.0.
    ISge = 50 => OpInfo::compute(ISge, "isge").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): unsigned `a < b`: 1.0 or 0.0.
    USlt = 51 => OpInfo::compute(USlt, "uslt").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): unsigned `a >= b`: 1.0 or 0.0.
    USge = 52 => OpInfo::compute(USge, "usge").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): bit patterns equal: 1.0 or 0.0.
    USeq = 53 => OpInfo::compute(USeq, "useq").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): bit patterns differ: 1.0 or 0.0.
    USne = 54 => OpInfo::compute(USne, "usne").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): bitwise `!a`.
    Not = 55 => OpInfo::compute(Not, "not").dst(NCOMP_OR_4).a(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): `-a`, wrapping (`INEG(INT_MIN) = INT_MIN`).
    INeg = 56 => OpInfo::compute(INeg, "ineg").dst(NCOMP_OR_4).a(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): `|a|`, wrapping (`IABS(INT_MIN) = INT_MIN`).
    IAbs = 57 => OpInfo::compute(IAbs, "iabs").dst(NCOMP_OR_4).a(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): the sign of `a`: -1, 0 or 1.
    ISsg = 58 => OpInfo::compute(ISsg, "issg").dst(NCOMP_OR_4).a(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): the `i32` `a` as the nearest `f32` (ties to even).
    I2F = 59 => OpInfo::compute(I2F, "i2f").dst(NCOMP_OR_4).a(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): the `u32` `a` as the nearest `f32` (ties to even).
    U2F = 60 => OpInfo::compute(U2F, "u2f").dst(NCOMP_OR_4).a(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): the `f32` `a` toward zero as `i32`, saturating; NaN gives 0.
    F2I = 61 => OpInfo::compute(F2I, "f2i").dst(NCOMP_OR_4).a(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile, 32-bit patterns, on `ncomp` lanes (0 means 4): the `f32` `a` toward zero as `u32`, saturating; NaN gives 0.
    F2U = 62 => OpInfo::compute(F2U, "f2u").dst(NCOMP_OR_4).a(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile: component-wise `log2(a)` on `ncomp` lanes (0 means 4), within
    /// 1 ulp (`exec::math::log`).
    Lg2 = 63 => OpInfo::compute(Lg2, "lg2").dst(NCOMP_OR_4).a(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// `dst.x ← 1.0` when the fragment's primitive is front-facing, else `0.0`
    /// (`gl_FrontFacing`, GLSL 1.10 §7.2; facing as GL 2.1 §3.5.1 defines it: the sign
    /// of the polygon's area in window coordinates, counter-clockwise in front);
    /// lanes y, z, w keep their value. Fragment stage only; extended profile.
    LoadFace = 64 => OpInfo::new(LoadFace, "load_frontfacing", Effect::Load(Input::FrontFacing))
        .dst(X).only_in(Stage::Fragment, VerifyRule::FrontFacingStage).extended();
    /// Extended profile: component-wise `2^a` on `ncomp` lanes (0 means 4), within
    /// 1 ulp (`exec::math::exp`).
    Ex2 = 65 => OpInfo::compute(Ex2, "ex2").dst(NCOMP_OR_4).a(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile: component-wise IEEE-754 `a / b` on `ncomp` lanes (0 means 4),
    /// correctly rounded: `x / ±0` is ±inf, `0 / 0` and `inf / inf` are NaN (GLSL 4.40
    /// §4.7.1; the seed's `x · RCP(y)` gives 0 for `y = 0`).
    Div = 66 => OpInfo::compute(Div, "div").dst(NCOMP_OR_4).a(NCOMP_OR_4).b(NCOMP_OR_4)
        .ncomp_at_most_4().extended();
    /// Extended profile: `textureSize(sampler2D, lod)` (GLSL 1.30 §8.7): `dst.x ←`
    /// width and `dst.y ←` height, as `i32` patterns, of level `a.x` (an `i32`
    /// pattern) of the texture bound to sampler slot `aux`; lanes z and w keep their
    /// value. Textures have one level: level 0 is the texture's size, any other level
    /// and an empty slot give 0, as llvmpipe does
    /// ([`texture_size`](crate::exec::texture_size)). TGSI `TXQ`.
    TexSize = 67 => OpInfo::new(TexSize, "texsize", Effect::Load(Input::Texture)).dst(Xy)
        .a(X).aux(Aux::Sampler).dump_aux_always().extended();
    /// Extended profile: `texelFetch(sampler2D, P, lod)` (GLSL 1.30 §8.7): `dst ←` the
    /// texel at integer index `(a.x, a.y)` (`i32` patterns, texel row 0 at t = 0) of
    /// level `b.x` (an `i32` pattern) of the texture bound to sampler slot `aux`, RGBA
    /// in [0, 1], unfiltered and unwrapped. An index outside the level, a level the
    /// texture does not have (every level but 0) and an empty slot give (0, 0, 0, 0),
    /// as llvmpipe does ([`texel_fetch`](crate::exec::texel_fetch)). TGSI `TXF`.
    TexFetch = 68 => OpInfo::new(TexFetch, "texfetch", Effect::Load(Input::Texture)).dst(All)
        .a(Xy).b(X).aux(Aux::Sampler).dump_aux_always().extended();
    /// Extended profile: `textureOffset(sampler2D, P, offset)` (GLSL 1.30 §8.7): `dst ←`
    /// the texture bound to sampler slot `aux` sampled at `a.xy` as SAMPLE samples it,
    /// with the texel offset `(dx, dy)` added to the integer texel coordinates (u, v)
    /// before wrapping, in every filter and wrap mode. The offset is a constant of the
    /// instruction, in `aux2`: `dx` its low byte and `dy` its high byte, each an `i8`
    /// ([`Ir::texel_offset`](super::Ir::texel_offset)); every value is an offset, and
    /// the front end keeps them within -8..=7. What the offset does to each filter and
    /// wrap mode, as llvmpipe does it, is the runtime's `Samplers::sample_offset`.
    /// TGSI `TEX` with a texture offset.
    SampleOffset = 69 => OpInfo::new(SampleOffset, "sample2d_offset", Effect::Load(Input::Texture))
        .dst(All).a(Xy).aux(Aux::Sampler).dump_aux_always().implicit_lod().extended();
    /// Extended profile, fragment stage: the derivative in window x, component-wise on
    /// `ncomp` lanes (0 means 4) (GLSL 1.10 §8.8 `dFdx`; TGSI `DDX`). Fine, as
    /// llvmpipe computes it: in the 2×2 quad the invocation runs in, `a` of the right
    /// pixel of the invocation's row minus `a` of the left pixel of that row, the
    /// values the four invocations' registers hold at this instruction (window y up,
    /// so x grows to the right). A lone invocation is its own quad: `a − a`
    /// (docs/csir.md "Derivatives").
    Ddx = 70 => OpInfo::derivative(Ddx, "ddx").dst(NCOMP_OR_4).a(NCOMP_OR_4).ncomp_at_most_4()
        .only_in(Stage::Fragment, VerifyRule::DerivativeStage).extended();
    /// Extended profile, fragment stage: the derivative in window y, component-wise on
    /// `ncomp` lanes (0 means 4) (GLSL 1.10 §8.8 `dFdy`; TGSI `DDY`). Fine, like DDX:
    /// `a` of the upper pixel of the invocation's quad column (window y + 1) minus `a`
    /// of the lower one, so the value grows with window y as GL's y does.
    Ddy = 71 => OpInfo::derivative(Ddy, "ddy").dst(NCOMP_OR_4).a(NCOMP_OR_4).ncomp_at_most_4()
        .only_in(Stage::Fragment, VerifyRule::DerivativeStage).extended();
    /// Extended profile: `textureLod(sampler2D, P, lod)` and `textureLodOffset` (GLSL
    /// 1.30 §8.7): `dst ←` the texture bound to sampler slot `aux` sampled at `a.xy`
    /// at the level of detail λ = `b.x` (a float), with the constant texel offset in
    /// `aux2` as SAMPLE_OFFSET keeps it (0 for none). λ ≤ 0 magnifies, λ > 0 minifies
    /// and selects mip levels (GL 3.0 §3.9.7–3.9.8): the runtime's
    /// `Samplers::sample_lod` (docs/csir.md "Level of detail"). TGSI `TXL`.
    SampleLod = 72 => OpInfo::new(SampleLod, "sample2d_lod", Effect::Load(Input::Texture))
        .dst(All).a(Xy).b(X).aux(Aux::Sampler).dump_aux_always().extended();
    /// Extended profile: `texture(sampler2D, P, bias)` and `textureOffset(…, bias)`
    /// (GLSL 1.30 §8.7): SAMPLE_LOD at λ = λ_implicit + `b.x`, with the texel offset
    /// in `aux2`. λ_implicit is the lookup's own level of detail from the 2×2 quad's
    /// derivatives of `a.xy` when the fragment runs in a quad, and 0 for a lone
    /// invocation (docs/csir.md "Level of detail"). TGSI `TXB`.
    SampleBias = 73 => OpInfo::new(SampleBias, "sample2d_bias", Effect::Load(Input::Texture))
        .dst(All).a(Xy).b(X).aux(Aux::Sampler).dump_aux_always().implicit_lod().extended();
    /// Extended profile: `textureGrad(sampler2D, P, dPdx, dPdy)` and
    /// `textureGradOffset` (GLSL 1.30 §8.7): SAMPLE_LOD at the λ of the gradients `b
    /// = (ds/dx, dt/dx, ds/dy, dt/dy)` (`Samplers::sample_grad`,
    /// [`lod_from_gradients`](crate::exec::lod_from_gradients), GL 3.0 §3.9.7), with
    /// the texel offset in `aux2`. TGSI `TXD`.
    SampleGrad = 74 => OpInfo::new(SampleGrad, "sample2d_grad", Effect::Load(Input::Texture))
        .dst(All).a(Xy).b(All).aux(Aux::Sampler).dump_aux_always().extended();
    /// Extended profile: the GL 3.3 lookup family on sampler slot `aux`, whose target
    /// and kind are its interface entry's (`sampler_type`): `aux2` is a
    /// [`TexLookup`](crate::sampler_type::TexLookup) (texture, bias, lod, grad,
    /// texelFetch or textureSize, with a texel offset); `a` the coordinates, then the
    /// shadow reference; `b` the bias, λ, gradients or level (`a` when unread), two
    /// temporaries for a 3D or cube `textureGrad` (`TexMode::Grad3`: `dPdx`, `dPdy`).
    /// Per lane: [`tex_lane`](crate::exec::tex_lane). TGSI `TEX`/`TXB`/`TXL`/`TXD`/
    /// `TXF`/`TXQ` with the target.
    Tex = 75 => OpInfo::new(Tex, "tex", Effect::Load(Input::Texture)).dst(All).a(All)
        .b_span(Temps::Lookup, All)
        .aux(Aux::Sampler).dump_aux_always().implicit_lod().extended();
    // The geometry stage (GLSL 1.50 §2.2, §8.10; GL 3.2 §2.12): what each does to an
    // invocation's list of emitted vertices is `exec::geometry`.
    /// Extended profile, geometry stage: `dst ←` input `aux` of vertex `aux2` of the
    /// input primitive (`gl_in[aux2]` and the per-vertex input arrays, GLSL 1.50
    /// §7.1.1): `aux` a varying slot (the vertex stage's STORE_VAR slot, before
    /// linking's remap as LOAD_VAR's), or `-1` for `gl_Position`, `-2` for
    /// `gl_PointSize` (in lane x; [`vertex_input`](super::geometry::vertex_input));
    /// `aux2` below the input primitive's vertex count. TGSI `IN[slot][vertex]`.
    LoadVtx = 76 => OpInfo::new(LoadVtx, "load_vtx", Effect::Load(Input::Vertex)).dst(All)
        .aux(Aux::VertexInput).ncomp_at_most_4().dump_aux_always()
        .only_in(Stage::Geometry, VerifyRule::GeometryStage).extended();
    /// Extended profile, geometry stage: `dst.x ←` the index of the input primitive
    /// in its draw, an `i32` pattern (`gl_PrimitiveIDIn`, GLSL 1.50 §7.1; GL 3.2
    /// §2.12.4); lanes y, z, w keep their value. TGSI `SV PRIMID`.
    LoadPrimId = 77 => OpInfo::new(LoadPrimId, "load_primid", Effect::Load(Input::PrimitiveId))
        .dst(X).only_in(Stage::Geometry, VerifyRule::GeometryStage).extended();
    /// Extended profile, geometry stage: `EmitVertex()` (GLSL 1.50 §8.10): the
    /// current outputs (STORE_POS, STORE_VAR) become the next vertex of the current
    /// output primitive; past the layout's `max_vertices` it does nothing (GL 3.2
    /// §2.12.4). The outputs keep their values. TGSI `EMIT`.
    Emit = 78 => OpInfo::new(Emit, "emit", Effect::Emit(Emission::Vertex))
        .only_in(Stage::Geometry, VerifyRule::GeometryStage).extended();
    /// Extended profile, geometry stage: `EndPrimitive()` (GLSL 1.50 §8.10): the
    /// current output primitive ends, the next EMIT starts a new one; a strip with
    /// too few vertices for one primitive is dropped. The end of the invocation ends
    /// the last primitive the same way. TGSI `ENDPRIM`.
    EndPrim = 79 => OpInfo::new(EndPrim, "endprim", Effect::Emit(Emission::EndPrimitive))
        .only_in(Stage::Geometry, VerifyRule::GeometryStage).extended();
}

impl Op {
    /// The opcode byte stored in [`Ir::op`](super::Ir).
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// Decode an opcode byte; `None` for values past the last opcode (the verifier's
    /// "invalid IR opcode").
    pub fn from_code(code: u8) -> Option<Op> {
        ALL_OPS.get(code as usize).copied()
    }

    /// The description of this opcode: operands, lanes, `aux`, verifier and optimizer
    /// rules, dump mnemonic.
    pub fn info(self) -> &'static OpInfo {
        &INFO[self as usize]
    }

    /// Mnemonic used by the IR dump.
    pub fn mnemonic(self) -> &'static str {
        self.info().mnemonic
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mnemonic())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_match_the_seed() {
        for (n, op) in ALL_OPS.iter().enumerate() {
            assert_eq!(op.code() as usize, n);
            assert_eq!(Op::from_code(n as u8), Some(*op));
            assert_eq!(op.info().op, *op, "entry {n} describes its own opcode");
        }
        assert_eq!(Op::Tex.code(), 75);
        assert_eq!(ALL_OPS.len(), Op::EndPrim.code() as usize + 1);
        assert_eq!(Op::from_code(Op::EndPrim.code() + 1), None);
        assert_eq!((Op::LoadVtx.code(), Op::EndPrim.code()), (76, 79));
        for op in [Op::SampleLod, Op::SampleBias, Op::SampleGrad] {
            assert_eq!(op.info().profile, crate::ir::Profile::Extended);
            assert!(op.code() > Op::SampleOffset.code());
        }
        assert_eq!((Op::Ddx.code(), Op::Ddy.code()), (70, 71));
        assert_eq!(Op::Ddy.info().profile, crate::ir::Profile::Extended);
        assert_eq!(Op::SampleOffset.code(), 69);
        assert_eq!(
            Op::SampleOffset.info().profile,
            crate::ir::Profile::Extended
        );
        assert_eq!(Op::TexFetch.code(), 68);
        assert_eq!(Op::TexFetch.info().profile, crate::ir::Profile::Extended);
        assert_eq!(Op::Ex2.code(), 65);
        assert_eq!(Op::Div.code(), 66);
        assert_eq!(Op::TexSize.code(), 67);
        assert_eq!(Op::TexSize.info().profile, crate::ir::Profile::Extended);
        assert_eq!(Op::Div.info().profile, crate::ir::Profile::Extended);
        assert_eq!(Op::Lg2.code(), 63);
        assert_eq!(Op::UAdd.code(), 33);
        assert_eq!(Op::F2U.code(), 62);
        assert_eq!(Op::LoadFace.code(), 64);
        assert_eq!(Op::LoadFace.info().profile, crate::ir::Profile::Extended);
        let seed = ALL_OPS
            .iter()
            .filter(|op| op.info().profile == crate::ir::Profile::Seed);
        assert_eq!(seed.count(), 33);
        assert_eq!(Op::MulMv.code(), 19);
        assert_eq!(Op::Discard.code(), 32);
        assert_eq!(Op::Sample.mnemonic(), "sample2d");
    }

    #[test]
    fn the_seed_profile_is_the_first_33_codes() {
        for op in ALL_OPS {
            let seed = op.info().profile == crate::Profile::Seed;
            assert_eq!(seed, op.code() < 33, "{op:?}");
        }
    }

    #[test]
    fn the_removable_set_is_the_seeds() {
        let removable: Vec<Op> = ALL_OPS
            .into_iter()
            .filter(|op| op.info().profile == crate::Profile::Seed)
            .filter(|op| op.info().removable)
            .collect();
        use Op::*;
        assert_eq!(
            removable,
            [
                Const, Mov, Swz, Add, Sub, Mul, Max, Min, Abs, Dot, Rsq, Rcp, Sin, Cos, Pow, Trunc,
                Cmp, MulMv
            ]
        );
    }
}
