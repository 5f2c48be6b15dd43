//! Why one shader invocation could not be set up from the values given for it.

use csir::{Stage, UniformError};
use std::fmt;
use thiserror::Error;

/// The kind of a shader input, as messages and notes name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum InputKind {
    /// A non-sampler uniform (`--uniform`).
    Uniform,
    /// A vertex input (`--attr`).
    Attribute,
    /// A fragment input (`--varying`).
    Varying,
    /// `gl_FragCoord` (`--fragcoord`).
    FragCoord,
    /// A sampler uniform (`--texture`).
    Sampler,
}

impl InputKind {
    /// The lower-case noun (`uniform`, `attribute`, ...).
    pub fn noun(self) -> &'static str {
        match self {
            InputKind::Uniform => "uniform",
            InputKind::Attribute => "attribute",
            InputKind::Varying => "varying",
            InputKind::FragCoord => "fragcoord",
            InputKind::Sampler => "sampler",
        }
    }

    /// The command-line option that gives it.
    pub fn option(self) -> &'static str {
        match self {
            InputKind::Uniform => "--uniform",
            InputKind::Attribute => "--attr",
            InputKind::Varying => "--varying",
            InputKind::FragCoord => "--fragcoord",
            InputKind::Sampler => "--texture",
        }
    }
}

impl fmt::Display for InputKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.noun())
    }
}

/// Why the values given for an invocation do not fit the shader.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum InvocationError {
    /// `run` of a geometry shader: its invocations need a whole input primitive and
    /// give a list of vertices, which `run` cannot take or show yet (a scene draws
    /// them: docs/scene-format.md `geometry`).
    #[error(
        "{0}: running a geometry shader alone is not supported yet; draw it in a scene \
         (the draw's `geometry` key)"
    )]
    GeometryStage(String),
    /// The shader declares no input of that kind and name (or location).
    #[error("{shader} declares no {kind} '{name}'; {declared}")]
    Unknown {
        /// The shader's name.
        shader: String,
        /// What kind of input was asked for.
        kind: InputKind,
        /// The name (or attribute location) given.
        name: String,
        /// What it does declare, e.g. `its uniforms: uColor (vec3), uMVP (mat4)`; for a
        /// uniform, its samplers too, marked (`uTex (sampler2D, a sampler: give it a
        /// texture with --texture)`).
        declared: String,
    },
    /// A wrong number of floats.
    #[error("{kind} '{name}' is {ty} and takes {expected} floats, got {got}")]
    Count {
        /// What kind of input.
        kind: InputKind,
        /// Its name.
        name: String,
        /// Its type.
        ty: String,
        /// The counts allowed (`3`, or `1 to 3` for an attribute).
        expected: String,
        /// The count given.
        got: usize,
    },
    /// A uniform value the program's uniform rules refuse (a sampler given floats, an
    /// element past the end of an array, a wrong float count).
    #[error("--uniform {key}: {source}")]
    Uniform {
        /// The `--uniform` name as given.
        key: String,
        /// What `Interface::set_uniform` said.
        source: UniformError,
    },
    /// Under the extended profile an `int`/`uint`/`bool` input (scalar or vector)
    /// takes exact integers, and a value given for it is not one.
    #[error(
        "{} {name}: '{name}' is {ty} and takes integers (-2147483648..=4294967295), got {value}",
        kind.option()
    )]
    NotAnInteger {
        /// What kind of input.
        kind: InputKind,
        /// Its name as given.
        name: String,
        /// Its type.
        ty: String,
        /// The first value that is not an integer.
        value: f64,
    },
    /// An integer attribute or varying value out of the 32-bit range (uniforms report
    /// it as [`InvocationError::Uniform`]).
    #[error("{} {name}: {source}", kind.option())]
    Integer {
        /// What kind of input.
        kind: InputKind,
        /// Its name as given.
        name: String,
        /// What [`csir::uniform_lanes_from_ints`] said.
        source: UniformError,
    },
    /// `--texture` names a uniform that is not a sampler.
    #[error("--texture {name}: '{name}' is a {ty} uniform, not a sampler2D")]
    NotASampler {
        /// The uniform's name.
        name: String,
        /// Its type.
        ty: String,
    },
    /// The same input was given twice.
    #[error("{kind} '{name}' is given twice")]
    Duplicate {
        /// What kind of input.
        kind: InputKind,
        /// Its name (or location).
        name: String,
    },
    /// An option that does not apply to the shader's stage.
    #[error("{option} gives {wanted} shader inputs, but {shader} is a {actual} shader")]
    WrongStage {
        /// The option, e.g. `--attr`.
        option: &'static str,
        /// The stage it applies to.
        wanted: Stage,
        /// The shader's stage.
        actual: Stage,
        /// The shader's name.
        shader: String,
    },
    /// `--strict` and declared inputs were not given.
    #[error("--strict: every input must be given, and these are not: {}", inputs.join(", "))]
    Missing {
        /// Each input not given, as `KIND 'NAME' (TYPE, OPTION)`, in declaration order.
        inputs: Vec<String>,
    },
}
