//! Binding values given by name (`--uniform`, `--attr`, `--varying`, `--fragcoord`,
//! `--texture`) to one shader's slots, and noting or refusing the inputs not given
//! (the rules are on [`run_invocation`](super::run_invocation)).

use super::assignment::Assignment;
use super::invocation::{DEFAULT_FRAG_COORD, DefaultedInput};
use super::invocation_error::{InputKind, InvocationError};
use crate::pipeline::SlotSamplers;
use crate::texture::{Sampler, Texture};
use csir::exec::{DEFAULT_ATTRIBUTE, DEFAULT_INT_ATTRIBUTE};
use csir::ir::{Effect, IfTable, Input, Interface, InterfaceSymbol, SymbolKind};
use csir::{IntLanes, Ir, Layout, Shader, Stage, Type, UniformKey, uniform_lanes_from_ints};

/// Binds named values to one shader's slots.
pub(super) struct InputBinder<'s> {
    shader: &'s Shader,
    /// The verifier's IF/ELSE/ENDIF partners of `shader` (empty if it does not verify).
    ifs: &'s IfTable,
}

impl<'s> InputBinder<'s> {
    pub(super) fn new(shader: &'s Shader, ifs: &'s IfTable) -> Self {
        InputBinder { shader, ifs }
    }

