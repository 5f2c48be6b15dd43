//! Random CSIR programs that pass the verifier, covering every opcode, aliasing of
//! destinations and sources (matrix products included), partial writes, reads of
//! never-written temporaries, nested IF/ELSE, DISCARD and stores inside branches —
//! plus random ordinary and exceptional inputs.

use csir::ir::{
    CmpCode, Interface, InterfaceSymbol, Ir, IrBuilder, Limits, Op, Shader, Stage, SymbolKind,
    Type, optimize, verify,
};

/// SplitMix64: small, seedable, good enough for test inputs.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `percent / 100`.
    pub fn percent(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        let unit = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * unit
    }

    /// An ordinary value: finite, non-zero magnitude in [1/16, 4), either sign.
    pub fn ordinary(&mut self) -> f32 {
        let v = self.range(0.0625, 4.0);
        if self.percent(50) { v } else { -v }
    }

    /// An exceptional value half of the time, an ordinary one otherwise.
    pub fn mixed(&mut self) -> f32 {
        const SPECIAL: [f32; 8] = [
            0.0,
            -0.0,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            -1.0,
            1e-40,
            3e38,
        ];
        if self.percent(50) {
            SPECIAL[self.below(SPECIAL.len())]
        } else {
            self.ordinary()
        }
    }

    pub fn vec4(&mut self, f: fn(&mut Rng) -> f32) -> [f32; 4] {
        [f(self), f(self), f(self), f(self)]
    }
}

/// Slots the random programs use (all within the seed's limits).
pub const ATTRIBUTES: usize = 4;
pub const VARYINGS: usize = 4;
pub const UNIFORM_SLOTS: usize = 12;
pub const SAMPLERS: usize = 2;

struct Gen<'r> {
    rng: &'r mut Rng,
    b: IrBuilder,
    stage: Stage,
    /// Temporaries with a value (some lanes may still be zero from the start).
    live: Vec<i16>,
    depth: usize,
    else_seen: Vec<bool>,
}

