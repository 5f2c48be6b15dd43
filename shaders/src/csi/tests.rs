//! Whole-format tests: round trips, the v1 metadata gap, corruption detection, the
//! loaders' check order and offsets, and property tests over hostile bytes.

use super::*;
use crate::exec::{Inputs, Machine, Outputs, Samplers};
use crate::ir::{
    CmpCode, Interface, InterfaceSymbol, IrBuilder, Op, Stage, SymbolKind, Type, VerifyRule,
};
use crate::link::{LinkError, Program};
use crate::{Ir, Limits};
use proptest::prelude::*;

pub(super) fn sym(
    name: &str,
    ty: Type,
    array_len: Option<u16>,
    kind: SymbolKind,
) -> InterfaceSymbol {
    InterfaceSymbol {
        name: name.into(),
        ty,
        array_len,
        kind,
        interpolation: None,
    }
}

fn emit(b: &mut IrBuilder, ir: Ir) {
    b.emit(ir).expect("fixture fits the seed limits");
}

/// The seed's recommended case, vertex half: attribute locations 0 and 3, several
/// uniforms (mat4, vec3, a vec4 array), varyings at slots 0 and 2, gl_Position.
fn vertex_shader() -> Shader {
    let mut b = IrBuilder::new(Limits::SEED);
    let t = |b: &mut IrBuilder, n| b.alloc_temps(n).unwrap();
    let pos = t(&mut b, 1);
    let zero = b.emit_const(&[0.0; 4], Type::Vec4).unwrap();
    emit(
        &mut b,
        Ir::new(Op::Mov, Type::Vec4).dst(pos).a(zero).ncomp(4),
    );
    let mvp = t(&mut b, 4);
    emit(
        &mut b,
        Ir::new(Op::LoadUni, Type::Mat4)
            .dst(mvp)
            .aux(0)
            .aux2(4)
            .ncomp(4),
    );
    let tint = t(&mut b, 1);
    emit(
        &mut b,
        Ir::new(Op::LoadUni, Type::Vec3)
            .dst(tint)
            .aux(4)
            .aux2(1)
            .ncomp(3),
    );
    let k = t(&mut b, 2);
    emit(
        &mut b,
        Ir::new(Op::LoadUni, Type::Vec4)
            .dst(k)
            .aux(5)
            .aux2(2)
            .ncomp(4),
    );
    let a_pos = t(&mut b, 1);
    emit(
        &mut b,
        Ir::new(Op::LoadAttr, Type::Vec3).dst(a_pos).aux(0).ncomp(4),
    );
    let a_uv = t(&mut b, 1);
    emit(
        &mut b,
        Ir::new(Op::LoadAttr, Type::Vec2).dst(a_uv).aux(3).ncomp(4),
    );
    let one = b.emit_const(&[1.0], Type::Float).unwrap();
    let p = t(&mut b, 1);
    emit(
        &mut b,
        Ir::new(Op::Mov, Type::Vec3).dst(p).a(a_pos).ncomp(3),
    );
    emit(
        &mut b,
        Ir::new(Op::SetLane, Type::Vec4)
            .dst(p)
            .a(one)
            .aux(3)
            .aux2(0)
            .ncomp(4),
    );
    emit(
        &mut b,
        Ir::new(Op::MulMv, Type::Vec4)
            .dst(pos)
            .a(mvp)
            .b(p)
            .aux(4)
            .ncomp(4),
    );
    let lit = t(&mut b, 1);
    emit(
        &mut b,
        Ir::new(Op::Mul, Type::Vec3)
            .dst(lit)
            .a(tint)
            .b(k + 1)
            .ncomp(3),
    );
    let dead = t(&mut b, 1);
    let mut nop = Ir::new(Op::Add, Type::Vec3)
        .dst(dead)
        .a(lit)
        .b(lit)
        .ncomp(3);
    nop.op = Op::Nop.code();
    emit(&mut b, nop);
    emit(&mut b, Ir::new(Op::StorePos, Type::Vec4).a(pos));
    emit(
        &mut b,
        Ir::new(Op::StoreVar, Type::Vec2).a(a_uv).aux(0).ncomp(2),
    );
    emit(
        &mut b,
        Ir::new(Op::StoreVar, Type::Vec3).a(lit).aux(2).ncomp(3),
    );
    let (ir, imm, ntmp) = b.finish();
    Shader {
        name: "lit.vert".into(),
        stage: Stage::Vertex,
        limits: Limits::SEED,
        ir,
        imm,
        ntmp,
        interface: Interface {
            symbols: vec![
                sym(
                    "aPos",
                    Type::Vec3,
                    None,
                    SymbolKind::Attribute { location: 0 },
                ),
                sym(
                    "aUv",
                    Type::Vec2,
                    None,
                    SymbolKind::Attribute { location: 3 },
                ),
                sym("uMVP", Type::Mat4, None, SymbolKind::Uniform { slot: 0 }),
                sym("uTint", Type::Vec3, None, SymbolKind::Uniform { slot: 4 }),
                sym("uK", Type::Vec4, Some(2), SymbolKind::Uniform { slot: 5 }),
                sym("vUv", Type::Vec2, None, SymbolKind::VaryingOut { slot: 0 }),
                sym(
                    "vTint",
                    Type::Vec3,
                    None,
                    SymbolKind::VaryingOut { slot: 2 },
                ),
            ],
            attr_hi: 3,
            var_hi: 2,
            samp_hi: -1,
            uni_hi: 6,
            writes_position: true,
            named: true,
            uniform_initializers: Vec::new(),
            geometry: None,
        },
    }
}

