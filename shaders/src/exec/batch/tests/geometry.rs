//! The batch interpreter's geometry stage against the scalar one: random verified
//! geometry programs (the fragment generator's programs, with LOAD_VTX, LOAD_PRIMID,
//! EMIT and ENDPRIM put in, many of them inside IFs on per-lane conditions so that
//! lanes emit different numbers of vertices and strips) give, for every input
//! primitive, the same emitted vertices (bits), strips and strides.

use super::*;
use crate::exec::{Emitted, PrimitiveInput};
use crate::ir::{GeometryLayout, InputPrimitive, OutputPrimitive};

/// [`program`] made a geometry shader of `layout`: LOAD_FCOORD becomes LOAD_PRIMID,
/// LOAD_VAR of slot `s` a LOAD_VTX of slot `s − 2` (`gl_PointSize`, `gl_Position`,
/// then varyings) of a vertex that cycles through the input primitive's; DISCARD
/// (mostly inside IFs) becomes EMIT or ENDPRIM, LOAD_FACE an EMIT under an IF on
/// the inputs, the derivatives ENDPRIM,
/// and every STORE_COLOR a STORE_VAR, a STORE_POS and an EMIT.
fn geometry_program(choices: &[(u8, u16, u16, u16)], last: u16, layout: GeometryLayout) -> Shader {
    let mut shader = program(choices, last);
    shader.stage = Stage::Geometry;
    let vertices = layout.input.vertices() as i16;
    let mut loads = 0i16;
    let mut stores = 0i16;
    let mut ir = Vec::new();
    for mut r in std::mem::take(&mut shader.ir) {
        match r.opcode() {
            Some(Op::LoadFcoord) => {
                r = Ir::new(Op::LoadPrimId, Type::Int).dst(r.dst).ncomp(1);
            }
            Some(Op::LoadVar) => {
                loads += 1;
                r.op = Op::LoadVtx.code();
                r.aux2 = loads % vertices;
                r.aux -= 2;
            }
            Some(Op::LoadFace) => {
                // IF (gl_in[v].gl_Position.x < first varying's x) EMIT: a per-lane
                // condition on the inputs, true in about half the lanes.
                loads += 1;
                let (d, e) = (r.dst, (r.dst + 1) % NT as i16);
                let load = |dst, slot| {
                    Ir::new(Op::LoadVtx, Type::Vec4)
                        .dst(dst)
                        .aux(slot)
                        .aux2(loads % vertices)
                        .ncomp(4)
                };
                ir.push(load(d, -1));
                ir.push(load(e, 0));
                let cmp = Ir::new(Op::Cmp, Type::Bool).dst(d).a(d).b(e).ncomp(1);
                ir.push(cmp.aux(CmpCode::Lt.code()));
                ir.push(Ir::new(Op::If, Type::None).a(d));
                ir.push(Ir::new(Op::Emit, Type::None));
                r = Ir::new(Op::EndIf, Type::None);
            }
            Some(Op::Ddx | Op::Ddy) => r = Ir::new(Op::EndPrim, Type::None),
            Some(Op::Discard) => {
                stores += 1;
                let op = if stores % 3 == 0 {
                    Op::EndPrim
                } else {
                    Op::Emit
                };
                r = Ir::new(op, Type::None);
            }
            Some(Op::StoreColor) => {
                stores += 1;
                ir.push(
                    Ir::new(Op::StoreVar, Type::Vec4)
                        .a((r.a + 1) % NT as i16)
                        .aux(stores % 4),
                );
                ir.push(Ir::new(Op::StorePos, Type::Vec4).a(r.a));
                r = Ir::new(Op::Emit, Type::None);
            }
            _ => {}
        }
        ir.push(r);
    }
    shader.ir = ir;
    shader.interface.var_hi = 3;
    shader.interface.writes_position = true;
    shader.interface.geometry = Some(layout);
    shader
}

/// An input primitive's data: vertex positions, varying slots, primitive id.
type Primitive = (Vec<[f32; 4]>, Vec<[f32; 4]>, u32);

/// Emitted vertices compared: position bits, varying bits, strips, stride.
type EmittedBits = (
    Vec<[u32; 4]>,
    Vec<[u32; 4]>,
    Vec<std::ops::Range<u32>>,
    usize,
);

/// One input primitive per lane: `vertices` positions and `stride` varying slots
/// per vertex from `values`, and a primitive id (edge patterns included).
fn primitives(values: &mut Values, len: usize, vertices: usize, stride: usize) -> Vec<Primitive> {
    (0..len)
        .map(|_| {
            let mut vec4 = || std::array::from_fn(|_| values.value());
            let positions = (0..vertices).map(|_| vec4()).collect();
            let varyings = (0..vertices * stride).map(|_| vec4()).collect();
            let id = match values.next() % 4 {
                0 => u32::MAX,
                1 => 0x7fc0_0001,
                _ => (values.next() % 1000) as u32,
            };
            (positions, varyings, id)
        })
        .collect()
}

/// Emitted vertices with NaNs made canonical ([`bits`]).
fn canonical(e: &Emitted) -> EmittedBits {
    (
        e.positions.iter().map(|p| p.map(bits)).collect(),
        e.varyings.iter().map(|v| v.map(bits)).collect(),
        e.strips.clone(),
        e.stride,
    )
}

