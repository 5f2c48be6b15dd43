//! Small shaders built by hand as CSIR, shaped like the front end's output (prologue
//! loads first, zero-initialised outputs, constructors through CONST + MOV + SETLANE),
//! for golden tests and for parity runs that do not depend on the compiler.

use csir::ir::{
    CmpCode, Interface, InterfaceSymbol, Ir, Limits, Op, Shader, Stage, SymbolKind, Type, optimize,
    verify,
};

/// A shader under construction: records, immediates and a temporary counter.
pub struct Hand {
    name: &'static str,
    stage: Stage,
    ir: Vec<Ir>,
    imm: Vec<f32>,
    ntmp: u16,
    interface: Interface,
}

impl Hand {
    pub fn new(name: &'static str, stage: Stage) -> Hand {
        Hand {
            name,
            stage,
            ir: Vec::new(),
            imm: Vec::new(),
            ntmp: 0,
            interface: Interface::default(),
        }
    }

    /// Declare an interface symbol and raise the matching high-water mark.
    pub fn symbol(&mut self, name: &str, ty: Type, kind: SymbolKind) -> &mut Hand {
        let i = &mut self.interface;
        match kind {
            SymbolKind::Attribute { location } => i.attr_hi = i.attr_hi.max(location as i16),
            SymbolKind::VaryingIn { slot } | SymbolKind::VaryingOut { slot } => {
                i.var_hi = i.var_hi.max(slot as i16)
            }
            SymbolKind::Sampler { slot, .. } => i.samp_hi = i.samp_hi.max(slot as i16),
            SymbolKind::Uniform { slot } => {
                i.uni_hi = i.uni_hi.max(slot as i16 + ty.columns() as i16 - 1)
            }
            SymbolKind::ColorOut { .. } => {}
        }
        i.symbols.push(InterfaceSymbol {
            name: name.into(),
            ty,
            array_len: None,
            kind,
            interpolation: None,
        });
        self
    }

    /// Allocate `n` consecutive temporaries.
    pub fn temps(&mut self, n: u16) -> i16 {
        let t = self.ntmp as i16;
        self.ntmp += n;
        t
    }

    pub fn push(&mut self, ir: Ir) -> &mut Hand {
        if ir.opcode() == Some(Op::StorePos) {
            self.interface.writes_position = true;
        }
        self.ir.push(ir);
        self
    }

    /// `dst = const values` into a fresh temporary.
    pub fn constant(&mut self, values: &[f32]) -> i16 {
        let d = self.temps(1);
        let first = self.imm.len() as i16;
        self.imm.extend_from_slice(values);
        self.push(
            Ir::new(Op::Const, Type::float_vec(values.len() as u8))
                .dst(d)
                .aux(first)
                .ncomp(values.len() as u8),
        );
        d
    }

    /// An output variable: a temporary zero-initialised by CONST + MOV (the prologue).
    pub fn zeroed(&mut self) -> i16 {
        let t = self.temps(1);
        let z = self.constant(&[0.0; 4]);
        self.push(Ir::new(Op::Mov, Type::Vec4).dst(t).a(z).ncomp(4));
        t
    }

    /// `op dst, a, b` into a fresh temporary.
    pub fn op(&mut self, op: Op, a: i16, b: i16, ncomp: u8) -> i16 {
        let d = self.temps(1);
        self.push(
            Ir::new(op, Type::float_vec(ncomp.max(1)))
                .dst(d)
                .a(a)
                .b(b)
                .ncomp(ncomp),
        );
        d
    }

    /// `op dst, a` with `aux` into a fresh temporary.
    pub fn unary(&mut self, op: Op, a: i16, aux: i16, ncomp: u8) -> i16 {
        let d = self.temps(1);
        self.push(
            Ir::new(op, Type::float_vec(ncomp.max(1)))
                .dst(d)
                .a(a)
                .aux(aux)
                .ncomp(ncomp),
        );
        d
    }

    /// An interface load (`LOAD_ATTR`, `LOAD_VAR`, `LOAD_UNI`, `LOAD_FCOORD`) into
    /// `count` fresh temporaries (LOAD_UNI reads `count` slots from `slot`).
    pub fn load(&mut self, op: Op, ty: Type, slot: i16, count: i16) -> i16 {
        let d = self.temps(count as u16);
        let ir = Ir::new(op, ty).dst(d).aux(slot).ncomp(ty.width().max(1));
        self.push(if op == Op::LoadUni {
            ir.aux2(count)
        } else {
            ir
        });
        d
    }

    /// `dst.x = dot(a, b)` over `width` lanes into a fresh temporary.
    pub fn dot(&mut self, a: i16, b: i16, width: i16) -> i16 {
        let d = self.temps(1);
        self.push(
            Ir::new(Op::Dot, Type::Float)
                .dst(d)
                .a(a)
                .b(b)
                .aux(width)
                .ncomp(1),
        );
        d
    }