/// Fragment half: varyings at fragment-local slots 0 and 1 (remapped to 0 and 2),
/// two float uniforms, samplers at slots 0 and 1 (slot 1 sampled), a discard under
/// IF/ELSE, and the colour output.
fn fragment_shader() -> Shader {
    let mut b = IrBuilder::new(Limits::SEED);
    let t = |b: &mut IrBuilder| b.alloc_temps(1).unwrap();
    let fc = t(&mut b);
    emit(&mut b, Ir::new(Op::LoadFcoord, Type::Vec4).dst(fc).ncomp(4));
    let alpha = t(&mut b);
    emit(
        &mut b,
        Ir::new(Op::LoadUni, Type::Float)
            .dst(alpha)
            .aux(0)
            .aux2(1)
            .ncomp(1),
    );
    let cut = t(&mut b);
    emit(
        &mut b,
        Ir::new(Op::LoadUni, Type::Float)
            .dst(cut)
            .aux(1)
            .aux2(1)
            .ncomp(1),
    );
    let uv = t(&mut b);
    emit(
        &mut b,
        Ir::new(Op::LoadVar, Type::Vec2).dst(uv).aux(0).ncomp(2),
    );
    let tint = t(&mut b);
    emit(
        &mut b,
        Ir::new(Op::LoadVar, Type::Vec3).dst(tint).aux(1).ncomp(3),
    );
    let colour = t(&mut b);
    let zero = b.emit_const(&[0.0; 4], Type::Vec4).unwrap();
    emit(
        &mut b,
        Ir::new(Op::Mov, Type::Vec4).dst(colour).a(zero).ncomp(4),
    );
    let texel = t(&mut b);
    emit(
        &mut b,
        Ir::new(Op::Sample, Type::Vec4)
            .dst(texel)
            .a(uv)
            .aux(1)
            .ncomp(4),
    );
    emit(
        &mut b,
        Ir::new(Op::Mul, Type::Vec3)
            .dst(colour)
            .a(texel)
            .b(tint)
            .ncomp(3),
    );
    emit(
        &mut b,
        Ir::new(Op::SetLane, Type::Vec4)
            .dst(colour)
            .a(alpha)
            .aux(3)
            .ncomp(4),
    );
    let cond = t(&mut b);
    emit(
        &mut b,
        Ir::new(Op::Cmp, Type::Bool)
            .dst(cond)
            .a(alpha)
            .b(cut)
            .aux(CmpCode::Lt.code()),
    );
    emit(&mut b, Ir::new(Op::If, Type::None).a(cond));
    emit(&mut b, Ir::new(Op::Discard, Type::None));
    emit(&mut b, Ir::new(Op::Else, Type::None));
    let half = b
        .emit_const(&[0.5, 0.25, -3.5e-7, 1.0e30], Type::Vec4)
        .unwrap();
    emit(
        &mut b,
        Ir::new(Op::Add, Type::Vec4)
            .dst(colour)
            .a(colour)
            .b(half)
            .ncomp(4),
    );
    emit(&mut b, Ir::new(Op::EndIf, Type::None));
    emit(&mut b, Ir::new(Op::StoreColor, Type::Vec4).a(colour));
    let (ir, imm, ntmp) = b.finish();
    Shader {
        name: "lit.frag".into(),
        stage: Stage::Fragment,
        limits: Limits::SEED,
        ir,
        imm,
        ntmp,
        interface: Interface {
            symbols: vec![
                sym("vUv", Type::Vec2, None, SymbolKind::VaryingIn { slot: 0 }),
                sym("vTint", Type::Vec3, None, SymbolKind::VaryingIn { slot: 1 }),
                sym("uShadow", Type::Sampler2D, None, SymbolKind::sampler_2d(0)),
                sym("uTex", Type::Sampler2D, None, SymbolKind::sampler_2d(1)),
                sym("uAlpha", Type::Float, None, SymbolKind::Uniform { slot: 0 }),
                sym("uCut", Type::Float, None, SymbolKind::Uniform { slot: 1 }),
                sym("fragColor", Type::Vec4, None, SymbolKind::color_out(0)),
            ],
            attr_hi: -1,
            var_hi: 1,
            samp_hi: 1,
            uni_hi: 1,
            writes_position: false,
            named: true,
            uniform_initializers: Vec::new(),
            geometry: None,
        },
    }
}

fn fixtures() -> [Shader; 2] {
    [vertex_shader(), fragment_shader()]
}

fn v2(s: &Shader) -> Vec<u8> {
    save_csi(s).expect("fixture saves")
}

fn v1(s: &Shader) -> Vec<u8> {
    save_csi_v1(s).expect("fixture saves")
}

fn load(bytes: &[u8]) -> Result<Shader, CsiError> {
    load_csi(bytes, &Limits::SEED)
}

fn word(bytes: &[u8], offset: usize) -> u32 {
    u32::from_le_bytes(bytes[offset..offset + 4].try_into().unwrap())
}

