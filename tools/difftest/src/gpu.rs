//! The GPU oracles: a generated fragment shader drawn by Mesa's llvmpipe through the
//! project's `--backend gl` (`csir_render::gl`, EGL in process) and, as TGSI from
//! our compiler, by virglrenderer through the project's `--backend virgl`
//! (`csir_render::virgl`, a private `virgl_test_server`), compared with the scalar
//! interpreter within a tolerance (docs/robustness.md, "The GPU oracles").
//!
//! **Exact read-back.** Both back ends draw into an RGBA8 colour buffer (virgl's only
//! surface), so the program is wrapped ([`wrap`]): its `main` becomes `dtw_main`, its
//! output `c` a global, and a new `main` writes the 32 bits of one component of `c`
//! as four bytes (`floatBitsToUint`, each byte `/ 255.0`, which an UNORM8 store
//! rounds back to the byte exactly). Each program has a 20 × 4 pixel block: columns
//! `4k..4k+4` hold component `k` of the 16 fragments, columns 16..20 a marker
//! (all bytes 255) that says the fragment was not discarded.
//!
//! **The same inputs.** The wrapper feeds the program the scalar oracle's inputs, not
//! the rasterizer's: `gl_FragCoord` is replaced by a global set to
//! [`oracle::frag_coord`] of the fragment the pixel stands for, and the varying by
//! [`oracle::varying`] of that fragment (both exact: multiples of 1/8 and halves).
//! Uniforms get [`oracle::uniform_slots`]' values.
//!
//! **Tolerance.** GLSL 1.30 §4.1.10 leaves the precision of most built-ins to the
//! implementation, and llvmpipe contracts `a * b + c` into FMA and evaluates
//! `exp2`, `log2`, `sin`, `cos`, `pow` with its own polynomials, so its bits differ
//! from the interpreters'. A per-operation ULP budget does not survive composition
//! through `floor`, comparisons, `int()` or `step`, so the budget is measured per
//! program and output instead ([`Tolerance::measure`]): the scalar interpreter runs
//! the program [`PERTURBATIONS`] more times with the result of every call of an
//! [`INEXACT`] built-in scaled by `1 ± 2^-18` (about 32 ULP; signs alternating by
//! call site, three sign patterns), and
//!
//! - an output that moves by more than `2^-8 · max(1, |x|)` (a jump: the program is
//!   near a discontinuity there), or whose fragment's discard changes, or that is not
//!   finite, is **not compared** (counted as unstable);
//! - every other output must agree within
//!   `2^-12 · max(1, |x|) + 64 · (largest move)`: 2^-12 covers llvmpipe's documented
//!   precisions (about 2^-21 absolute for `sin`/`cos` and a few ULP for the rest)
//!   carried through the program's conditioning, and `64 ·` the move scales the
//!   measured conditioning from a 2^-18 input error up to a 2^-12 intermediate one.

use crate::oracle::{self, FRAGMENTS, Inputs4, Run};
use csir::ir::SymbolKind;
use csir::{Shader, Type};
use csir_render::scene::{Draw, DrawState, Scene};

/// Outputs of one program: 16 fragments × 4 components.
pub const FRAGMENTS_OUTPUTS: usize = FRAGMENTS * 4;

/// Pixels per program block: 5 groups of 4 columns (components x, y, z, w, marker).
pub const BLOCK_W: usize = 20;
/// Rows per program block (the 4 × 4 fragments).
pub const BLOCK_H: usize = 4;
/// Program blocks per row of a frame.
pub const COLUMNS: usize = 16;
/// Perturbed runs of the scalar interpreter that measure a program's conditioning.
pub const PERTURBATIONS: usize = 3;
/// Relative size of a call's perturbation (2^-18).
pub const PERTURB: f32 = 1.0 / 262144.0;
/// Relative move beyond which an output is a jump, not compared (2^-8).
pub const JUMP: f32 = 1.0 / 256.0;
/// The fixed part of the budget, relative to `max(1, |x|)` (2^-12).
pub const BASE: f32 = 1.0 / 4096.0;
/// How much of the measured move the budget allows.
pub const MOVE_FACTOR: f32 = 64.0;

