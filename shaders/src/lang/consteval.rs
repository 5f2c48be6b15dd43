//! Compile-time values and their folding (docs/csir-original.md B §1.7, with GLSL
//! semantics).
//!
//! A constant holds up to 16 floats, column-major with a stride of 4 (column `c`, lane
//! `r` at `4c + r`), so scalars, vectors and matrices share one shape. Folding uses
//! the same f32 operations, in the same order, as the interpreter's opcodes (no fused
//! multiply-add), so a folded result has the bits the run-time code would produce
//! for ADD, SUB, MUL, MIN, MAX, ABS, RCP, RSQ, TRUNC, CMP, DOT and the matrix products
//! (MIN and MAX fold through the interpreters' own `exec::math::MinMax`, by profile).

use crate::ir::CmpCode;

/// A compile-time value: 16 floats, column-major, stride 4.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConstData(pub [f32; 16]);

impl ConstData {
    /// All zeros.
    pub const ZERO: ConstData = ConstData([0.0; 16]);

    /// Every lane of every column set to `v`.
    pub fn splat(v: f32) -> ConstData {
        ConstData([v; 16])
    }

    /// A scalar (lane 0).
    pub fn scalar(v: f32) -> ConstData {
        let mut d = ConstData::ZERO;
        d.0[0] = v;
        d
    }

    /// Lane `r` of column `c`.
    pub fn get(&self, c: usize, r: usize) -> f32 {
        self.0[4 * c + r]
    }

    /// Set lane `r` of column `c`.
    pub fn set(&mut self, c: usize, r: usize, v: f32) {
        self.0[4 * c + r] = v;
    }

    /// Column `c` as a vector constant.
    pub fn column(&self, c: usize) -> ConstData {
        let mut d = ConstData::ZERO;
        d.0[..4].copy_from_slice(&self.0[4 * c..4 * c + 4]);
        d
    }

    /// The first `n` lanes of column `c`.
    pub fn lanes(&self, c: usize, n: usize) -> &[f32] {
        &self.0[4 * c..4 * c + n]
    }

    /// Apply `f` to every lane.
    pub fn map(&self, f: impl Fn(f32) -> f32) -> ConstData {
        ConstData(self.0.map(f))
    }

    /// Apply `f` lane by lane to `self` and `other`.
    pub fn zip(&self, other: &ConstData, f: impl Fn(f32, f32) -> f32) -> ConstData {
        let mut out = ConstData::ZERO;
        for i in 0..16 {
            out.0[i] = f(self.0[i], other.0[i]);
        }
        out
    }
}

/// RCP: `1/a`, 0 for `a == 0` (docs/csir.md "Reciprocal-based division").
pub fn rcp(a: f32) -> f32 {
    if a == 0.0 { 0.0 } else { 1.0 / a }
}

/// RSQ: `1/sqrt(a)`, 0 for `a <= 0` or NaN (docs/csir-original.md A1).
pub fn rsq(a: f32) -> f32 {
    if a > 0.0 { 1.0 / a.sqrt() } else { 0.0 }
}

/// CMP: 1.0 or 0.0 (IEEE: NaN compares false except `!=`).
pub fn cmp(code: CmpCode, a: f32, b: f32) -> f32 {
    if code.eval(a, b) { 1.0 } else { 0.0 }
}

/// DOT over `n` lanes, summed left to right.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut s = a[0] * b[0];
    for i in 1..a.len().min(b.len()) {
        s += a[i] * b[i];
    }
    s
}

/// MULMV: matrix `m` of `cols` columns and `rows` rows times vector `v` (`cols`
/// lanes): `r[i] = Σ_k m[k][i]·v[k]`, summed in order of `k`.
pub fn mul_mv(m: &ConstData, v: &ConstData, cols: usize, rows: usize) -> ConstData {
    let mut out = ConstData::ZERO;
    for i in 0..rows {
        let mut s = m.get(0, i) * v.get(0, 0);
        for k in 1..cols {
            s += m.get(k, i) * v.get(0, k);
        }
        out.set(0, i, s);
    }
    out
}

/// MULMM: column j of the result is `a × column j of b`; `a` is `a_cols` × `a_rows`,
/// `b` has `b_cols` columns of `a_cols` rows.
pub fn mul_mm(
    a: &ConstData,
    b: &ConstData,
    a_cols: usize,
    a_rows: usize,
    b_cols: usize,
) -> ConstData {
    let mut out = ConstData::ZERO;
    for j in 0..b_cols {
        let col = mul_mv(a, &b.column(j), a_cols, a_rows);
        out.0[4 * j..4 * j + 4].copy_from_slice(&col.0[..4]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpreter_rules() {
        assert_eq!(rcp(0.0), 0.0);
        assert_eq!(rsq(-1.0), 0.0);
        assert_eq!(rsq(f32::NAN), 0.0);
        assert_eq!(rsq(4.0), 0.5);
        assert_eq!(cmp(CmpCode::Ne, f32::NAN, 1.0), 1.0);
    }

    #[test]
    fn matrix_products_are_column_major() {
        // m = [[1,2],[3,4]] as columns (1,2,0) (3,4,0) (0,0,1) in a mat3.
        let mut m = ConstData::ZERO;
        m.set(0, 0, 1.0);
        m.set(0, 1, 2.0);
        m.set(1, 0, 3.0);
        m.set(1, 1, 4.0);
        m.set(2, 2, 1.0);
        let mut v = ConstData::ZERO;
        v.0[..3].copy_from_slice(&[1.0, 1.0, 1.0]);
        assert_eq!(mul_mv(&m, &v, 3, 3).lanes(0, 3), &[4.0, 6.0, 1.0]);
        let mm = mul_mm(&m, &m, 3, 3, 3);
        assert_eq!(mm.lanes(0, 3), &[7.0, 10.0, 0.0]);
    }
}