fn set_word(bytes: &mut [u8], offset: usize, value: u32) {
    bytes[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
}

/// Recompute a v2 blob's length word and CRC after an edit, so that the structural
/// checks behind them are what rejects it.
fn reseal_v2(bytes: &mut [u8]) {
    let len = bytes.len() as u32;
    set_word(bytes, 28, len);
    let crc = v2::checksum(bytes);
    set_word(bytes, 24, crc);
}

/// Recompute a v1 blob's byte sum after an edit of its records.
fn reseal_v1(bytes: &mut [u8]) {
    let nir = word(bytes, 12) as usize;
    let end = (HEADER_LEN + RECORD_LEN * nir).min(bytes.len());
    let sum = v1::byte_sum(&bytes[HEADER_LEN..end]);
    set_word(bytes, 24, sum);
}

/// Offset of the v2 metadata (shader name length byte).
fn meta_start(s: &Shader) -> usize {
    v2::IR_START + RECORD_LEN * s.ir.len() + 4 * s.imm.len()
}

/// Offsets of the v2 symbol records.
fn symbol_offsets(s: &Shader) -> Vec<usize> {
    let mut at = meta_start(s) + 1 + s.name.len() + 11;
    let mut out = Vec::new();
    for sym in &s.interface.symbols {
        out.push(at);
        at += 7 + sym.name.len();
    }
    out
}

fn kind_at(bytes: &[u8]) -> (usize, CsiErrorKind) {
    let e = load(bytes).unwrap_err();
    (e.offset, e.kind)
}

// ---------------------------------------------------------------- v2 round trips

#[test]
fn fixtures_are_valid_shaders() {
    for s in fixtures() {
        crate::ir::verify(&s).unwrap();
        interface::check(&s).unwrap();
    }
    Program::link(vertex_shader(), fragment_shader()).unwrap();
}

#[test]
fn v2_round_trip_equals_the_original_and_links_identically() {
    let [vs, fs] = fixtures();
    let (vb, fb) = (v2(&vs), v2(&fs));
    let (lv, lf) = (load(&vb).unwrap(), load(&fb).unwrap());
    assert_eq!(lv, vs);
    assert_eq!(lf, fs);
    let original = Program::link(vs, fs).unwrap();
    let loaded = Program::link(lv, lf).unwrap();
    assert_eq!(loaded, original);
    assert_eq!(loaded.var_remap[..2], [0, 2]);
    // Uniform storage and values land in the same slots.
    let mut a = original.new_uniforms();
    let mut b = loaded.new_uniforms();
    let m: Vec<f32> = (0..16).map(|i| i as f32).collect();
    for (p, u) in [(&original, &mut a), (&loaded, &mut b)] {
        p.set_uniform(u, "uMVP", &m).unwrap();
        p.set_uniform(u, "uK[1]", &[1.0, 2.0, 3.0, 4.0]).unwrap();
        p.set_uniform(u, "uAlpha", &[0.5]).unwrap();
    }
    assert_eq!(a, b);
}

#[test]
fn v2_is_canonical_and_keeps_every_bit() {
    let mut s = fragment_shader();
    // NaN payloads, negative zero and denormals survive bit for bit.
    s.imm[0] = f32::from_bits(0x7fc0_1234);
    s.imm[1] = -0.0;
    s.imm[2] = f32::from_bits(1);
    s.limits = Limits {
        source_bytes: 1234,
        unroll: 7,
        errors: 3,
        ..Limits::SEED
    };
    s.name = "é".repeat(MAX_SHADER_NAME / 2);
    let bytes = v2(&s);
    let back = load(&bytes).unwrap();
    let bits = |s: &Shader| s.imm.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&back), bits(&s));
    assert_eq!((back.limits, &back.name), (s.limits, &s.name));
    assert_eq!(v2(&back), bytes);
}

#[test]
fn v2_layout_matches_the_documentation() {
    let s = fragment_shader();
    let b = v2(&s);
    assert_eq!(&b[0..4], b"CSIR");
    assert_eq!(word(&b, 4), 2);
    assert_eq!(word(&b, 8), 1);
    assert_eq!(word(&b, 12) as usize, s.ir.len());
    assert_eq!(word(&b, 16) as usize, s.imm.len());
    assert_eq!(word(&b, 20), u32::from(s.ntmp));
    assert_eq!(word(&b, 24), v2::checksum(&b));
    assert_eq!(word(&b, 28) as usize, b.len());
    assert_eq!(word(&b, 32), 384);
    assert_eq!(word(&b, 72), 8); // errors, the last limit
    assert_eq!(v2::IR_START, 76);
    let mut rec = Vec::new();
    wire::write_record(&mut rec, &s.ir[6]);
    assert_eq!(&b[76 + 6 * 16..76 + 7 * 16], &rec[..]);
    let imm0 = 76 + 16 * s.ir.len();
    assert_eq!(f32::from_bits(word(&b, imm0 + 12)), s.imm[3]);
    let m = meta_start(&s);
    assert_eq!(m, imm0 + 4 * s.imm.len());
    assert_eq!(&b[m..m + 9], b"\x08lit.frag");
    let marks = m + 9;
    assert_eq!(&b[marks..marks + 8], &[0xff, 0xff, 1, 0, 1, 0, 1, 0]);
    assert_eq!(b[marks + 8], 0b10); // named, no position
    assert_eq!(&b[marks + 9..marks + 11], &[7, 0]);
    let first = marks + 11;
    // kind 3 (varying in), type vec2 (5), slot 0, not an array, "vUv".
    assert_eq!(&b[first..first + 10], b"\x03\x05\x00\x00\x00\x00\x03vUv");
    assert_eq!(&b[b.len() - 10..], b"\x09fragColor");
}

#[test]
fn v1_loaded_shader_keeps_its_unnamed_interface_through_v2() {
    let loaded = load(&v1(&vertex_shader())).unwrap();
    assert_eq!(load(&v2(&loaded)).unwrap(), loaded);
}

#[test]
fn larger_profiles_round_trip_when_the_loader_accepts_them() {
    let mut s = vertex_shader();
    s.limits = Limits::LARGE;
    let b = v2(&s);
    assert_eq!(load_csi(&b, &Limits::LARGE).unwrap(), s);
    // The seed loader refuses a shader built for larger pools, naming the field.
    let e = load(&b).unwrap_err();
    assert_eq!(e.offset, 32);
    assert_eq!(
        e.kind,
        CsiErrorKind::Count {
            what: "instructions",
            value: 4096,
            max: 384
        }
    );
}

// ------------------------------------------------------------------ execution

/// Texture slot `n` returns `(n, s, t, 1)`, so a result shows which slot was sampled.
struct SlotTextures;