/// Which back end draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// `--backend gl`: the GLSL source on the system's driver (llvmpipe).
    Gl,
    /// `--backend virgl`: our TGSI on virglrenderer.
    Virgl,
}

impl Backend {
    /// The oracle's name in findings.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Gl => "gl",
            Backend::Virgl => "virgl",
        }
    }
}

/// The vertex shader of every draw: a quad over the viewport.
pub const VERTEX: &str = "#version 330 core\nlayout(location = 0) in vec2 dtw_pos;\n\
void main() { gl_Position = vec4(dtw_pos, 0.0, 1.0); }\n";

/// The wrapped fragment shader for `src` (a generated program: `in vec4 vv;`,
/// `out vec4 c;`, `void main()`), with the varying in slot `slot`; `None` when `src`
/// does not have that shape.
pub fn wrap(src: &str, slot: usize) -> Option<String> {
    let n_main = src.matches("void main()").count();
    if n_main != 1 || !src.contains("\nout vec4 c;\n") {
        return None;
    }
    let mut s = src
        .replacen(
            "\nout vec4 c;\n",
            "\nvec4 c;\nvec4 dtw_fc;\nout vec4 dtw_out;\n",
            1,
        )
        .replace("gl_FragCoord", "dtw_fc")
        .replacen("void main()", "void dtw_main()", 1);
    if s.contains("\nin vec4 vv;\n") {
        s = s.replacen("\nin vec4 vv;\n", "\nvec4 vv;\n", 1);
    }
    s.push_str(&format!(
        "void main() {{\n\
         \x20   ivec2 dtw_p = ivec2(gl_FragCoord.xy) % ivec2({BLOCK_W}, {BLOCK_H});\n\
         \x20   int dtw_i = dtw_p.x % 4 + 4 * dtw_p.y;\n\
         \x20   int dtw_k = dtw_p.x / 4;\n\
         \x20   dtw_fc = vec4(2.5 + float(dtw_i % 4), 3.5 + float(dtw_i / 4), 0.5, 1.0);\n\
         \x20   vv = vec4((ivec4(dtw_i * 3 + {s5}) + ivec4(0, 7, 14, 21)) % 17 - 8) / 8.0;\n\
         \x20   dtw_main();\n\
         \x20   if (dtw_k == 4) {{ dtw_out = vec4(1.0); return; }}\n\
         \x20   uint dtw_b = floatBitsToUint(c[dtw_k]);\n\
         \x20   dtw_out = vec4(uvec4(dtw_b, dtw_b >> 8, dtw_b >> 16, dtw_b >> 24) & 255u) / 255.0;\n\
         }}\n",
        s5 = slot * 5
    ));
    Some(s)
}

/// One program to draw: its source, its inputs and its scalar run with the budget.
#[derive(Clone, Debug)]
pub struct Case {
    /// Where it came from (seed, variant).
    pub origin: String,
    /// The program's GLSL (unwrapped).
    pub src: String,
    /// Its uniform values.
    pub inputs: Inputs4,
    /// The wrapped source the back ends draw.
    pub wrapped: String,
    /// The uniforms as the scene gives them: `(name, floats, ints)`.
    pub uniforms: Vec<(String, Vec<f32>, Option<Vec<i64>>)>,
    /// The scalar interpreter's run (the reference).
    pub reference: Run,
    /// Per fragment and component, the allowed difference (`None`: not compared).
    pub budget: Tolerance,
}

/// Per fragment and component: the allowed absolute difference, or `None` when the
/// output is unstable (not compared); per fragment, whether the discard is stable.
#[derive(Clone, Debug, PartialEq)]
pub struct Tolerance {
    /// `[fragment][component]`.
    pub allowed: Vec<[Option<f32>; 4]>,
    /// Whether the fragment's discard is the same in every perturbed run.
    pub discard_stable: Vec<bool>,
}

/// Built-ins whose results llvmpipe may round differently from the interpreters
/// (its own polynomials, `rsqrt` refinements, FMA in the dot products and `mix`).
pub const INEXACT: &[&str] = &[
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "exp",
    "exp2",
    "log",
    "log2",
    "pow",
    "sqrt",
    "inversesqrt",
    "normalize",
    "length",
    "distance",
    "dot",
    "mix",
    "smoothstep",
    "reflect",
    "faceforward",
    "cross",
    "determinant",
    "radians",
    "degrees",
    "mod",
    "fract",
];

