//! Pool sizes and interface limits, defaulting to the seed (docs/csir-original.md A3), and
//! the two CSIR profiles (`docs/architecture.md`, "Profiles").

use std::fmt;

/// Most varying vec4 slots a linked program passes from its vertex to its fragment
/// shader: 16, i.e. 64 floats, GL 3.0's minimum `GL_MAX_VARYING_COMPONENTS`. The one
/// varying limit: [`Program::link`](crate::Program::link) refuses a program whose
/// fragment shader reads more slots ([`LinkError::TooManyVaryings`](crate::LinkError)),
/// the extended profile declares exactly this many, and the renderer's rasterizer
/// limit (`csir_raster::MAX_VARYINGS` floats) is checked against it when csir-render
/// compiles. A single shader may address more slots ([`MAX_SHADER_VARYINGS`]) under a
/// custom profile; only a program that passes them fails.
pub const MAX_VARYINGS: usize = 16;

/// Most varying slots one shader may address: the largest `Limits::varyings`
/// [`Limits::validate`] accepts and the capacity of the interpreter's
/// [`Outputs::varyings`](crate::exec::Outputs): twice [`MAX_VARYINGS`], so that a
/// shader compiled under a larger custom profile still compiles and runs on its own
/// (`csir-render run`) and its program fails at link with a message naming the limit.
pub const MAX_SHADER_VARYINGS: usize = 2 * MAX_VARYINGS;

/// Which CSIR a shader is compiled to and may contain (`docs/architecture.md`,
/// "Profiles").
///
/// - [`Profile::Seed`]: exactly the seed's CSIR: opcodes 0..=32, integers held as
///   float values (exact to 2^24), the seed's pools ([`Limits::SEED`]). Every shader
///   that compiled before the profiles existed compiles to the same IR and CSI v1
///   bytes under it (`tests/golden/`).
/// - [`Profile::Extended`]: the seed's CSIR plus the instructions that take new codes
///   (33 on) and pools the size of GL 3.0's minimums ([`Limits::EXTENDED`]). The
///   renderer's default ([`Profile::default`]).
///
/// The default is the extended profile, the renderer's. (The library's
/// [`Limits::default`] stays the seed's, so code that names no profile keeps the
/// seed's behaviour.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Profile {
    /// The seed's CSIR and limits.
    Seed,
    /// The seed's CSIR plus the extended instructions, with larger pools.
    #[default]
    Extended,
}

impl Profile {
    /// Both profiles, seed first.
    pub const ALL: [Profile; 2] = [Profile::Seed, Profile::Extended];

    /// The profile's limits: [`Limits::SEED`] or [`Limits::EXTENDED`].
    pub const fn limits(self) -> Limits {
        match self {
            Profile::Seed => Limits::SEED,
            Profile::Extended => Limits::EXTENDED,
        }
    }

    /// The name used on the command line and in messages: `seed` or `extended`.
    pub const fn name(self) -> &'static str {
        match self {
            Profile::Seed => "seed",
            Profile::Extended => "extended",
        }
    }

    /// The profile named `name` (`seed` or `extended`), if any.
    pub fn from_name(name: &str) -> Option<Profile> {
        Profile::ALL.into_iter().find(|p| p.name() == name)
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every fixed capacity of a shader in one value. The defaults are the seed's
/// (`SH_IR_MAX` 384, `SH_IMM_MAX` 160, `SH_TEMP_MAX` 96, IF depth 32, 8 attribute and
/// 8 varying locations, 32 uniform vec4 slots, 4 samplers) plus the front end's own
/// bounds (64 KiB of source, 64 unrolled iterations per loop, 8 logged errors).
///
/// Indices in [`Ir`](super::Ir) are `i16`, so every pool must stay below 32768;
/// [`Limits::validate`] checks that for custom profiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Maximum instruction records (seed: 384).
    pub instructions: usize,
    /// Maximum immediate floats (seed: 160).
    pub immediates: usize,
    /// Maximum vec4 temporaries (seed: 96).
    pub temporaries: usize,
    /// Maximum IF nesting (seed: 32).
    pub if_depth: usize,
    /// Vertex attribute locations 0..attributes (seed: 8).
    pub attributes: usize,
    /// Varying slots 0..varyings (seed: 8).
    pub varyings: usize,
    /// Uniform vec4 slots per stage (seed: 32).
    pub uniform_slots: usize,
    /// Sampler slots per stage (seed: 4).
    pub samplers: usize,
    /// Source size in bytes (docs/csir-original.md A3: 64 KiB).
    pub source_bytes: usize,
    /// Iterations one `for` loop may unroll to (docs/csir-original.md A3: 64; also bounded
    /// by the IR pool).
    pub unroll: usize,
    /// Errors reported per compile (seed: 8).
    pub errors: usize,
    /// The profile, and so the instruction set allowed: the verifier rejects an opcode the profile does
    /// not have, and the front end compiles to the profile's instructions.
    pub profile: Profile,
}