impl Samplers for SlotTextures {
    fn sample(&self, slot: usize, s: f32, t: f32) -> [f32; 4] {
        [slot as f32, s, t, 1.0]
    }

    /// `(n, s + dx, t + dy, 1)`.
    fn sample_offset(&self, slot: usize, s: f32, t: f32, [dx, dy]: [i32; 2]) -> [f32; 4] {
        [slot as f32, s + dx as f32, t + dy as f32, 1.0]
    }
}

fn run(shader: &Shader, inputs: &Inputs<'_>) -> Outputs {
    let mut machine = Machine::new(shader).expect("loaded shaders verify");
    let mut out = Outputs::default();
    machine.run(inputs, &mut out).expect("runs");
    out
}

/// v2 and v1 loads run to the same outputs as the original (v1 by slot: its
/// uniforms, attributes and remap are supplied as the original program lays them out).
#[test]
fn loaded_shaders_execute_to_the_same_outputs() {
    let [vs, fs] = fixtures();
    let program = Program::link(vs.clone(), fs.clone()).unwrap();
    let mut u = program.new_uniforms();
    let mut mvp = [0.0f32; 16];
    (0..4).for_each(|i| mvp[i * 5] = 2.0);
    mvp[12..15].copy_from_slice(&[0.5, -1.0, 0.25]);
    program.set_uniform(&mut u, "uMVP", &mvp).unwrap();
    program
        .set_uniform(&mut u, "uTint", &[0.5, 1.0, 2.0])
        .unwrap();
    let k = [9.0, 9.0, 9.0, 9.0, 3.0, 5.0, 7.0, 11.0];
    program.set_uniform(&mut u, "uK", &k).unwrap();
    let attributes = [
        [1.0, 2.0, 3.0, 1.0],
        [0.0; 4],
        [0.0; 4],
        [0.25, 0.75, 0.0, 1.0],
    ];
    let vin = Inputs {
        uniforms: &u.vertex,
        attributes: &attributes,
        ..Inputs::default()
    };
    let vout = run(&vs, &vin);
    assert_eq!(vout.position, [2.5, 3.0, 6.25, 2.0]);
    for loaded in [load(&v2(&vs)).unwrap(), load(&v1(&vs)).unwrap()] {
        assert_eq!(run(&loaded, &vin), vout);
    }
    for (alpha, cut) in [(0.75, 0.5), (0.25, 0.5)] {
        program.set_uniform(&mut u, "uAlpha", &[alpha]).unwrap();
        program.set_uniform(&mut u, "uCut", &[cut]).unwrap();
        let fin = Inputs {
            uniforms: &u.fragment,
            varyings: &vout.varyings,
            var_remap: &program.var_remap,
            frag_coord: [3.5, 4.5, 0.25, 1.0],
            samplers: &SlotTextures,
            ..Inputs::default()
        };
        let want = run(&fs, &fin);
        assert_eq!(want.discarded, alpha < cut);
        if !want.discarded {
            // Sampler slot 1 times vTint (uTint.x · uK[1].x = 1.5), plus 0.5.
            assert_eq!(want.color[0], 1.0 * 1.5 + 0.5);
        }
        for loaded in [load(&v2(&fs)).unwrap(), load(&v1(&fs)).unwrap()] {
            assert_eq!(run(&loaded, &fin), want);
        }
    }
}

// ------------------------------------------------------------------ v1

#[test]
fn v1_bytes_are_the_seed_layout() {
    let s = vertex_shader();
    let b = v1(&s);
    assert_eq!(b.len(), 32 + 16 * s.ir.len() + 4 * s.imm.len());
    let words: Vec<u32> = (0..8).map(|i| word(&b, 4 * i)).collect();
    let ir_end = 32 + 16 * s.ir.len();
    let sum = b[32..ir_end].iter().map(|&x| u32::from(x)).sum::<u32>();
    assert_eq!(
        words,
        [
            0x5249_5343,
            1,
            0,
            s.ir.len() as u32,
            s.imm.len() as u32,
            u32::from(s.ntmp),
            sum,
            0
        ]
    );
    if cfg!(target_endian = "little") {
        assert_eq!(&b[32..ir_end], bytemuck::cast_slice::<Ir, u8>(&s.ir));
        assert_eq!(&b[ir_end..], bytemuck::cast_slice::<f32, u8>(&s.imm));
    }
}

#[test]
fn v1_reconstructs_the_high_water_marks_but_no_names() {
    for s in fixtures() {
        let back = load(&v1(&s)).unwrap();
        assert_eq!(back.name, v1::V1_NAME);
        assert_eq!(
            (back.stage, &back.ir, &back.imm, back.ntmp, back.limits),
            (s.stage, &s.ir, &s.imm, s.ntmp, s.limits)
        );
        let (i, o) = (&back.interface, &s.interface);
        // Attribute location 3, sampler slot 1, uniform slot 6 and the varying slots all
        // come back, so the shader verifies (the original zeroed them and failed).
        assert_eq!(
            (i.attr_hi, i.var_hi, i.samp_hi, i.uni_hi, i.writes_position),
            (o.attr_hi, o.var_hi, o.samp_hi, o.uni_hi, o.writes_position)
        );
        assert!(i.symbols.is_empty());
        assert!(!i.named);
        crate::ir::verify(&back).unwrap();
    }
}

#[test]
fn v1_shaders_cannot_be_linked_by_name() {
    let [vs, fs] = fixtures();
    let lv = load(&v1(&vs)).unwrap();
    let lf = load(&v1(&fs)).unwrap();
    let e = Program::link(vs.clone(), lf.clone()).unwrap_err();
    assert_eq!(e, LinkError::NoInterfaceNames(Stage::Fragment));
    assert!(e.to_string().contains("CSI v1 carries no varying"));
    assert_eq!(
        Program::link(lv.clone(), fs).unwrap_err(),
        LinkError::NoInterfaceNames(Stage::Vertex)
    );
    assert_eq!(
        Program::link(lv, lf).unwrap_err(),
        LinkError::NoInterfaceNames(Stage::Vertex)
    );
}

