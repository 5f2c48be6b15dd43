//! The level of detail λ of a 2D texture lookup from its coordinate gradients (GL 3.0
//! §3.9.7, "Scale Factor and Level of Detail"; GL 4.6 §8.14.1), computed as llvmpipe
//! computes it, so that mip levels switch where they switch on llvmpipe.
//!
//! GL defines `ρ = max(√((∂u/∂x)² + (∂v/∂x)²), √((∂u/∂y)² + (∂v/∂y)²))` with
//! `u = s·width`, `v = t·height`, and `λ_base = log2(ρ)`, and allows approximations
//! of both. llvmpipe's default (docs/csir.md "Sampling", "Level of detail") keeps the
//! exact ρ² (no square root: `λ = ½·log2(ρ²)`), takes ρ² = 0 for an infinite or NaN
//! ρ², and replaces log2 by the piecewise-linear `fast_log2`: for `x = m·2^e` with
//! `m` in [1, 2), `e + (m − 1)`, exact at powers of two. So λ is exact whenever ρ is
//! a power of two, and elsewhere within 0.043 of `log2 ρ` (never above it).

/// λ = `½ · fast_log2(ρ²)` for a `size = [width, height]` texture (in texels, level
/// 0's size: GL's `level_base`) and the gradients `[ds/dx, dt/dx, ds/dy, dt/dy]` of
/// the normalised coordinate per pixel (what `textureGrad`'s `dPdx`, `dPdy` give).
///
/// `ρ² = max((ds/dx·w)² + (dt/dx·h)², (ds/dy·w)² + (dt/dy·h)²)`, 0 when infinite or
/// NaN. Zero gradients (and an empty texture) give λ = −127, which is magnified.
/// The result is finite for every input. Bias, clamping and the choice of level are
/// the sampler's ([`Samplers::sample_lod`](super::Samplers::sample_lod)).
pub fn lod_from_gradients(size: [u32; 2], [dsdx, dtdx, dsdy, dtdy]: [f32; 4]) -> f32 {
    let (w, h) = (size[0] as f32, size[1] as f32);
    let square = |v: f32| v * v;
    let along_x = square(dsdx * w) + square(dtdx * h);
    let along_y = square(dsdy * w) + square(dtdy * h);
    let rho_squared = along_x.max(along_y);
    let rho_squared = if rho_squared.is_finite() {
        rho_squared
    } else {
        0.0
    };
    0.5 * fast_log2(rho_squared)
}

/// llvmpipe's piecewise-linear log2 of a finite `x ≥ 0`: `(e − 1) + m` where `e` is
/// the biased exponent field minus 127 and `m` the mantissa with the exponent of 1.0,
/// so `x = m·2^e` gives `log2 x` exactly at powers of two and a chord between them.
/// 0 (and denormals, read by their fields) give about −127.
pub fn fast_log2(x: f32) -> f32 {
    let bits = x.to_bits();
    let exponent = ((bits >> 23) & 0xff) as i32 - 128;
    let mantissa = f32::from_bits((bits & 0x007f_ffff) | 0x3f80_0000);
    exponent as f32 + mantissa
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_log2_is_exact_at_powers_of_two_and_a_chord_between() {
        for k in -20..20 {
            assert_eq!(fast_log2(2f32.powi(k)), k as f32);
        }
        assert_eq!(fast_log2(1.5), 0.5); // log2(1.5) = 0.585
        assert_eq!(fast_log2(3.0), 1.5); // log2(3) = 1.585
        assert_eq!(fast_log2(0.0), -127.0);
    }

    #[test]
    fn lod_of_known_gradients() {
        let size = [64, 64];
        // one texel per pixel: ρ = 1, λ = 0
        assert_eq!(
            lod_from_gradients(size, [1.0 / 64.0, 0.0, 0.0, 1.0 / 64.0]),
            0.0
        );
        // four texels per pixel along x: ρ = 4, λ = 2
        assert_eq!(
            lod_from_gradients(size, [4.0 / 64.0, 0.0, 0.0, 1.0 / 64.0]),
            2.0
        );
        // ρ is the longer of the two gradients, each a Euclidean length: (3, 4) → 5
        let lod = lod_from_gradients(size, [3.0 / 64.0, 4.0 / 64.0, 0.0, 1.0 / 64.0]);
        // ρ² = 25 = 1.5625·2^4: ½·(4 + 0.5625) = 2.28125 (log2 5 = 2.32)
        assert_eq!(lod, 2.28125);
        // sign does not matter; the y gradient can be the larger
        assert_eq!(lod_from_gradients(size, [0.0, 0.0, -8.0 / 64.0, 0.0]), 3.0);
        // minification by half a texel: λ = −1 (magnified)
        assert_eq!(lod_from_gradients(size, [0.5 / 64.0, 0.0, 0.0, 0.0]), -1.0);
        // the width and height scale s and t separately
        assert_eq!(
            lod_from_gradients([256, 16], [0.0, 1.0 / 8.0, 0.0, 0.0]),
            1.0
        );
        assert_eq!(
            lod_from_gradients([256, 16], [1.0 / 128.0, 0.0, 0.0, 0.0]),
            1.0
        );
    }

    #[test]
    fn degenerate_gradients_give_a_finite_magnified_lod() {
        assert_eq!(lod_from_gradients([64, 64], [0.0; 4]), -63.5);
        assert_eq!(lod_from_gradients([0, 0], [1.0; 4]), -63.5);
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, f32::MAX] {
            let lod = lod_from_gradients([64, 64], [bad, 0.0, 0.0, 0.0]);
            assert_eq!(lod, -63.5, "{bad}");
        }
    }
}