    /// `dst = cmp a, b` with comparison `code` into a fresh temporary.
    pub fn cmp(&mut self, a: i16, b: i16, code: CmpCode) -> i16 {
        let d = self.temps(1);
        self.push(
            Ir::new(Op::Cmp, Type::Bool)
                .dst(d)
                .a(a)
                .b(b)
                .aux(code.code()),
        );
        d
    }

    /// `vec4(xyz, w)` the front end's way: CONST zero, MOV, one SETLANE per
    /// component.
    pub fn vec4_of(&mut self, xyz: i16, w: i16) -> i16 {
        let v = self.zeroed();
        for lane in 0..3 {
            self.push(
                Ir::new(Op::SetLane, Type::Vec4)
                    .dst(v)
                    .a(xyz)
                    .aux(lane)
                    .aux2(lane)
                    .ncomp(4),
            );
        }
        self.push(
            Ir::new(Op::SetLane, Type::Vec4)
                .dst(v)
                .a(w)
                .aux(3)
                .aux2(0)
                .ncomp(4),
        );
        v
    }

    /// `out = value; store out` (MOV then the stage's store).
    pub fn assign_and_store(&mut self, out: i16, value: i16, store: Op, slot: i16) {
        self.push(Ir::new(Op::Mov, Type::Vec4).dst(out).a(value).ncomp(4));
        self.push(Ir::new(store, Type::Vec4).a(out).aux(slot).ncomp(4));
    }

    /// Optimize (as the compiler does), verify, and return the shader.
    pub fn finish(&self) -> Shader {
        self.finish_with(Limits::SEED)
    }

    /// [`Hand::finish`] under `limits` (the extended profile for its instructions).
    pub fn finish_with(&self, limits: Limits) -> Shader {
        let mut s = Shader {
            name: self.name.into(),
            stage: self.stage,
            limits,
            ir: self.ir.clone(),
            imm: self.imm.clone(),
            ntmp: self.ntmp,
            interface: self.interface.clone(),
        };
        optimize(&mut s);
        verify(&s).unwrap_or_else(|e| panic!("{}: {e}", self.name));
        s
    }
}

/// `out vec4 c; void main() { c = vec4(1.0, 0.0, 0.0, 1.0); }`
pub fn constant_color() -> Shader {
    let mut h = Hand::new("constant.frag", Stage::Fragment);
    h.symbol("c", Type::Vec4, SymbolKind::color_out(0));
    h.load(Op::LoadFcoord, Type::Vec4, 0, 1);
    let c = h.zeroed();
    let k = h.constant(&[1.0, 0.0, 0.0, 1.0]);
    h.assign_and_store(c, k, Op::StoreColor, 0);
    h.finish()
}

/// `layout(location = 0) in vec3 aPos; uniform mat4 uMVP; out vec3 vPos;`
/// `gl_Position = uMVP * vec4(aPos, 1.0); vPos = aPos;`
pub fn mvp_vertex() -> Shader {
    let mut h = Hand::new("mvp.vert", Stage::Vertex);
    h.symbol("aPos", Type::Vec3, SymbolKind::Attribute { location: 0 })
        .symbol("uMVP", Type::Mat4, SymbolKind::Uniform { slot: 0 })
        .symbol("vPos", Type::Vec3, SymbolKind::VaryingOut { slot: 0 });
    let pos = h.zeroed();
    let mvp = h.load(Op::LoadUni, Type::Mat4, 0, 4);
    let a = h.load(Op::LoadAttr, Type::Vec3, 0, 1);
    let vpos = h.zeroed();
    let one = h.constant(&[1.0]);
    let v = h.vec4_of(a, one);
    let p = h.temps(1);
    h.push(
        Ir::new(Op::MulMv, Type::Vec4)
            .dst(p)
            .a(mvp)
            .b(v)
            .aux(4)
            .ncomp(4),
    );
    h.assign_and_store(pos, p, Op::StorePos, 0);
    h.push(Ir::new(Op::Mov, Type::Vec3).dst(vpos).a(a).ncomp(3));
    h.push(Ir::new(Op::StoreVar, Type::Vec3).a(vpos).aux(0).ncomp(3));
    h.finish()
}