    fn interface(&self) -> &'s Interface {
        &self.shader.interface
    }

    /// Registers hold integers as 32-bit patterns (the extended profile).
    fn patterns(&self) -> bool {
        self.shader.limits.extended_ops()
    }

    /// The lanes `given` sets for an input of type `ty`, when they are not its floats:
    /// under the extended profile an `int`/`uint`/`bool` input (scalar or vector)
    /// takes exact integers, turned into lanes as a scene's integer uniforms are
    /// ([`uniform_lanes_from_ints`]: the 32-bit pattern, −2^31..=2^32 − 1; a bool 1.0
    /// when nonzero). `None` for a float input and for every input of the seed
    /// profile, whose integers are float values (`docs/architecture.md`, "Profiles").
    ///
    /// Errors: a value that is not an integer ([`InvocationError::NotAnInteger`]), one
    /// out of range ([`InvocationError::Uniform`] for a uniform, else
    /// [`InvocationError::Integer`]).
    fn integer_lanes(
        &self,
        kind: InputKind,
        given: &Assignment,
        ty: Type,
    ) -> Result<Option<Vec<f32>>, InvocationError> {
        if !self.patterns() || !(ty.is_integer() || ty == Type::Bool) {
            return Ok(None);
        }
        let ints = given
            .integers()
            .map_err(|value| InvocationError::NotAnInteger {
                kind,
                name: given.name.clone(),
                ty: ty.to_string(),
                value,
            })?;
        uniform_lanes_from_ints(&given.name, ty, &ints, true)
            .map(Some)
            .map_err(|source| match kind {
                InputKind::Uniform => InvocationError::Uniform {
                    key: given.name.clone(),
                    source,
                },
                _ => InvocationError::Integer {
                    kind,
                    name: given.name.clone(),
                    source,
                },
            })
    }

    pub(super) fn declaration_order(&self, name: &str) -> usize {
        let base = UniformKey::parse(name).map_or(name, |key| key.name);
        self.interface()
            .symbols
            .iter()
            .position(|s| s.name == base)
            .unwrap_or(usize::MAX)
    }

    pub(super) fn wrong_stage(&self, kind: InputKind, wanted: Stage) -> InvocationError {
        InvocationError::WrongStage {
            option: kind.option(),
            wanted,
            actual: self.shader.stage,
            shader: self.shader.name.clone(),
        }
    }

    pub(super) fn check_stage(
        &self,
        given: &[Assignment],
        kind: InputKind,
        wanted: Stage,
    ) -> Result<(), InvocationError> {
        if !given.is_empty() && self.shader.stage != wanted {
            return Err(self.wrong_stage(kind, wanted));
        }
        Ok(())
    }

    /// The error for a `kind` input `name` the shader does not declare, listing what it
    /// does declare of that kind. Samplers are uniforms too: the list for a uniform
    /// names them, marked as samplers (given with `--texture`).
    fn unknown(&self, kind: InputKind, name: &str) -> InvocationError {
        let listed = |s: &InterfaceSymbol| match symbol_kind(s) {
            Some(InputKind::Sampler) => matches!(kind, InputKind::Sampler | InputKind::Uniform),
            other => other == Some(kind),
        };
        let declared: Vec<String> = self
            .interface()
            .symbols
            .iter()
            .filter(|s| listed(s))
            .map(|s| {
                let ty = Layout::of(s).type_name();
                match s.kind {
                    SymbolKind::Attribute { location } => format!("{location} {} ({ty})", s.name),
                    SymbolKind::Sampler { .. } if kind == InputKind::Uniform => {
                        format!(
                            "{} ({ty}, a sampler: give it a texture with --texture)",
                            s.name
                        )
                    }
                    _ => format!("{} ({ty})", s.name),
                }
            })
            .collect();
        let declared = if declared.is_empty() {
            format!("it declares no {kind}s")
        } else {
            format!("its {kind}s: {}", declared.join(", "))
        };
        InvocationError::Unknown {
            shader: self.shader.name.clone(),
            kind,
            name: name.to_string(),
            declared,
        }
    }

    /// The stage's uniform vec4 slots, set through [`Interface::set_uniform`] (the
    /// layout, conversions and count rules of a scene's `uniforms`, which a linked
    /// program applies to both stages; an integer uniform of the extended profile
    /// takes exact integers, see [`InputBinder::integer_lanes`]).
    pub(super) fn uniforms(
        &self,
        given: &[Assignment],
        defaulted: &mut Vec<DefaultedInput>,
    ) -> Result<Vec<[f32; 4]>, InvocationError> {
        let mut slots = self.interface().new_uniforms();
        let mut seen: Vec<(&str, Option<usize>)> = Vec::new();
        for a in given {
            let declared = UniformKey::parse(&a.name).and_then(|key| {
                let symbol = self.interface().find(key.name)?;
                let uniform = matches!(
                    symbol.kind,
                    SymbolKind::Uniform { .. } | SymbolKind::Sampler { .. }
                );
                uniform.then_some((key, symbol))
            });
            let Some((key, symbol)) = declared else {
                return Err(self.unknown(InputKind::Uniform, &a.name));
            };
            if seen.contains(&(key.name, key.element)) {
                return Err(InvocationError::Duplicate {
                    kind: InputKind::Uniform,
                    name: a.name.clone(),
                });
            }
            seen.push((key.name, key.element));
            let set = match self.integer_lanes(InputKind::Uniform, a, symbol.ty)? {
                Some(lanes) => self.interface().set_uniform_lanes(
                    &mut slots,
                    &a.name,
                    &lanes,
                    IntLanes::AsStored,
                ),
                None => self.interface().set_uniform(&mut slots, &a.name, &a.values),
            };
            set.map_err(|source| InvocationError::Uniform {
                key: a.name.clone(),
                source,
            })?;
        }
        for s in &self.interface().symbols {
            if !matches!(s.kind, SymbolKind::Uniform { .. })
                || seen.contains(&(s.name.as_str(), None))
            {
                continue;
            }
            let layout = Layout::of(s);
            let elements: Vec<Option<usize>> = match s.array_len {
                None => vec![None],
                Some(n) => (0..n as usize)
                    .filter(|&i| !seen.contains(&(s.name.as_str(), Some(i))))
                    .map(Some)
                    .collect(),
            };
            for element in elements {
                let (name, layout) = match element {
                    Some(i) => (format!("{}[{i}]", s.name), layout.element()),
                    None => (s.name.clone(), layout),
                };
                let zeros = vec![0.0; layout.float_count()];
                missing(
                    InputKind::Uniform,
                    name,
                    layout.type_name(),
                    zeros,
                    defaulted,
                );
            }
        }
        Ok(slots)
    }

    /// Textures by sampler slot, nearest / clamp-to-edge.
    pub(super) fn samplers<'t>(
        &self,
        given: &'t [(String, Texture)],
        defaulted: &mut Vec<DefaultedInput>,
    ) -> Result<SlotSamplers<'t>, InvocationError> {
        let mut samplers = SlotSamplers::default();
        let mut seen: Vec<&str> = Vec::new();
        for (name, texture) in given {
            let slot = match self.interface().find(name).map(|s| (s.kind, s)) {
                Some((SymbolKind::Sampler { slot, .. }, _)) => slot,
                Some((SymbolKind::Uniform { .. }, s)) => {
                    return Err(InvocationError::NotASampler {
                        name: name.clone(),
                        ty: Layout::of(s).type_name(),
                    });
                }
                _ => return Err(self.unknown(InputKind::Sampler, name)),
            };
            if seen.contains(&name.as_str()) {
                return Err(InvocationError::Duplicate {
                    kind: InputKind::Sampler,
                    name: name.clone(),
                });
            }
            seen.push(name);
            samplers.bind(slot, texture, Sampler::default());
        }
        for s in &self.interface().symbols {
            if matches!(s.kind, SymbolKind::Sampler { .. }) && !seen.contains(&s.name.as_str()) {
                let ty = Layout::of(s).type_name();
                missing(
                    InputKind::Sampler,
                    s.name.clone(),
                    ty,
                    Vec::new(),
                    defaulted,
                );
            }
        }
        Ok(samplers)
    }

    /// Attribute values by location, widened with (0, 0, 0, 1) (an integer attribute
    /// of the extended profile takes exact integers and is widened with the integers:
    /// [`DEFAULT_INT_ATTRIBUTE`]).
    pub(super) fn attributes(
        &self,
        given: &[Assignment],
        defaulted: &mut Vec<DefaultedInput>,
    ) -> Result<Vec<[f32; 4]>, InvocationError> {
        let mut values = vec![DEFAULT_ATTRIBUTE; self.shader.limits.attributes];
        let mut seen: Vec<u16> = Vec::new();
        for a in given {
            let by_location = a.name.parse::<u16>().ok();
            let symbol = self.interface().symbols.iter().find(|s| match s.kind {
                SymbolKind::Attribute { location } => {
                    by_location.map_or(s.name == a.name, |l| l == location)
                }
                _ => false,
            });
            let (Some(s), Some(location)) = (symbol, symbol.and_then(attribute_location)) else {
                return Err(self.unknown(InputKind::Attribute, &a.name));
            };
            let width = (s.ty.width() as usize).clamp(1, 4);
            if a.values.is_empty() || a.values.len() > width {
                return Err(InvocationError::Count {
                    kind: InputKind::Attribute,
                    name: s.name.clone(),
                    ty: Layout::of(s).type_name(),
                    expected: if width == 1 {
                        "1".into()
                    } else {
                        format!("1 to {width}")
                    },
                    got: a.values.len(),
                });
            }
            if seen.contains(&location) {
                return Err(InvocationError::Duplicate {
                    kind: InputKind::Attribute,
                    name: s.name.clone(),
                });
            }
            seen.push(location);
            let lanes = self.integer_lanes(InputKind::Attribute, a, s.ty)?;
            let l = location as usize;
            if values.len() <= l {
                values.resize(l + 1, DEFAULT_ATTRIBUTE);
            }
            values[l] = match lanes {
                Some(_) => DEFAULT_INT_ATTRIBUTE,
                None => DEFAULT_ATTRIBUTE,
            };
            let given = lanes.as_deref().unwrap_or(&a.values);
            values[l][..given.len()].copy_from_slice(given);
        }
        for s in &self.interface().symbols {
            let Some(location) = attribute_location(s) else {
                continue;
            };
            if !seen.contains(&location) {
                let l = location as usize;
                if self.patterns() && s.ty.is_integer() && l < values.len() {
                    values[l] = DEFAULT_INT_ATTRIBUTE;
                }
                let width = (s.ty.width() as usize).clamp(1, 4);
                let value = DEFAULT_ATTRIBUTE[..width].to_vec();
                missing(
                    InputKind::Attribute,
                    s.name.clone(),
                    s.ty.to_string(),
                    value,
                    defaulted,
                );
            }
        }
        Ok(values)
    }

    /// Fragment inputs by fragment-local slot (the identity remap).
    pub(super) fn varyings(
        &self,
        given: &[Assignment],
        defaulted: &mut Vec<DefaultedInput>,
    ) -> Result<Vec<[f32; 4]>, InvocationError> {
        let mut slots = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        for a in given {
            let symbol = self
                .interface()
                .symbols
                .iter()
                .find(|s| s.name == a.name && matches!(s.kind, SymbolKind::VaryingIn { .. }));
            let Some((s, SymbolKind::VaryingIn { slot })) = symbol.map(|s| (s, s.kind)) else {
                return Err(self.unknown(InputKind::Varying, &a.name));
            };
            let layout = Layout::of(s);
            let expected = layout.float_count();
            if a.values.len() != expected {
                return Err(InvocationError::Count {
                    kind: InputKind::Varying,
                    name: s.name.clone(),
                    ty: layout.type_name(),
                    expected: expected.to_string(),
                    got: a.values.len(),
                });
            }
            if seen.contains(&s.name.as_str()) {
                return Err(InvocationError::Duplicate {
                    kind: InputKind::Varying,
                    name: s.name.clone(),
                });
            }
            seen.push(&s.name);
            let lanes = self.integer_lanes(InputKind::Varying, a, s.ty)?;
            let end = slot as usize + layout.slot_count();
            if slots.len() < end {
                slots.resize(end, [0.0; 4]);
            }
            layout.write(
                lanes.as_deref().unwrap_or(&a.values),
                &mut slots,
                slot as usize,
            );
        }
        for s in &self.interface().symbols {
            if matches!(s.kind, SymbolKind::VaryingIn { .. }) && !seen.contains(&s.name.as_str()) {
                let layout = Layout::of(s);
                let zeros = vec![0.0; layout.float_count()];
                missing(
                    InputKind::Varying,
                    s.name.clone(),
                    layout.type_name(),
                    zeros,
                    defaulted,
                );
            }
        }
        Ok(slots)
    }

    /// `gl_FragCoord`: the 4 floats given, or [`DEFAULT_FRAG_COORD`] (noted when the
    /// shader reads it).
    pub(super) fn frag_coord(
        &self,
        given: Option<&[f32]>,
        defaulted: &mut Vec<DefaultedInput>,
    ) -> Result<[f32; 4], InvocationError> {
        match given {
            Some(&[x, y, z, w]) => Ok([x, y, z, w]),
            Some(other) => Err(InvocationError::Count {
                kind: InputKind::FragCoord,
                name: "gl_FragCoord".into(),
                ty: "vec4".into(),
                expected: "4".into(),
                got: other.len(),
            }),
            None => {
                if reads_frag_coord(&self.shader.ir, self.ifs) {
                    missing(
                        InputKind::FragCoord,
                        "gl_FragCoord".into(),
                        "vec4".into(),
                        DEFAULT_FRAG_COORD.to_vec(),
                        defaulted,
                    );
                }
                Ok(DEFAULT_FRAG_COORD)
            }
        }
    }
}

