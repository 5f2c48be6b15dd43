//! Pool sizes and interface limits, defaulting to the seed (reference A3).

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
    /// Source size in bytes (reference A3: 64 KiB).
    pub source_bytes: usize,
    /// Iterations one `for` loop may unroll to (reference A3: 64; also bounded by the IR pool).
    pub unroll: usize,
    /// Errors reported per compile (seed: 8).
    pub errors: usize,
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
    };

    /// A larger profile for real-world shaders; indices still fit in `i16`.
    pub const LARGE: Limits = Limits {
        instructions: 4096,
        immediates: 2048,
        temporaries: 1024,
        if_depth: 32,
        attributes: 8,
        varyings: 8,
        uniform_slots: 256,
        samplers: 4,
        source_bytes: 256 * 1024,
        unroll: 256,
        errors: 8,
    };

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
        if self.varyings > 32 || self.attributes > 32 || self.samplers > 32 {
            return Err("interface");
        }
        Ok(())
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::SEED
    }
}