/// `in vec2 vUV; uniform sampler2D uTex; uniform vec4 uTint; out vec4 fragColor;`
/// `fragColor = texture(uTex, vUV) * uTint;`
pub fn textured() -> Shader {
    let mut h = Hand::new("textured.frag", Stage::Fragment);
    h.symbol("vUV", Type::Vec2, SymbolKind::VaryingIn { slot: 0 })
        .symbol("uTex", Type::Sampler2D, SymbolKind::sampler_2d(0))
        .symbol("uTint", Type::Vec4, SymbolKind::Uniform { slot: 0 })
        .symbol("fragColor", Type::Vec4, SymbolKind::color_out(0));
    h.load(Op::LoadFcoord, Type::Vec4, 0, 1);
    let uv = h.load(Op::LoadVar, Type::Vec2, 0, 1);
    let tint = h.load(Op::LoadUni, Type::Vec4, 0, 1);
    let out = h.zeroed();
    let texel = h.unary(Op::Sample, uv, 0, 4);
    let c = h.op(Op::Mul, texel, tint, 4);
    h.assign_and_store(out, c, Op::StoreColor, 0);
    h.finish()
}

/// `in vec3 vN; uniform vec3 uL; uniform vec3 uColor; out vec4 c;`
/// `float d = max(dot(normalize(vN), uL), 0.0); c = vec4(uColor * d, 1.0);`
pub fn lit() -> Shader {
    let mut h = Hand::new("lit.frag", Stage::Fragment);
    h.symbol("vN", Type::Vec3, SymbolKind::VaryingIn { slot: 0 })
        .symbol("uL", Type::Vec3, SymbolKind::Uniform { slot: 0 })
        .symbol("uColor", Type::Vec3, SymbolKind::Uniform { slot: 1 })
        .symbol("c", Type::Vec4, SymbolKind::color_out(0));
    h.load(Op::LoadFcoord, Type::Vec4, 0, 1);
    let vn = h.load(Op::LoadVar, Type::Vec3, 0, 1);
    let ul = h.load(Op::LoadUni, Type::Vec3, 0, 1);
    let color = h.load(Op::LoadUni, Type::Vec3, 1, 1);
    let out = h.zeroed();
    // normalize(vN): DOT, RSQ, broadcast SWZ, MUL.
    let len2 = h.dot(vn, vn, 3);
    let inv = h.unary(Op::Rsq, len2, 0, 1);
    let invv = h.unary(Op::Swz, inv, 0, 3);
    let n = h.op(Op::Mul, vn, invv, 3);
    let nl = h.dot(n, ul, 3);
    let zero = h.constant(&[0.0]);
    let d = h.op(Op::Max, nl, zero, 1);
    let dv = h.unary(Op::Swz, d, 0, 3);
    let rgb = h.op(Op::Mul, color, dv, 3);
    let one = h.constant(&[1.0]);
    let v = h.vec4_of(rgb, one);
    h.assign_and_store(out, v, Op::StoreColor, 0);
    h.finish()
}

/// `in vec2 vP; uniform vec4 uColor; uniform float uCutX; out vec4 fragColor;`
/// `if (vP.x > uCutX) { discard; } else { fragColor = uColor * 0.5; }`
/// `if (gl_FragCoord.y < 1.0) { fragColor = uColor; }`
pub fn branchy() -> Shader {
    let mut h = Hand::new("branchy.frag", Stage::Fragment);
    h.symbol("vP", Type::Vec2, SymbolKind::VaryingIn { slot: 0 })
        .symbol("uColor", Type::Vec4, SymbolKind::Uniform { slot: 0 })
        .symbol("uCutX", Type::Float, SymbolKind::Uniform { slot: 1 })
        .symbol("fragColor", Type::Vec4, SymbolKind::color_out(0));
    let fc = h.load(Op::LoadFcoord, Type::Vec4, 0, 1);
    let vp = h.load(Op::LoadVar, Type::Vec2, 0, 1);
    let color = h.load(Op::LoadUni, Type::Vec4, 0, 1);
    let cut = h.load(Op::LoadUni, Type::Float, 1, 1);
    let out = h.zeroed();
    let x = h.unary(Op::Swz, vp, 0, 1);
    let cond = h.cmp(x, cut, CmpCode::Gt);
    h.push(Ir::new(Op::If, Type::None).a(cond));
    h.push(Ir::new(Op::Discard, Type::None));
    h.push(Ir::new(Op::Else, Type::None));
    let half = h.constant(&[0.5]);
    let halfv = h.unary(Op::Swz, half, 0, 4);
    let dim = h.op(Op::Mul, color, halfv, 4);
    h.push(Ir::new(Op::Mov, Type::Vec4).dst(out).a(dim).ncomp(4));
    h.push(Ir::new(Op::EndIf, Type::None));
    let y = h.unary(Op::Swz, fc, 1, 1);
    let one = h.constant(&[1.0]);
    let low = h.cmp(y, one, CmpCode::Lt);
    h.push(Ir::new(Op::If, Type::None).a(low));
    h.push(Ir::new(Op::Mov, Type::Vec4).dst(out).a(color).ncomp(4));
    h.push(Ir::new(Op::EndIf, Type::None));
    h.push(Ir::new(Op::StoreColor, Type::Vec4).a(out).ncomp(4));
    h.finish()
}