/// `src` with every call of an [`INEXACT`] built-in multiplied by a uniform
/// `dtw_e0` or `dtw_e1` (alternating by call site): set to 1 they change nothing;
/// set to `1 ± 2^-18` they stand for an implementation's rounding of that call.
/// Every `floatBitsToInt`/`floatBitsToUint` (its value may be inexact) is XORed
/// with the uniform `dtw_bi`/`dtw_bu`, which the perturbed runs set to 0x15, 0x2A
/// and 0x3F: the low bits of an inexact value are the implementation's.
pub fn perturb_calls(src: &str) -> String {
    fn go(s: &str, site: &mut usize) -> String {
        let b = s.as_bytes();
        let mut out = String::with_capacity(s.len() * 2);
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if c.is_ascii_alphabetic()
                && (i == 0
                    || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b'.'))
            {
                let mut j = i;
                while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                    j += 1;
                }
                let name = &s[i..j];
                let bits = matches!(name, "floatBitsToInt" | "floatBitsToUint");
                if j < b.len() && b[j] == b'(' && (INEXACT.contains(&name) || bits) {
                    // the matching parenthesis
                    let mut depth = 0;
                    let mut k = j;
                    while k < b.len() {
                        match b[k] {
                            b'(' => depth += 1,
                            b')' => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        k += 1;
                    }
                    let inner = go(&s[j + 1..k.min(b.len())], site);
                    if bits {
                        // The bits of an inexact value are the implementation's: its
                        // low bits vary too (GLSL 3.30 §8.3 returns the encoding).
                        // (every such call: the value may come from a variable
                        // an inexact call wrote)
                        let u = if name == "floatBitsToUint" { "u" } else { "i" };
                        out.push_str(&format!("({name}({inner}) ^ dtw_b{u})"));
                    } else {
                        let e = *site % 2;
                        *site += 1;
                        out.push_str(&format!("({name}({inner}) * dtw_e{e})"));
                    }
                    i = (k + 1).min(b.len());
                    continue;
                }
                out.push_str(name);
                i = j;
                continue;
            }
            out.push(c as char);
            i += 1;
        }
        out
    }
    let mut site = 0;
    // only the code after the declarations' header line `#version`
    let (head, body) = src.split_once('\n').unwrap_or(("", src));
    format!(
        "{head}\nuniform float dtw_e0;\nuniform float dtw_e1;\nuniform int dtw_bi;\nuniform uint dtw_bu;\n{}",
        go(body, &mut site)
    )
}

impl Tolerance {
    /// Measure the budget of `src` on `inputs` around its scalar run `base`
    /// (module docs): the program with its inexact calls perturbed
    /// ([`perturb_calls`]) runs [`PERTURBATIONS`] times.
    pub fn measure(src: &str, inputs: &Inputs4, base: &Run) -> Result<Tolerance, String> {
        let psrc = perturb_calls(src);
        let shader = oracle::compile_frag(&psrc)?;
        let mut moved = vec![[0.0f32; 4]; FRAGMENTS];
        let mut discard_stable = vec![true; FRAGMENTS];
        let mut jumped = [[false; 4]; FRAGMENTS];
        for t in 0..PERTURBATIONS {
            let (e0, e1) = [(1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)][t % 3];
            let mut inp = inputs.clone();
            inp.uniforms
                .push(("dtw_e0".into(), [(1.0 + e0 * PERTURB).to_bits(), 0, 0, 0]));
            inp.uniforms
                .push(("dtw_e1".into(), [(1.0 + e1 * PERTURB).to_bits(), 0, 0, 0]));
            let low = [0x15u32, 0x2A, 0x3F][t % 3];
            inp.uniforms.push(("dtw_bi".into(), [low, 0, 0, 0]));
            inp.uniforms.push(("dtw_bu".into(), [low, 0, 0, 0]));
            let run = oracle::run_scalar(&shader, &inp)?;
            for i in 0..FRAGMENTS {
                if run.discarded[i] != base.discarded[i] {
                    discard_stable[i] = false;
                }
                for c in 0..4 {
                    let (a, b) = (
                        f32::from_bits(base.color[i][c]),
                        f32::from_bits(run.color[i][c]),
                    );
                    let d = (a - b).abs();
                    if !a.is_finite() || !b.is_finite() || d > JUMP * a.abs().max(1.0) {
                        jumped[i][c] = true;
                    } else {
                        moved[i][c] = moved[i][c].max(d);
                    }
                }
            }
        }
        let allowed = (0..FRAGMENTS)
            .map(|i| {
                std::array::from_fn(|c| {
                    let a = f32::from_bits(base.color[i][c]);
                    (!jumped[i][c] && discard_stable[i])
                        .then(|| BASE * a.abs().max(1.0) + MOVE_FACTOR * moved[i][c])
                })
            })
            .collect();
        Ok(Tolerance {
            allowed,
            discard_stable,
        })
    }