/// A declared input that was not given: noted with its default value (an error
/// later when strict).
fn missing(
    kind: InputKind,
    name: String,
    ty: String,
    value: Vec<f32>,
    defaulted: &mut Vec<DefaultedInput>,
) {
    defaulted.push(DefaultedInput {
        kind,
        name,
        ty,
        value,
    });
}

/// Whether the value of some LOAD_FCOORD is used. The prologue loads `gl_FragCoord`
/// into a temporary in every fragment shader; only a shader that reads that temporary
/// before it is overwritten depends on `--fragcoord`. A write inside an IF opened
/// after the load does not end the search (the other path may still read the
/// coordinate). `ifs` is the verifier's table for `ir`.
fn reads_frag_coord(ir: &[Ir], ifs: &IfTable) -> bool {
    ir.iter().enumerate().any(|(start, load)| {
        if load.info().map(|info| info.effect) != Some(Effect::Load(Input::FragCoord)) {
            return false;
        }
        for (at, later) in ir.iter().enumerate().skip(start + 1) {
            if later.reads().any(|t| t == load.dst) {
                return true;
            }
            let overwritten = later.writes().is_some_and(|(first, count)| {
                (first..first.saturating_add(count)).contains(&load.dst)
            });
            let conditional = ifs
                .blocks()
                .iter()
                .any(|b| b.if_at > start && b.encloses(at));
            if overwritten && !conditional {
                return false;
            }
        }
        false
    })
}

/// The input kind a symbol is given with, if any.
fn symbol_kind(s: &InterfaceSymbol) -> Option<InputKind> {
    match s.kind {
        SymbolKind::Uniform { .. } => Some(InputKind::Uniform),
        SymbolKind::Sampler { .. } => Some(InputKind::Sampler),
        SymbolKind::Attribute { .. } => Some(InputKind::Attribute),
        SymbolKind::VaryingIn { .. } => Some(InputKind::Varying),
        SymbolKind::VaryingOut { .. } | SymbolKind::ColorOut { .. } => None,
    }
}

fn attribute_location(s: &InterfaceSymbol) -> Option<u16> {
    match s.kind {
        SymbolKind::Attribute { location } => Some(location),
        _ => None,
    }
}