impl Gen<'_> {
    fn any_live(&mut self) -> i16 {
        let i = self.rng.below(self.live.len());
        self.live[i]
    }

    /// A destination: usually a new temporary, sometimes an existing one (aliasing).
    fn dst(&mut self) -> Option<i16> {
        if self.rng.percent(30) || self.b.temp_count() as usize >= self.b.limits().temporaries - 8 {
            return Some(self.any_live());
        }
        let t = self.b.alloc_temps(1).ok()?;
        self.live.push(t);
        Some(t)
    }

    /// `n` consecutive allocated temporaries starting anywhere (a matrix; columns may
    /// never have been written).
    fn span(&mut self, n: i16) -> i16 {
        let top = self.b.temp_count() as i16 - n;
        if top <= 0 {
            return 0;
        }
        self.rng.below(top as usize + 1) as i16
    }

    fn ncomp(&mut self) -> u8 {
        self.rng.below(5) as u8
    }

    fn emit(&mut self, ir: Ir) -> bool {
        self.b.emit(ir).is_ok()
    }

    fn constant(&mut self) -> bool {
        let n = 1 + self.rng.below(4);
        let values: Vec<f32> = (0..n)
            .map(|_| {
                if self.rng.percent(10) {
                    self.rng.mixed()
                } else {
                    self.rng.ordinary()
                }
            })
            .collect();
        if self.b.immediates().len() + n > self.b.limits().immediates {
            return false;
        }
        let Some(d) = self.dst() else { return false };
        let first = self.b.add_immediates(&values).expect("checked above");
        self.emit(
            Ir::new(Op::Const, Type::float_vec(n as u8))
                .dst(d)
                .aux(first)
                .ncomp(n as u8),
        )
    }

    /// One random instruction (or control-flow marker). Returns false when a pool is
    /// full.
    fn step(&mut self) -> bool {
        let a = self.any_live();
        let b = self.any_live();
        match self.rng.below(30) {
            0 | 1 => self.constant(),
            2 => {
                let Some(d) = self.dst() else { return false };
                let n = self.ncomp();
                self.emit(Ir::new(Op::Mov, Type::Vec4).dst(d).a(a).ncomp(n))
            }
            3 | 4 => {
                let Some(d) = self.dst() else { return false };
                let n = self.ncomp();
                let aux = self.rng.below(256) as i16;
                self.emit(Ir::new(Op::Swz, Type::Vec4).dst(d).a(a).ncomp(n).aux(aux))
            }
            5 => {
                let Some(d) = self.dst() else { return false };
                let (l, s) = (self.rng.below(4) as i16, self.rng.below(4) as i16);
                self.emit(
                    Ir::new(Op::SetLane, Type::Vec4)
                        .dst(d)
                        .a(a)
                        .aux(l)
                        .aux2(s)
                        .ncomp(4),
                )
            }
            6..=11 => {
                let op = [Op::Add, Op::Sub, Op::Mul, Op::Min, Op::Max, Op::Div][self.rng.below(6)];
                let Some(d) = self.dst() else { return false };
                let n = self.ncomp();
                self.emit(Ir::new(op, Type::Vec4).dst(d).a(a).b(b).ncomp(n))
            }
            12 => {
                let Some(d) = self.dst() else { return false };
                let n = self.ncomp();
                self.emit(Ir::new(Op::Abs, Type::Vec4).dst(d).a(a).ncomp(n))
            }
            13 => {
                let Some(d) = self.dst() else { return false };
                let w = 2 + self.rng.below(3) as i16;
                self.emit(
                    Ir::new(Op::Dot, Type::Float)
                        .dst(d)
                        .a(a)
                        .b(b)
                        .aux(w)
                        .ncomp(1),
                )
            }
            14 | 15 => {
                let op = [Op::Rsq, Op::Trunc][self.rng.below(2)];
                let Some(d) = self.dst() else { return false };
                self.emit(Ir::new(op, Type::Float).dst(d).a(a).ncomp(1))
            }
            16 | 17 => {
                let op = [Op::Rcp, Op::Sin, Op::Cos][self.rng.below(3)];
                let Some(d) = self.dst() else { return false };
                let n = self.ncomp();
                self.emit(Ir::new(op, Type::Vec4).dst(d).a(a).ncomp(n))
            }
            18 => {
                let Some(d) = self.dst() else { return false };
                self.emit(Ir::new(Op::Pow, Type::Float).dst(d).a(a).b(b).ncomp(1))
            }
            19 | 20 => {
                let Some(d) = self.dst() else { return false };
                let code = [
                    CmpCode::Lt,
                    CmpCode::Gt,
                    CmpCode::Le,
                    CmpCode::Ge,
                    CmpCode::Eq,
                    CmpCode::Ne,
                ][self.rng.below(6)];
                let ir = Ir::new(Op::Cmp, Type::Bool)
                    .dst(d)
                    .a(a)
                    .b(b)
                    .aux(code.code());
                self.emit(ir)
            }
            21 => {
                let cols = 3 + self.rng.below(2) as i16;
                let m = self.span(cols);
                let d = if self.rng.percent(25) {
                    m + self.rng.below(cols as usize) as i16
                } else if self.rng.percent(25) {
                    b
                } else {
                    match self.dst() {
                        Some(d) => d,
                        None => return false,
                    }
                };
                self.emit(
                    Ir::new(Op::MulMv, Type::Vec4)
                        .dst(d)
                        .a(m)
                        .b(b)
                        .aux(cols)
                        .ncomp(cols as u8),
                )
            }
            22 => {
                let cols = 3 + self.rng.below(2) as i16;
                let (m, n) = (self.span(cols), self.span(cols));
                let d = if self.rng.percent(40) {
                    self.span(cols)
                } else {
                    match self.b.alloc_temps(cols as u16) {
                        Ok(d) => d,
                        Err(_) => return false,
                    }
                };
                self.live.extend(d..d + cols);
                self.emit(
                    Ir::new(Op::MulMm, Type::Mat4)
                        .dst(d)
                        .a(m)
                        .b(n)
                        .aux(cols)
                        .ncomp(4),
                )
            }
            // TEXSIZE, or TEXFETCH when `b` is odd: chosen without a draw of its own,
            // so that the random stream (and the programs) stay those of before.
            23 if self.rng.percent(25) => {
                let Some(d) = self.dst() else { return false };
                let slot = self.rng.below(SAMPLERS) as i16;
                if b % 2 == 1 {
                    let fetch = Ir::new(Op::TexFetch, Type::Vec4).dst(d).a(a).b(b).aux(slot);
                    return self.emit(fetch.ncomp(4));
                }
                let size = Ir::new(Op::TexSize, Type::IVec2).dst(d).a(a).aux(slot);
                self.emit(size.ncomp(2))
            }
            23 => {
                let Some(d) = self.dst() else { return false };
                let slot = self.rng.below(SAMPLERS) as i16;
                self.emit(
                    Ir::new(Op::Sample, Type::Vec4)
                        .dst(d)
                        .a(a)
                        .aux(slot)
                        .ncomp(4),
                )
            }
            24 => self.store(a),
            25 if self.depth < 3 => {
                self.depth += 1;
                self.else_seen.push(false);
                self.emit(Ir::new(Op::If, Type::None).a(a))
            }
            26 if self.depth > 0 && !self.else_seen.last().copied().unwrap_or(true) => {
                *self.else_seen.last_mut().expect("depth > 0") = true;
                self.emit(Ir::new(Op::Else, Type::None))
            }
            27 if self.depth > 0 => {
                self.depth -= 1;
                self.else_seen.pop();
                self.emit(Ir::new(Op::EndIf, Type::None))
            }
            28 if self.stage == Stage::Fragment && self.depth > 0 && self.rng.percent(30) => {
                self.emit(Ir::new(Op::Discard, Type::None))
            }
            29 => self.load(),
            _ => self.constant(),
        }
    }

    fn store(&mut self, a: i16) -> bool {
        let ir = match self.stage {
            Stage::Vertex if self.rng.percent(40) => Ir::new(Op::StorePos, Type::Vec4).a(a),
            Stage::Vertex => {
                let slot = self.rng.below(VARYINGS) as i16;
                Ir::new(Op::StoreVar, Type::Vec4).a(a).aux(slot)
            }
            Stage::Fragment => Ir::new(Op::StoreColor, Type::Vec4).a(a),
            Stage::Geometry => unreachable!("the TGSI emitter refuses geometry shaders"),
        };
        self.emit(ir.ncomp(4))
    }

    fn load(&mut self) -> bool {
        let ir = match (self.stage, self.rng.below(3)) {
            (_, 0) => {
                let n = [1i16, 3, 4][self.rng.below(3)];
                let slot = self.rng.below(UNIFORM_SLOTS - n as usize + 1) as i16;
                let Ok(d) = self.b.alloc_temps(n as u16) else {
                    return false;
                };
                self.live.extend(d..d + n);
                Ir::new(Op::LoadUni, Type::Vec4)
                    .dst(d)
                    .aux(slot)
                    .aux2(n)
                    .ncomp(4)
            }
            (Stage::Vertex, _) => {
                let Some(d) = self.dst() else { return false };
                let loc = self.rng.below(ATTRIBUTES) as i16;
                Ir::new(Op::LoadAttr, Type::Vec4).dst(d).aux(loc).ncomp(4)
            }
            (Stage::Fragment, 1) => {
                let Some(d) = self.dst() else { return false };
                let slot = self.rng.below(VARYINGS) as i16;
                Ir::new(Op::LoadVar, Type::Vec4).dst(d).aux(slot).ncomp(4)
            }
            (Stage::Geometry, _) => unreachable!("the TGSI emitter refuses geometry shaders"),
            (Stage::Fragment, _) => {
                let Some(d) = self.dst() else { return false };
                if self.rng.percent(30) {
                    Ir::new(Op::LoadFace, Type::Bool).dst(d).ncomp(1)
                } else {
                    Ir::new(Op::LoadFcoord, Type::Vec4).dst(d).ncomp(4)
                }
            }
        };
        self.emit(ir)
    }
}