    /// Outputs compared (not unstable).
    pub fn compared(&self) -> usize {
        self.allowed
            .iter()
            .flatten()
            .filter(|a| a.is_some())
            .count()
    }
}

fn lanes_of(ty: Type) -> usize {
    match ty {
        Type::Vec2 | Type::IVec2 | Type::UVec2 => 2,
        Type::Vec3 | Type::IVec3 | Type::UVec3 => 3,
        Type::Vec4 | Type::IVec4 | Type::UVec4 => 4,
        _ => 1,
    }
}

/// Make the case of `src` (already compiled into `shader`, run on the CPU as `reference`).
/// `None` when the program does not have the generated shape, declares uniforms the
/// scene cannot give (matrices, bools), or its budget cannot be measured.
pub fn case(
    origin: String,
    src: &str,
    shader: &Shader,
    inputs: &Inputs4,
    reference: Run,
) -> Option<Case> {
    let slot = shader
        .interface
        .symbols
        .iter()
        .find_map(|s| match s.kind {
            SymbolKind::VaryingIn { slot, .. } if s.name == "vv" => Some(slot as usize),
            _ => None,
        })
        .unwrap_or(0);
    let wrapped = wrap(src, slot)?;
    let slots = oracle::uniform_slots(shader, inputs);
    let mut uniforms = vec![];
    for sym in &shader.interface.symbols {
        let SymbolKind::Uniform { slot } = sym.kind else {
            continue;
        };
        if sym.array_len.is_some() {
            return None;
        }
        let lanes = &slots[slot as usize][..lanes_of(sym.ty)];
        let value = match sym.ty {
            Type::Float | Type::Vec2 | Type::Vec3 | Type::Vec4 => (lanes.to_vec(), None),
            Type::Int | Type::IVec2 | Type::IVec3 | Type::IVec4 => {
                let ints: Vec<i64> = lanes.iter().map(|x| x.to_bits() as i32 as i64).collect();
                (ints.iter().map(|&i| i as f32).collect(), Some(ints))
            }
            Type::Uint | Type::UVec2 | Type::UVec3 | Type::UVec4 => {
                let ints: Vec<i64> = lanes.iter().map(|x| x.to_bits() as i64).collect();
                (ints.iter().map(|&i| i as f32).collect(), Some(ints))
            }
            _ => return None,
        };
        uniforms.push((sym.name.clone(), value.0, value.1));
    }
    let budget = Tolerance::measure(src, inputs, &reference).ok()?;
    Some(Case {
        origin,
        src: src.to_string(),
        inputs: inputs.clone(),
        wrapped,
        uniforms,
        reference,
        budget,
    })
}