/// A v1 blob as the original writes it: CONST records with a = b = c = 0
/// (docs/csir-original.md A1), the reserved word left as is.
#[test]
fn original_v1_blob_with_zero_const_operands_loads() {
    let records: [[u8; 16]; 3] = [
        // CONST vec4 dst 1, a b c 0, aux 0, ncomp 4
        [1, 7, 4, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        // MOV dst 0 <- 1, ncomp 4
        [2, 7, 4, 0, 0, 0, 1, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0],
        // STORE_POS a 0
        [
            26, 7, 0, 0, 0xff, 0xff, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0,
        ],
    ];
    let mut blob = Vec::new();
    for w in [0x5249_5343u32, 1, 0, 3, 4, 2, 0, 0] {
        blob.extend_from_slice(&w.to_le_bytes());
    }
    records.iter().for_each(|r| blob.extend_from_slice(r));
    for f in [0.0f32, 0.0, 0.0, 1.0] {
        blob.extend_from_slice(&f.to_le_bytes());
    }
    reseal_v1(&mut blob);
    let s = load(&blob).unwrap();
    assert_eq!((s.ir[0].a, s.ir[0].b, s.ir[0].c), (0, 0, 0));
    assert_eq!(s.imm, [0.0, 0.0, 0.0, 1.0]);
    assert!(s.interface.writes_position);
    // Saving it again gives the same bytes: v1 records are kept verbatim.
    assert_eq!(v1(&s), blob);
}

#[test]
fn v1_checks_run_in_the_seeds_order() {
    let good = v1(&fragment_shader());
    let nir = word(&good, 12) as usize;
    let err = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut b = good.clone();
        f(&mut b);
        kind_at(&b)
    };
    // Too short beats everything.
    assert!(matches!(
        err(&|b| b.truncate(31)),
        (
            0,
            CsiErrorKind::Truncated {
                need: 32,
                have: 31,
                ..
            }
        )
    ));
    // Magic before version before stage before counts before length.
    assert!(matches!(
        err(&|b| {
            b[0] = 0;
            b[4] = 7;
        }),
        (0, CsiErrorKind::Magic { .. })
    ));
    assert_eq!(
        err(&|b| {
            set_word(b, 4, 3);
            set_word(b, 8, 9);
        }),
        (4, CsiErrorKind::Version { found: 3 })
    );
    assert_eq!(
        err(&|b| {
            set_word(b, 8, 2);
            set_word(b, 12, 385);
        }),
        (8, CsiErrorKind::Stage { code: 2 })
    );
    assert_eq!(
        err(&|b| set_word(b, 12, 385)),
        (
            12,
            CsiErrorKind::Count {
                what: "instruction count",
                value: 385,
                max: 384
            }
        )
    );
    assert!(matches!(
        err(&|b| set_word(b, 16, 161)),
        (16, CsiErrorKind::Count { value: 161, .. })
    ));
    assert!(matches!(
        err(&|b| set_word(b, 20, u32::MAX)),
        (20, CsiErrorKind::Count { .. })
    ));
    // Exact length: one byte missing or one byte extra.
    let len = good.len() as u64;
    assert_eq!(
        err(&|b| {
            b.pop();
        }),
        (
            good.len() - 1,
            CsiErrorKind::Length {
                expected: len,
                actual: len - 1
            }
        )
    );
    assert_eq!(
        err(&|b| b.push(0)),
        (
            good.len(),
            CsiErrorKind::Length {
                expected: len,
                actual: len + 1
            }
        )
    );
    // Checksum before the verifier.
    assert!(matches!(
        err(&|b| b[32] = 99),
        (24, CsiErrorKind::Checksum { .. })
    ));
    // The verifier last, pointing at the record: an invalid opcode in record 2.
    assert_eq!(
        err(&|b| {
            b[32 + 2 * 16] = 99;
            reseal_v1(b);
        })
        .0,
        32 + 2 * 16
    );
    // Whole-shader rules point at the end of the records: drop the ENDIF.
    let endif = fragment_shader()
        .ir
        .iter()
        .position(|i| i.op == Op::EndIf.code())
        .unwrap();
    let (offset, kind) = err(&|b| {
        b[32 + endif * 16] = Op::Nop.code();
        reseal_v1(b);
    });
    assert_eq!(offset, 32 + nir * 16);
    assert!(matches!(kind, CsiErrorKind::Verify(e) if e.rule == VerifyRule::Unbalanced));
}

#[test]
fn v1_detects_every_ir_byte_flip() {
    let s = vertex_shader();
    let good = v1(&s);
    for i in 32..32 + 16 * s.ir.len() {
        for mask in [0x01, 0x80, 0xff] {
            let mut b = good.clone();
            b[i] ^= mask;
            assert!(
                matches!(load(&b).unwrap_err().kind, CsiErrorKind::Checksum { .. }),
                "byte {i}"
            );
        }
    }
}

/// The seed's documented weakness, kept in v1: the checksum skips the immediates.
#[test]
fn v1_does_not_detect_a_changed_immediate_but_v2_does() {
    let s = fragment_shader();
    let mut b = v1(&s);
    let last = b.len() - 4;
    b[last..].copy_from_slice(&7.0f32.to_le_bytes());
    let loaded = load(&b).expect("v1 cannot notice");
    assert_eq!(*loaded.imm.last().unwrap(), 7.0);
    assert_ne!(loaded.imm, s.imm);

    let mut b = v2(&s);
    let imm = v2::IR_START + 16 * s.ir.len();
    b[imm..imm + 4].copy_from_slice(&7.0f32.to_le_bytes());
    assert!(matches!(kind_at(&b), (24, CsiErrorKind::Checksum { .. })));
}

