//! The TEX family (GL 3.3 targets, shadow and integer samplers) through the TGSI back
//! end: for every GLSL 3.30 sampler type and every lookup kind it has (implicit, bias,
//! λ, gradients, texelFetch, textureSize, with and without texel offsets), the emitted
//! TGSI declares the sampler view with the type's target and return type, parses under
//! virglrenderer's rules, and executing it by tgsi.rst's definitions of each target's
//! coordinate layout (the test executor's `texture_gl33`) reaches the textures with
//! exactly the requests the CSIR interpreter makes.
//!
//! The textures are a probe: each lookup, fetch and size query returns a hash of
//! the operands its sampler type reads (the target's coordinates, the shadow
//! reference, λ or the gradients, the offset, the level), so a lane in the wrong
//! place, a lost offset or a wrong level shows as a different colour.

mod tgsi_common;

use csir::exec::{Samplers, TexLod, TexRequest};
use csir::ir::{Ir, Limits, Op, Stage, SymbolKind, Type};
use csir::sampler_type::{SampleKind, SamplerType, TexLookup, TexMode, TexTarget};
use tgsi_common::check::{Prepared, random_inputs};
use tgsi_common::hand::Hand;
use tgsi_common::random::Rng;

/// Textures whose results are hashes of what their sampler type reads.
struct Probe {
    ty: SamplerType,
}

/// FNV-1a over 32-bit words.
fn hash(words: impl IntoIterator<Item = u32>) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for w in words {
        for b in w.to_le_bytes() {
            h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
        }
    }
    h
}

/// A value in [0, 1) from a hash.
fn unit(h: u32) -> f32 {
    (h >> 8) as f32 / (1u32 << 24) as f32
}

impl Samplers for Probe {
    fn sample(&self, _slot: usize, _s: f32, _t: f32) -> [f32; 4] {
        [0.0; 4]
    }

    fn sample_offset(&self, _slot: usize, _s: f32, _t: f32, _offset: [i32; 2]) -> [f32; 4] {
        [0.0; 4]
    }

    fn lookup(&self, slot: usize, r: &TexRequest) -> [f32; 4] {
        let coords = usize::from(self.ty.target.coords());
        let mut words: Vec<u32> = vec![slot as u32];
        words.extend(r.coord[..coords].iter().map(|c| c.to_bits()));
        if self.ty.kind == SampleKind::Shadow {
            words.push(r.coord[coords.max(2)].to_bits());
        }
        match r.lod {
            TexLod::Level(l) => words.extend([1, l.to_bits()]),
            TexLod::Derivatives { dx, dy, bias } => {
                words.push(2);
                words.extend(dx.iter().chain(&dy).map(|v| v.to_bits()));
                words.push(bias.to_bits());
            }
        }
        words.extend(r.offset.map(|o| o as u32));
        let h = hash(words);
        if self.ty.kind == SampleKind::Shadow {
            let v = unit(h);
            [v, v, v, 1.0]
        } else {
            [0, 1, 2, 3].map(|k| unit(hash([h, k])))
        }
    }

    fn fetch(&self, slot: usize, p: [i32; 3], level: i32) -> [f32; 4] {
        let coords = usize::from(self.ty.target.coords());
        let mut words: Vec<u32> = vec![slot as u32, 7];
        words.extend(p[..coords].iter().map(|&c| c as u32));
        if self.ty.target != TexTarget::Buffer {
            words.push(level as u32);
        }
        let h = hash(words);
        [0, 1, 2, 3].map(|k| f32::from_bits(hash([h, k])))
    }

    fn size_of(&self, slot: usize, level: i32) -> [i32; 3] {
        let n = usize::from(self.ty.target.size_components());
        let mut size = [0; 3];
        for (k, s) in size.iter_mut().enumerate().take(n) {
            *s = hash([slot as u32, level as u32, k as u32]) as i32;
        }
        size
    }
}

/// The lookup kinds GLSL 3.30 §8.7 gives `ty` in a fragment shader.
fn modes(ty: SamplerType) -> Vec<TexMode> {
    let t = ty.target;
    let shadow = ty.kind == SampleKind::Shadow;
    let mut modes = vec![TexMode::Size];
    if t == TexTarget::Buffer {
        modes.push(TexMode::Fetch);
        return modes;
    }
    modes.push(TexMode::Implicit);
    if t != TexTarget::Rect {
        if !(shadow && t == TexTarget::D2Array) {
            modes.push(TexMode::Bias);
        }
        if !(shadow && matches!(t, TexTarget::Cube | TexTarget::D2Array)) {
            modes.push(TexMode::Lod);
        }
    }
    let grad_refused = matches!(t, TexTarget::D3 | TexTarget::Cube);
    if !(grad_refused || shadow && t == TexTarget::D2Array) {
        modes.push(TexMode::Grad);
    }
    if !shadow && t != TexTarget::Cube {
        modes.push(TexMode::Fetch);
    }
    modes
}