/// The scene that draws `cases`, one 20 × 4 block each.
pub fn scene(cases: &[&Case]) -> Result<Scene, String> {
    let rows = cases.len().div_ceil(COLUMNS).max(1);
    let cols = cases.len().clamp(1, COLUMNS);
    let mut b =
        Scene::builder((cols * BLOCK_W) as u32, (rows * BLOCK_H) as u32).clear_color([0.0; 4]);
    const QUAD: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0];
    for (n, c) in cases.iter().enumerate() {
        let (x, y) = ((n % COLUMNS) * BLOCK_W, (n / COLUMNS) * BLOCK_H);
        let mut d = Draw::new(VERTEX, c.wrapped.clone())
            .attribute(0, 2, &QUAD)
            .indices(&[0, 1, 2, 0, 2, 3])
            .state(DrawState::no_depth().viewport([
                x as i32,
                y as i32,
                BLOCK_W as i32,
                BLOCK_H as i32,
            ]));
        for (name, floats, ints) in &c.uniforms {
            d = match ints {
                Some(i) => d.uniform_ints(name.clone(), i),
                None => d.uniform(name.clone(), floats),
            };
        }
        b = b.draw(d);
    }
    b.build().map_err(|e| e.to_string())
}

/// Draw `cases` on `backend` in one frame; per case, the run read back.
pub fn draw(backend: Backend, cases: &[&Case]) -> Result<Vec<Run>, String> {
    let scene = scene(cases)?;
    let image = match backend {
        Backend::Gl => {
            csir_render::gl::render_scene_gl(&scene, &csir_render::gl::GlOptions::default())
                .map_err(|e| e.to_string())?
                .image
        }
        Backend::Virgl => {
            csir_render::virgl::render_scene_virgl(
                &scene,
                &csir_render::virgl::VirglOptions::default(),
            )
            .map_err(|e| e.to_string())?
            .image
        }
    };
    let h = image.height();
    Ok((0..cases.len())
        .map(|n| {
            let (bx, by) = ((n % COLUMNS) * BLOCK_W, (n / COLUMNS) * BLOCK_H);
            let px = |x: usize, y: usize| image.pixel(x as u32, h - 1 - y as u32).unwrap_or([0; 4]);
            let mut run = Run {
                color: vec![],
                discarded: vec![],
            };
            for i in 0..FRAGMENTS {
                let (fx, fy) = (bx + i % 4, by + i / 4);
                run.discarded.push(px(fx + 16, fy) != [255; 4]);
                run.color.push(std::array::from_fn(|k| {
                    u32::from_le_bytes(px(fx + 4 * k, fy))
                }));
            }
            run
        })
        .collect())
}

/// The first output where `got` (a back end's run) is outside `case`'s budget.
pub fn first_difference(case: &Case, got: &Run) -> Option<String> {
    let r = &case.reference;
    for i in 0..FRAGMENTS {
        if !case.budget.discard_stable[i] {
            continue;
        }
        if r.discarded[i] != got.discarded[i] {
            return Some(format!(
                "fragment {i}: discarded {} (scalar) vs {}",
                r.discarded[i], got.discarded[i]
            ));
        }
        if r.discarded[i] {
            continue;
        }
        for c in 0..4 {
            let Some(allowed) = case.budget.allowed[i][c] else {
                continue;
            };
            let (a, b) = (
                f32::from_bits(r.color[i][c]),
                f32::from_bits(got.color[i][c]),
            );
            // a NaN difference is outside the budget
            let within = (a - b).abs() <= allowed;
            if !within {
                return Some(format!(
                    "fragment {i} component {c}: scalar {a:e} ({:08x}) vs {b:e} ({:08x}), allowed {allowed:e}",
                    r.color[i][c], got.color[i][c]
                ));
            }
        }
    }
    None
}

/// Draw `cases` and compare each; a frame the back end refuses is split in halves
/// until the refused program is alone. Returns per case `None` (agrees) or the
/// difference; a refused program's difference starts with `refused: `.
pub fn check_all(backend: Backend, cases: &[&Case]) -> Vec<Option<String>> {
    if cases.is_empty() {
        return vec![];
    }
    match draw(backend, cases) {
        Ok(runs) => cases
            .iter()
            .zip(&runs)
            .map(|(c, r)| first_difference(c, r))
            .collect(),
        Err(e) if cases.len() == 1 => vec![Some(format!("refused: {e}"))],
        Err(_) => {
            let (a, b) = cases.split_at(cases.len() / 2);
            let mut out = check_all(backend, a);
            out.extend(check_all(backend, b));
            out
        }
    }
}