// ------------------------------------------------------------------ v2 corruption

#[test]
fn v2_detects_every_single_byte_change() {
    for s in fixtures() {
        let good = v2(&s);
        for i in 0..good.len() {
            for mask in 1..=255u8 {
                let mut b = good.clone();
                b[i] ^= mask;
                assert!(load(&b).is_err(), "byte {i} ^ {mask:#x} accepted");
            }
        }
    }
}

#[test]
fn v2_rejects_truncation_and_extension_at_the_length_word() {
    let good = v2(&vertex_shader());
    for cut in [0, 8, 31] {
        assert!(matches!(
            kind_at(&good[..cut]),
            (0, CsiErrorKind::Truncated { .. })
        ));
    }
    for cut in [32, 76, good.len() - 1] {
        assert!(matches!(
            kind_at(&good[..cut]),
            (28, CsiErrorKind::Length { .. })
        ));
    }
    let mut longer = good.clone();
    longer.push(0);
    assert!(matches!(
        kind_at(&longer),
        (28, CsiErrorKind::Length { .. })
    ));
}

/// Resealed blobs get past the CRC, so these exercise the structural checks a
/// deliberately crafted blob meets.
#[test]
fn v2_structural_checks_name_the_field_and_offset() {
    let s = fragment_shader();
    let good = v2(&s);
    let m = meta_start(&s);
    let marks = m + 1 + s.name.len();
    let flags = marks + 8;
    let nsym = flags + 1;
    let sym0 = nsym + 2;
    let edit = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut b = good.clone();
        f(&mut b);
        reseal_v2(&mut b);
        kind_at(&b)
    };
    assert_eq!(
        edit(&|b| set_word(b, 8, 5)),
        (8, CsiErrorKind::Stage { code: 5 })
    );
    assert_eq!(
        edit(&|b| set_word(b, 32 + 4 * 6, 33)),
        (
            56,
            CsiErrorKind::Count {
                what: "uniform_slots",
                value: 33,
                max: 32
            }
        )
    );
    // A stored limit below what the shader uses: the counts are checked against it.
    assert!(matches!(
        edit(&|b| set_word(b, 32, 3)),
        (
            12,
            CsiErrorKind::Count {
                what: "instruction count",
                max: 3,
                ..
            }
        )
    ));
    assert!(matches!(
        edit(&|b| set_word(b, 12, 384)),
        (
            76,
            CsiErrorKind::Truncated {
                what: "the instruction records",
                ..
            }
        )
    ));
    assert!(matches!(
        edit(&|b| b[m] = 200),
        (
            _,
            CsiErrorKind::Truncated { .. } | CsiErrorKind::NameUtf8 { .. }
        )
    ));
    assert_eq!(
        edit(&|b| b[m + 1] = 0xff),
        (
            m + 1,
            CsiErrorKind::NameUtf8 {
                what: "shader name"
            }
        )
    );
    assert_eq!(
        edit(&|b| b[flags] |= 0x80),
        (
            flags,
            CsiErrorKind::Code {
                what: "flags",
                value: 0x82
            }
        )
    );
    assert_eq!(
        edit(&|b| b[sym0] = 6),
        (
            sym0,
            CsiErrorKind::Code {
                what: "symbol kind",
                value: 6
            }
        )
    );
    assert_eq!(
        edit(&|b| b[sym0 + 1] = 18),
        (
            sym0 + 1,
            CsiErrorKind::Code {
                what: "symbol type",
                value: 18
            }
        )
    );
    assert_eq!(
        edit(&|b| b[sym0 + 6] = 0),
        (
            sym0 + 6,
            CsiErrorKind::NameLength {
                what: "symbol name",
                len: 0,
                min: 1,
                max: MAX_SYMBOL_NAME
            }
        )
    );
    let colour = good.len() - 16;
    assert_eq!(
        edit(&|b| b[colour + 2] = 9),
        (
            colour + 2,
            CsiErrorKind::Code {
                what: "colour output slot",
                value: 9
            }
        )
    );
    assert_eq!(
        edit(&|b| b.extend_from_slice(&[0, 0, 0])),
        (good.len(), CsiErrorKind::Trailing(3))
    );
    // Interface rules point at the symbol: vUv's slot past var_hi, a duplicate name.
    assert!(matches!(
        edit(&|b| b[sym0 + 2] = 5),
        (o, CsiErrorKind::Interface(InterfaceRule::Slot { .. })) if o == sym0
    ));
    let u_cut = symbol_offsets(&s)[5];
    assert_eq!(&good[u_cut + 7..u_cut + 11], b"uCut");
    assert!(matches!(
        edit(&|b| b[u_cut + 7..u_cut + 11].copy_from_slice(b"uTex")),
        (o, CsiErrorKind::Interface(InterfaceRule::DuplicateName(n))) if o == u_cut && n == "uTex"
    ));
    assert!(matches!(
        edit(&|b| b[marks] = 8),
        (o, CsiErrorKind::Interface(InterfaceRule::Mark { .. })) if o == marks
    ));
    // Unnamed with symbols listed.
    assert!(matches!(
        edit(&|b| b[flags] = 0),
        (
            _,
            CsiErrorKind::Interface(InterfaceRule::SymbolsWithoutNames)
        )
    ));
    // The verifier, at the record: SAMPLE's slot above samp_hi.
    let sample = s.ir.iter().position(|i| i.op == Op::Sample.code()).unwrap();
    let at = v2::IR_START + 16 * sample;
    assert!(matches!(
        edit(&|b| b[at + 12] = 3),
        (o, CsiErrorKind::Verify(e)) if o == at && e.rule == VerifyRule::Sampler
    ));
}