/// Run geometry shader `shader` on every primitive through the scalar interpreter
/// and through [`BoundPlan::run_geometry`] (twice: stale registers and emitted lists
/// the second time); assert the same emitted vertices per primitive. Returns the
/// vertex counts emitted per primitive.
fn assert_same_geometry(
    shader: &Shader,
    uniforms: &[[f32; 4]],
    prims: &[Primitive],
    stride: usize,
) -> Vec<usize> {
    let samplers = TestSamplers::new();
    let primitive_inputs: Vec<PrimitiveInput<'_>> = prims
        .iter()
        .map(|p| PrimitiveInput {
            positions: &p.0,
            varyings: &p.1,
            stride,
            primitive_id: p.2,
        })
        .collect();
    let mut machine = Machine::new(shader).expect("verified");
    let inputs = Inputs {
        uniforms,
        samplers: &samplers,
        ..Inputs::default()
    };
    let mut want = Vec::new();
    for p in &primitive_inputs {
        let mut out = Outputs::default();
        let mut emitted = Emitted::default();
        machine
            .run_geometry(&inputs, p, &mut out, &mut emitted)
            .expect("runs");
        want.push(emitted);
    }
    let draw = Plan::new_geometry(shader)
        .expect("plan")
        .bind(uniforms, &[]);
    let mut regs = draw.registers();
    let mut lanes = GeometryLanes::default();
    let mut got = vec![Emitted::new(9); prims.len()];
    for pass in 0..2 {
        draw.run_geometry(
            &mut regs,
            &mut lanes,
            &primitive_inputs,
            &samplers,
            &mut got,
        );
        for (lane, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(
                canonical(g),
                canonical(w),
                "lane {lane} of {}, pass {pass}",
                prims.len()
            );
        }
    }
    want.iter().map(Emitted::len).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn random_geometry_programs_match_the_scalar_interpreter(
        choices in prop::collection::vec((any::<u8>(), any::<u16>(), any::<u16>(), any::<u16>()), 0..80),
        last in any::<u16>(),
        len in 1usize..=MAX_LANES,
        seed in any::<u64>(),
        input in 0usize..5,
        output in 0usize..3,
        max_vertices in 0u16..12,
        stride in 0usize..5,
    ) {
        let layout = GeometryLayout {
            input: InputPrimitive::ALL[input],
            output: OutputPrimitive::ALL[output],
            max_vertices,
        };
        let shader = geometry_program(&choices, last, layout);
        let mut values = Values(seed | 1);
        let uniforms: Vec<[f32; 4]> =
            (0..12).map(|_| std::array::from_fn(|_| values.value())).collect();
        let prims = primitives(&mut values, len, layout.input.vertices(), stride);
        assert_same_geometry(&shader, &uniforms, &prims, stride);
    }
}

/// A program whose lanes emit different numbers of vertices: lane `i` emits one
/// vertex per input vertex whose x is positive, and `EndPrimitive` after the second;
/// so the test above cannot pass by every lane doing the same.
#[test]
fn lanes_emit_divergent_counts_and_strips() {
    let layout = GeometryLayout {
        input: InputPrimitive::Triangles,
        output: OutputPrimitive::LineStrip,
        max_vertices: 8,
    };
    let mut b = IrBuilder::new(Limits::EXTENDED);
    b.alloc_temps(3).unwrap();
    for v in 0..3 {
        for ir in [
            Ir::new(Op::LoadVtx, Type::Vec4)
                .dst(0)
                .aux(-1)
                .aux2(v)
                .ncomp(4),
            Ir::new(Op::LoadVtx, Type::Vec4)
                .dst(1)
                .aux(0)
                .aux2(v)
                .ncomp(4),
            Ir::new(Op::LoadPrimId, Type::Int).dst(2).ncomp(1),
            Ir::new(Op::If, Type::None).a(0),
            Ir::new(Op::StorePos, Type::Vec4).a(0),
            Ir::new(Op::StoreVar, Type::Vec4).a(1).aux(0),
            Ir::new(Op::StoreVar, Type::Vec4).a(2).aux(1),
            Ir::new(Op::Emit, Type::None),
            Ir::new(Op::EndIf, Type::None),
        ] {
            b.emit(ir).unwrap();
        }
        if v == 1 {
            b.emit(Ir::new(Op::EndPrim, Type::None)).unwrap();
        }
    }
    let (ir, imm, ntmp) = b.finish();
    let shader = Shader {
        name: "divergent".into(),
        stage: Stage::Geometry,
        limits: Limits::EXTENDED,
        ir,
        imm,
        ntmp,
        interface: Interface {
            var_hi: 1,
            writes_position: true,
            geometry: Some(layout),
            ..Interface::default()
        },
    };
    // Lane i: vertex v has x = 1 when bit v of i is set, else 0.
    let prims: Vec<_> = (0..11u32)
        .map(|i| {
            let positions = (0..3)
                .map(|v| [f32::from(u8::from(i >> v & 1 != 0)), v as f32, 0.0, 1.0])
                .collect();
            let varyings = (0..3).map(|v| [i as f32, v as f32, 0.5, 0.25]).collect();
            (positions, varyings, 100 + i)
        })
        .collect();
    let counts = assert_same_geometry(&shader, &[], &prims, 1);
    // Emitted and kept: a strip of vertices 0..2 needs both (2 vertices); the strip
    // after ENDPRIM has only vertex 2, too short for a line, so it is dropped.
    let expected: Vec<usize> = (0..11u32).map(|i| if i & 3 == 3 { 2 } else { 0 }).collect();
    assert_eq!(counts, expected);
}