/// Most random instructions per program: leaves room in the seed's 384-record pool for
/// the loads before and the ENDIFs and store after.
pub const MAX_STEPS: usize = 360;

/// A random verified shader of `stage` with up to `steps` (at most [`MAX_STEPS`])
/// random instructions; generation stops early when the temporaries run out.
pub fn random_shader(rng: &mut Rng, stage: Stage, steps: usize) -> Shader {
    let steps = steps.min(MAX_STEPS);
    // The seed's pools with the extended instructions (LOAD_FACE, DIV, TEXSIZE,
    // TEXFETCH).
    let limits = Limits {
        profile: csir::ir::Profile::Extended,
        ..Limits::SEED
    };
    let mut g = Gen {
        rng,
        b: IrBuilder::new(limits),
        stage,
        live: Vec::new(),
        depth: 0,
        else_seen: Vec::new(),
    };
    // A few temporaries that are read but never written (the interpreter reads zero).
    let never = g.b.alloc_temps(2).expect("empty builder");
    g.live.extend([never, never + 1]);
    for _ in 0..3 {
        g.load();
    }
    g.constant();
    for _ in 0..steps {
        if !g.step() {
            break;
        }
    }
    while g.depth > 0 {
        g.depth -= 1;
        g.b.emit(Ir::new(Op::EndIf, Type::None))
            .expect("MAX_STEPS leaves room for the closing records");
    }
    let final_store = g.any_live();
    g.store(final_store);
    let (ir, imm, ntmp) = g.b.finish();
    let mut symbols = Vec::new();
    if stage == Stage::Vertex {
        for slot in 0..VARYINGS as u16 {
            symbols.push(InterfaceSymbol {
                name: format!("v{slot}"),
                ty: Type::Vec4,
                array_len: None,
                kind: SymbolKind::VaryingOut { slot },
                interpolation: None,
            });
        }
    }
    let mut shader = Shader {
        name: format!(
            "random.{}",
            if stage == Stage::Vertex {
                "vert"
            } else {
                "frag"
            }
        ),
        stage,
        limits,
        ir,
        imm,
        ntmp,
        interface: Interface {
            symbols,
            attr_hi: ATTRIBUTES as i16 - 1,
            var_hi: VARYINGS as i16 - 1,
            samp_hi: SAMPLERS as i16 - 1,
            uni_hi: UNIFORM_SLOTS as i16 - 1,
            writes_position: stage == Stage::Vertex,
            ..Interface::default()
        },
    };
    if g.rng.percent(50) {
        optimize(&mut shader);
    }
    if let Err(e) = verify(&shader) {
        panic!(
            "random shader does not verify: {e}\n{}",
            csir::ir::dump(&shader)
        );
    }
    shader
}