#[test]
fn huge_counts_are_rejected_before_allocation() {
    // v1 and v2 headers claiming u32::MAX records.
    for blob in [v1(&vertex_shader()), v2(&vertex_shader())] {
        let mut b = blob;
        set_word(&mut b, 12, u32::MAX);
        if word(&b, 4) == 2 {
            reseal_v2(&mut b);
        }
        let e = load_csi(&b, &Limits::LARGE).unwrap_err();
        assert!(
            matches!(e.kind, CsiErrorKind::Count { value, .. } if value == u64::from(u32::MAX))
        );
    }
    // 65535 symbols: above the bound the limits give.
    let s = vertex_shader();
    let mut b = v2(&s);
    let nsym = meta_start(&s) + 1 + s.name.len() + 9;
    b[nsym..nsym + 2].copy_from_slice(&u16::MAX.to_le_bytes());
    reseal_v2(&mut b);
    assert!(matches!(
        kind_at(&b),
        (o, CsiErrorKind::Count { what: "symbol count", .. }) if o == nsym
    ));
    // Within the bound but not backed by bytes.
    b[nsym..nsym + 2].copy_from_slice(&40u16.to_le_bytes());
    reseal_v2(&mut b);
    assert!(matches!(
        kind_at(&b),
        (o, CsiErrorKind::Truncated { what: "the interface symbols", .. }) if o == nsym + 2
    ));
}

#[test]
fn the_loaders_own_limits_must_be_valid() {
    let bad = Limits {
        varyings: 40,
        ..Limits::SEED
    };
    assert_eq!(
        load_csi(&v2(&vertex_shader()), &bad).unwrap_err(),
        CsiError::new(0, CsiErrorKind::LoaderLimits("interface"))
    );
}

// ------------------------------------------------------------------ save errors

#[test]
fn save_refuses_what_the_loader_would_reject() {
    let mut s = vertex_shader();
    s.ir.push(Ir::new(Op::Discard, Type::None));
    assert!(matches!(save_csi(&s), Err(SaveError::Verify(_))));
    assert!(matches!(save_csi_v1(&s), Err(SaveError::Verify(_))));

    let mut s = vertex_shader();
    s.name = "x".repeat(MAX_SHADER_NAME + 1);
    assert!(matches!(
        save_csi(&s),
        Err(SaveError::NameLength {
            what: "shader name",
            ..
        })
    ));
    assert!(save_csi_v1(&s).is_ok());

    let mut s = vertex_shader();
    s.interface.symbols[0].name = "a".repeat(MAX_SYMBOL_NAME + 1);
    assert!(matches!(
        save_csi(&s),
        Err(SaveError::NameLength { len: 256, .. })
    ));
    s.interface.symbols[0].name.clear();
    assert!(matches!(
        save_csi(&s),
        Err(SaveError::NameLength { len: 0, .. })
    ));

    let mut s = vertex_shader();
    s.interface.uni_hi = 5; // uK[2] ends at slot 6
    assert!(matches!(
        save_csi(&s),
        Err(SaveError::Interface(InterfaceRule::Slot { .. }))
    ));

    let mut s = vertex_shader();
    s.limits.source_bytes = usize::MAX;
    if usize::BITS > 32 {
        assert!(matches!(
            save_csi(&s),
            Err(SaveError::Limit {
                field: "source_bytes",
                ..
            })
        ));
    }
}

// ------------------------------------------------------------------ properties

fn blobs() -> Vec<Vec<u8>> {
    let [vs, fs] = fixtures();
    vec![v1(&vs), v1(&fs), v2(&vs), v2(&fs)]
}

/// Load under both profiles; anything accepted must verify and re-save to a blob that
/// loads to the same shader (for v2: to the same bytes).
fn check_any(bytes: &[u8]) {
    for limits in [Limits::SEED, Limits::LARGE] {
        if let Ok(s) = load_csi(bytes, &limits) {
            crate::ir::verify(&s).expect("loaded shaders verify");
            let again = save_csi(&s).expect("loaded shaders save");
            if word(bytes, 4) == 2 {
                assert_eq!(again, bytes);
            }
            let back = load_csi(&again, &limits).expect("re-saved blobs load");
            assert_eq!(v2(&back), again);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        check_any(&bytes);
    }

    #[test]
    fn random_bodies_behind_a_valid_header_never_panic(
        version in 1u32..=2,
        words in proptest::collection::vec(any::<u32>(), 6),
        body in proptest::collection::vec(any::<u8>(), 0..512),
        small in any::<bool>(),
    ) {
        let mut b = Vec::new();
        for w in [MAGIC, version] {
            b.extend_from_slice(&w.to_le_bytes());
        }
        for (i, w) in words.iter().enumerate() {
            // Often keep the counts small so the body is actually parsed.
            let w = if small && (1..=3).contains(&i) { w % 40 } else { *w };
            b.extend_from_slice(&w.to_le_bytes());
        }
        let mut body = body;
        if small && version == 1 {
            // Make the exact-length check pass so the records reach the verifier.
            body.resize(16 * (words[1] % 40) as usize + 4 * (words[2] % 40) as usize, 0);
        }
        b.extend_from_slice(&body);
        if version == 2 { reseal_v2(&mut b) } else { reseal_v1(&mut b) }
        check_any(&b);
    }

    #[test]
    fn truncated_blobs_are_rejected(which in 0usize..4, cut in 0usize..4096) {
        let blob = &blobs()[which];
        let cut = cut % blob.len();
        prop_assert!(load(&blob[..cut]).is_err());
        let mut b = blob[..cut].to_vec();
        if cut >= 32 && which >= 2 {
            reseal_v2(&mut b);
            prop_assert!(load(&b).is_err());
        }
    }

    #[test]
    fn mutated_blobs_never_panic(
        which in 0usize..4,
        edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6),
        reseal in any::<bool>(),
    ) {
        let mut b = blobs()[which].clone();
        for (at, v) in &edits {
            let at = at % b.len();
            b[at] = *v;
        }
        if reseal && word(&b, 4) == 2 {
            reseal_v2(&mut b);
        } else if reseal {
            reseal_v1(&mut b);
        }
        check_any(&b);
    }
}