impl Limits {
    /// The seed's profile.
    pub const SEED: Limits = Limits {
        instructions: 384,
        immediates: 160,
        temporaries: 96,
        if_depth: 32,
        attributes: 8,
        varyings: 8,
        uniform_slots: 32,
        samplers: 4,
        source_bytes: 64 * 1024,
        unroll: 64,
        errors: 8,
        profile: Profile::Seed,
    };

    /// The extended profile's limits: the seed's IF depth, source size and error
    /// count; 16 sampler units per stage (GL 3.3's `GL_MAX_TEXTURE_IMAGE_UNITS`
    /// minimum); 256 unrolled iterations per loop; pools sixteen times the seed's (10.7× for instructions), and the interface of
    /// GL 3.0's minimums: 16 attributes, 16 varying vec4s (64 components, GL 3.0's
    /// `GL_MAX_VARYING_COMPONENTS`), 256 uniform vec4s per stage (1024 components,
    /// `GL_MAX_*_UNIFORM_COMPONENTS`). Indices still fit in `i16`; 16 varying vec4s are
    /// [`MAX_VARYINGS`], what a linked program may pass.
    pub const EXTENDED: Limits = Limits {
        instructions: 4096,
        immediates: 2048,
        temporaries: 1024,
        if_depth: 32,
        attributes: 16,
        varyings: MAX_VARYINGS,
        uniform_slots: 256,
        samplers: 16,
        source_bytes: 64 * 1024,
        unroll: 256,
        errors: 8,
        profile: Profile::Extended,
    };

    /// The largest limits the crate ships (for loaders that accept any shader the
    /// crate can produce): [`Limits::EXTENDED`].
    pub const LARGE: Limits = Limits::EXTENDED;

    /// The seed profile's limits, [`Limits::SEED`].
    pub const fn seed() -> Limits {
        Limits::SEED
    }

    /// The extended profile's limits, [`Limits::EXTENDED`].
    pub const fn extended() -> Limits {
        Limits::EXTENDED
    }

    /// Whether these limits allow the extended instructions.
    pub const fn extended_ops(&self) -> bool {
        matches!(self.profile, Profile::Extended)
    }

    /// The deepest chain of nested user-function calls the front end inlines (a
    /// deeper call is the error "call depth limit"): 8 in the seed profile, the
    /// original's limit (docs/csir-original.md B §1), 32 in the extended profile
    /// (GLSL sets no limit; piglit's function-chain tests nest 16 calls). The
    /// compile-time work limit bounds what the inlined copies cost either way.
    pub const fn call_depth(&self) -> usize {
        match self.profile {
            Profile::Seed => 8,
            Profile::Extended => 32,
        }
    }

    /// Check that every pool fits the `i16` fields of the record and is non-zero
    /// where zero makes no sense. Returns the offending field's name.
    pub fn validate(&self) -> Result<(), &'static str> {
        let max = i16::MAX as usize;
        let fields = [
            ("instructions", self.instructions),
            ("immediates", self.immediates),
            ("temporaries", self.temporaries),
            ("if_depth", self.if_depth),
            ("attributes", self.attributes),
            ("varyings", self.varyings),
            ("uniform_slots", self.uniform_slots),
            ("samplers", self.samplers),
        ];
        for (name, v) in fields {
            if v > max {
                return Err(name);
            }
        }
        if self.varyings > MAX_SHADER_VARYINGS || self.attributes > 32 || self.samplers > 32 {
            return Err("interface");
        }
        Ok(())
    }
}

/// The seed's limits ([`Limits::SEED`]); the renderer's default profile is
/// [`Profile::default`] (extended).
impl Default for Limits {
    fn default() -> Self {
        Limits::SEED
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_profile_is_the_seeds_limits_exactly() {
        let seed = Limits::seed();
        assert_eq!(
            (
                seed.instructions,
                seed.immediates,
                seed.temporaries,
                seed.if_depth
            ),
            (384, 160, 96, 32)
        );
        assert_eq!(
            (
                seed.attributes,
                seed.varyings,
                seed.uniform_slots,
                seed.samplers
            ),
            (8, 8, 32, 4)
        );
        assert_eq!(
            (seed.source_bytes, seed.unroll, seed.errors),
            (65536, 64, 8)
        );
        assert_eq!(seed.profile, Profile::Seed);
        assert_eq!(Limits::default(), seed);
        assert_eq!(Profile::Seed.limits(), seed);
    }

    #[test]
    fn the_extended_profile_is_the_default_and_has_gl_3_0_interface_sizes() {
        let ext = Profile::default().limits();
        assert_eq!(ext, Limits::EXTENDED);
        assert_eq!(ext.profile, Profile::Extended);
        // GL 3.0: 64 varying components, 1024 uniform components, 16 attributes.
        assert_eq!(ext.varyings * 4, 64);
        assert_eq!(ext.uniform_slots * 4, 1024);
        assert_eq!(ext.attributes, 16);
        assert!(ext.validate().is_ok());
        assert!(ext.extended_ops() && !Limits::SEED.extended_ops());
        assert_eq!(Profile::from_name("seed"), Some(Profile::Seed));
        assert_eq!(Profile::from_name("extended"), Some(Profile::Extended));
        assert_eq!(Profile::from_name("large"), None);
        assert_eq!(Profile::Extended.to_string(), "extended");
    }
}