/// `c = TEX(uTex, vA, vB)` with `lookup`, reading two varyings, on slot 1.
fn shader(ty: SamplerType, lookup: TexLookup) -> csir::ir::Shader {
    let mut h = Hand::new("tex.frag", Stage::Fragment);
    h.symbol("vA", Type::Vec4, SymbolKind::VaryingIn { slot: 0 })
        .symbol("vB", Type::Vec4, SymbolKind::VaryingIn { slot: 1 })
        .symbol(
            "uTex",
            Type::Sampler2D,
            SymbolKind::Sampler {
                slot: 1,
                sampler: ty,
            },
        )
        .symbol(
            "c",
            Type::Vec4,
            SymbolKind::ColorOut {
                location: 0,
                index: 0,
            },
        );
    h.load(Op::LoadFcoord, Type::Vec4, 0, 1);
    let a = h.load(Op::LoadVar, Type::Vec4, 0, 1);
    let b = h.load(Op::LoadVar, Type::Vec4, 1, 1);
    let out = h.zeroed();
    let d = h.temps(1);
    h.push(
        Ir::new(Op::Tex, Type::Vec4)
            .dst(d)
            .a(a)
            .b(b)
            .aux(1)
            .aux2(lookup.encode())
            .ncomp(4),
    );
    h.assign_and_store(out, d, Op::StoreColor, 0);
    h.finish_with(Limits::EXTENDED)
}

#[test]
fn every_sampler_type_and_lookup_reaches_the_texture_as_the_interpreter_does() {
    let mut rng = Rng::new(0x7e7);
    let mut checked = 0;
    // `sampler2D`'s lookups are the SAMPLE family's (`tgsi_parity.rs`), never TEX.
    for ty in SamplerType::all().filter(|&t| t != SamplerType::SAMPLER_2D) {
        for mode in modes(ty) {
            let offsets: &[[i8; 3]] = match mode {
                TexMode::Size => &[[0; 3]],
                _ if matches!(ty.target, TexTarget::Cube | TexTarget::Buffer) => &[[0; 3]],
                _ => &[[0; 3], [-3, 2, 1]],
            };
            for &o in offsets {
                let dims = ty.target.dims() as usize;
                let mut offset = [0i8; 3];
                offset[..dims].copy_from_slice(&o[..dims]);
                let lookup = TexLookup { mode, offset };
                let shader = shader(ty, lookup);
                let p =
                    Prepared::new(&shader, None).unwrap_or_else(|e| panic!("{ty} {mode:?}: {e}"));
                let target = csir::tgsi::TgsiTexture::of(ty);
                let sview = format!("DCL SVIEW[1], {}, {}", target.target, target.ret.name());
                assert!(p.text.contains(&sview), "{ty} {mode:?}:\n{}", p.text);
                let probe = Probe { ty };
                for _ in 0..8 {
                    let inputs = random_inputs(&mut rng, Rng::ordinary);
                    p.check(&inputs, &probe)
                        .unwrap_or_else(|e| panic!("{ty} {mode:?} {offset:?}: {e}"));
                }
                checked += 1;
            }
        }
    }
    // 29 sampler types, each with its lookups and offsets.
    assert!(checked > 100, "only {checked} shaders checked");
}

#[test]
fn each_lookup_kind_is_its_tgsi_instruction() {
    let cube_shadow = SamplerType::from_keyword("samplerCubeShadow").unwrap();
    let text = |ty: SamplerType, mode: TexMode, offset: [i8; 3]| {
        let shader = shader(ty, TexLookup { mode, offset });
        csir::emit_tgsi(&shader, None, None).unwrap()
    };
    let ty = |k: &str| SamplerType::from_keyword(k).unwrap();
    // the bias beside a reference in w is TXB2's second source
    assert!(
        text(cube_shadow, TexMode::Bias, [0; 3])
            .contains("TXB2 TEMP[5], TEMP[1], TEMP[2].xxxx, SAMP[1], SHADOWCUBE"),
        "{}",
        text(cube_shadow, TexMode::Bias, [0; 3])
    );
    let t = text(ty("sampler2DArray"), TexMode::Lod, [1, -2, 0]);
    assert!(
        t.contains("TXL TEMP[5], TEMP[6], SAMP[1], 2D_ARRAY, IMM["),
        "{t}"
    );
    assert!(t.contains("DCL SVIEW[1], 2D_ARRAY, FLOAT"), "{t}");
    let t = text(ty("isampler3D"), TexMode::Fetch, [0; 3]);
    assert!(t.contains("TXF TEMP[5], TEMP[6], SAMP[1], 3D"), "{t}");
    assert!(t.contains("DCL SVIEW[1], 3D, SINT"), "{t}");
    let t = text(ty("usamplerBuffer"), TexMode::Fetch, [0; 3]);
    assert!(t.contains("TXF TEMP[5], TEMP[1], SAMP[1], BUFFER"), "{t}");
    assert!(t.contains("DCL SVIEW[1], BUFFER, UINT"), "{t}");
    let t = text(ty("sampler1DArrayShadow"), TexMode::Grad, [0; 3]);
    assert!(
        t.contains("TXD TEMP[5], TEMP[1], TEMP[2].xyyy, TEMP[2].zwww, SAMP[1], SHADOW1D_ARRAY"),
        "{t}"
    );
    let t = text(ty("samplerCube"), TexMode::Size, [0; 3]);
    assert!(
        t.contains("TXQ TEMP[5].xy, TEMP[1].xxxx, SAMP[1], CUBE"),
        "{t}"
    );
    let t = text(ty("sampler2DRectShadow"), TexMode::Implicit, [0; 3]);
    assert!(
        t.contains("TEX TEMP[5], TEMP[1], SAMP[1], SHADOWRECT"),
        "{t}"
    );
    // what TXD cannot carry is refused by name
    let grad = TexLookup {
        mode: TexMode::Grad,
        offset: [0; 3],
    };
    let err = csir::emit_tgsi(&shader(ty("samplerCube"), grad), None, None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "sampler 'uTex' is a samplerCube: textureGrad on a 3D or cube sampler is not emitted \
         as TGSI (TXD reads three gradient components per direction, CSIR's TEX carries two)"
    );
}