/// The flags byte of a v2 blob (after the records, immediates, name and marks).
fn v2_flags(bytes: &[u8], s: &Shader) -> u8 {
    let at = v2::IR_START + 16 * s.ir.len() + 4 * s.imm.len() + 1 + s.name.len() + 8;
    bytes[at]
}

#[test]
fn the_profile_is_flag_bit_3_and_a_seed_shader_keeps_its_bytes() {
    let seed = vertex_shader();
    let seed_bytes = v2(&seed);
    assert_eq!(v2_flags(&seed_bytes, &seed) & 8, 0);
    let mut ext = seed.clone();
    ext.limits.profile = crate::Profile::Extended;
    let ext_bytes = v2(&ext);
    assert_eq!(v2_flags(&ext_bytes, &ext) & 8, 8);
    // Only the flag and the CRC differ.
    let differing: Vec<usize> = (0..seed_bytes.len())
        .filter(|&i| seed_bytes[i] != ext_bytes[i])
        .filter(|&i| !(24..28).contains(&i))
        .collect();
    assert_eq!(differing.len(), 1);
    assert_eq!(load_csi(&ext_bytes, &Limits::EXTENDED).unwrap(), ext);
    // A seed-profile loader refuses it, at the flags byte.
    let e = load(&ext_bytes).unwrap_err();
    assert_eq!(e.kind, CsiErrorKind::Profile);
    assert_eq!(e.offset, differing[0]);
    assert_eq!(
        e.kind.to_string(),
        "the shader needs the extended profile; the loader accepts the seed profile only"
    );
    // A seed shader loads under either.
    assert_eq!(load_csi(&seed_bytes, &Limits::EXTENDED).unwrap(), seed);
    // v1 stores no profile: an extended shader of seed instructions saves as v1 and
    // loads with the loader's profile.
    let back = load_csi(&v1(&ext), &Limits::EXTENDED).unwrap();
    assert_eq!(back.ir, ext.ir);
    assert_eq!(back.limits, Limits::EXTENDED);
}

#[test]
fn read_header_reports_the_stored_words_and_checksum_status() {
    let fs = fragment_shader();
    for (blob, version) in [(v1(&fs), 1), (v2(&fs), 2)] {
        let h = read_header(&blob).unwrap();
        assert_eq!(h.version, version);
        assert_eq!(h.stage, 1);
        assert_eq!(h.nir as usize, fs.ir.len());
        assert_eq!(h.nimm as usize, fs.imm.len());
        assert_eq!(u32::from(fs.ntmp), h.ntmp);
        assert_eq!(h.checksum_stored, word(&blob, 24));
        assert!(h.checksum_ok(), "v{version}");
        let expected_word7 = if version == 2 { blob.len() as u32 } else { 0 };
        assert_eq!(h.word7, expected_word7);
    }
    // A flipped record byte: the sums differ, and the header still reads.
    let mut bad = v1(&fs);
    bad[HEADER_LEN + 5] ^= 0x40;
    let h = read_header(&bad).unwrap();
    assert!(!h.checksum_ok());
    assert_eq!(
        h.checksum_computed,
        Some(h.checksum_stored.wrapping_add(0x40))
    );
    // A v1 header announcing more records than the blob holds: no sum can be taken.
    let mut short = v1(&fs);
    set_word(&mut short, 12, 1000);
    assert_eq!(read_header(&short).unwrap().checksum_computed, None);
    set_word(&mut short, 12, u32::MAX);
    assert_eq!(read_header(&short).unwrap().checksum_computed, None);
    // The common checks are the loader's.
    assert_eq!(
        read_header(&bad[..31]).unwrap_err(),
        load(&bad[..31]).unwrap_err()
    );
    let mut magic = v2(&fs);
    magic[0] = b'X';
    assert!(matches!(
        read_header(&magic).unwrap_err().kind,
        CsiErrorKind::Magic { .. }
    ));
}

/// An extended-profile shader with MIN or MAX cannot be saved as CSI v1: a v1 loader
/// gives it the seed profile, whose MIN and MAX treat a NaN operand differently
/// (docs/csir.md "MIN and MAX"). The seed profile's same shader saves, and v2 keeps the
/// profile.
#[test]
fn v1_refuses_an_extended_min_or_max() {
    let src = "#version 330 core\nuniform vec4 u;\nout vec4 c;\n\
               void main() { c = vec4(1.0) + max(u, vec4(0.5)); }\n";
    let compile = |limits: &Limits| {
        crate::compile(src, "m.frag", crate::Stage::Fragment, limits).expect("compiles")
    };
    let extended = compile(&Limits::EXTENDED);
    let err = save_csi_v1(&extended).unwrap_err();
    assert!(
        matches!(
            err,
            SaveError::V1ProfileMeaning {
                mnemonic: "max",
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("save as CSI v2"), "{err}");
    let back = load_csi(&save_csi(&extended).unwrap(), &Limits::EXTENDED).unwrap();
    assert_eq!(back.limits.profile, crate::Profile::Extended);
    assert!(save_csi_v1(&compile(&Limits::SEED)).is_ok());
}
