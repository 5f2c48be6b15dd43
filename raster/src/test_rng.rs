//! The unit tests' pseudo-random numbers: a xorshift64 generator (Marsaglia,
//! "Xorshift RNGs", 2003, shifts 13, 7, 17), deterministic so a failure repeats.

/// The generator started at `seed` (not 0): each call gives the next 64-bit value.
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}
