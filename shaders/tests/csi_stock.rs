//! CSI with real shaders: every stock and reference-scene shader, compiled from
//! source, round-trips through CSI v2 to an equal `Shader` (same TGSI, same linked
//! program, same outputs), and through CSI v1 to a shader that verifies, emits TGSI
//! and runs to the same outputs by slot, but cannot be linked by name.

use csir::csi::v1::V1_NAME;
use csir::exec::{Inputs, Machine, NearestClampTexture, Outputs};
use csir::{
    Limits, LinkError, Program, Shader, Stage, compile, emit_tgsi, load_csi, save_csi, save_csi_v1,
};
use std::path::{Path, PathBuf};

/// Every `.vert` / `.frag` in `glsl/` and the reference scenes' shaders, sorted.
fn sources() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = [root.join("glsl"), root.join("../reference-images/shaders")]
        .iter()
        .flat_map(|dir| std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{dir:?}: {e}")))
        .map(|entry| entry.unwrap().path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("vert" | "frag")
            )
        })
        .collect();
    files.sort();
    files
}

fn compile_path(path: &Path) -> Shader {
    let name = path.file_name().unwrap().to_str().unwrap();
    let stage = if name.ends_with(".frag") {
        Stage::Fragment
    } else {
        Stage::Vertex
    };
    let source = std::fs::read_to_string(path).unwrap();
    compile(&source, name, stage, &Limits::default()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn v2_round_trip(s: &Shader) -> Shader {
    let bytes = save_csi(s).unwrap_or_else(|e| panic!("{}: {e}", s.name));
    let back = load_csi(&bytes, &Limits::default()).unwrap_or_else(|e| panic!("{}: {e}", s.name));
    assert_eq!(save_csi(&back).unwrap(), bytes, "{}: not canonical", s.name);
    back
}

fn v1_round_trip(s: &Shader) -> Shader {
    let bytes = save_csi_v1(s).unwrap_or_else(|e| panic!("{}: {e}", s.name));
    load_csi(&bytes, &Limits::default()).unwrap_or_else(|e| panic!("{}: {e}", s.name))
}

#[test]
fn every_compiled_shader_round_trips_through_v2() {
    let files = sources();
    assert!(files.len() >= 30, "{files:?}");
    for path in files {
        let s = compile_path(&path);
        let back = v2_round_trip(&s);
        assert_eq!(back, s, "{}", s.name);
        assert_eq!(
            emit_tgsi(&back, None, None).unwrap(),
            emit_tgsi(&s, None, None).unwrap()
        );
    }
}

/// v1 keeps the IR and rebuilds the high-water marks from it: for compiled shaders they
/// equal the compiled ones, except that a declared sampler never sampled leaves no
/// trace (the reconstructed `samp_hi` is then lower).
#[test]
fn every_compiled_shader_loads_from_v1_with_its_marks_rebuilt() {
    for path in sources() {
        let s = compile_path(&path);
        let back = v1_round_trip(&s);
        assert_eq!(back.name, V1_NAME);
        assert_eq!(
            (back.stage, &back.ir, &back.imm, back.ntmp),
            (s.stage, &s.ir, &s.imm, s.ntmp),
            "{}",
            s.name
        );
        let (i, o) = (&back.interface, &s.interface);
        assert_eq!(
            (i.attr_hi, i.var_hi, i.uni_hi, i.writes_position),
            (o.attr_hi, o.var_hi, o.uni_hi, o.writes_position),
            "{}",
            s.name
        );
        assert!(i.samp_hi <= o.samp_hi, "{}", s.name);
        assert!(i.symbols.is_empty() && !i.named);
        emit_tgsi(&back, None, None).unwrap_or_else(|e| panic!("{}: {e}", s.name));
    }
}

/// A small deterministic generator for input values.
struct Lcg(u32);

impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self.0.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (self.0 >> 8) as f32 / (1u32 << 24) as f32 * 4.0 - 2.0
    }

    fn vec4s(&mut self, n: usize) -> Vec<[f32; 4]> {
        (0..n)
            .map(|_| [self.next(), self.next(), self.next(), self.next()])
            .collect()
    }
}

fn run(shader: &Shader, inputs: &Inputs<'_>) -> (Vec<u32>, bool) {
    let mut machine = Machine::new(shader).unwrap();
    let mut out = Outputs::default();
    machine.run(inputs, &mut out).unwrap();
    let bits = [out.position, out.color]
        .iter()
        .chain(out.varyings.iter())
        .flatten()
        .map(|f| f.to_bits())
        .collect();
    (bits, out.discarded)
}

/// lit.vert + lit.frag (the seed's recommended case compiled from GLSL: attribute
/// locations, several uniforms, a sampler, varyings): the v2 program equals the
/// compiled one, v1 shaders refuse to link, and all three run to the same bits.
#[test]
fn lit_program_links_and_runs_identically_after_loading() {
    let glsl = Path::new(env!("CARGO_MANIFEST_DIR")).join("glsl");
    let vs = compile_path(&glsl.join("lit.vert"));
    let fs = compile_path(&glsl.join("lit.frag"));
    let program = Program::link(vs.clone(), fs.clone()).unwrap();
    let loaded = Program::link(v2_round_trip(&vs), v2_round_trip(&fs)).unwrap();
    assert_eq!(loaded, program);
    let (v1_vs, v1_fs) = (v1_round_trip(&vs), v1_round_trip(&fs));
    assert_eq!(
        Program::link(vs.clone(), v1_fs.clone()).unwrap_err(),
        LinkError::NoInterfaceNames(Stage::Fragment)
    );

    let textures = vec![
        NearestClampTexture::new(
            2,
            2,
            &[
                40, 80, 120, 255, 200, 10, 30, 255, 0, 255, 0, 255, 90, 90, 90, 255,
            ],
        )
        .unwrap(),
    ];
    let use_texture = program
        .uniform("uUseTexture")
        .unwrap()
        .fragment_slot
        .unwrap() as usize;
    let mut rng = Lcg(7);
    for case in 0..16 {
        let uniforms = rng.vec4s(32);
        let attributes = rng.vec4s(8);
        let vin = Inputs {
            uniforms: &uniforms,
            attributes: &attributes,
            ..Inputs::default()
        };
        let want = run(&program.vertex, &vin);
        assert_eq!(run(&loaded.vertex, &vin), want, "case {case}");
        assert_eq!(run(&v1_vs, &vin), want, "case {case}");

        let mut uniforms = rng.vec4s(32);
        uniforms[use_texture][0] = (case % 2) as f32; // both ways
        let varyings = rng.vec4s(8);
        let fin = Inputs {
            uniforms: &uniforms,
            varyings: &varyings,
            var_remap: &program.var_remap,
            frag_coord: [rng.next(), rng.next(), 0.5, 1.0],
            samplers: &textures,
            ..Inputs::default()
        };
        let want = run(&program.fragment, &fin);
        assert_eq!(run(&loaded.fragment, &fin), want, "case {case}");
        assert_eq!(run(&v1_fs, &fin), want, "case {case}");
    }
}
