//! Bounds-checked access to a temporary file of float4 registers, generic over the
//! lane type (`f32` for the scalar interpreter, `f32x8` for batches).

use super::Fault;

/// Index of temporary `t` (an `i16` field plus an offset, computed in `i32`) in a file
/// of `len` registers.
#[inline]
pub(crate) fn index(len: usize, t: i32) -> Result<usize, Fault> {
    usize::try_from(t)
        .ok()
        .filter(|&i| i < len)
        .ok_or(Fault::Temporary(t))
}

/// A copy of register `t`.
#[inline]
pub(crate) fn read<L: Copy>(temps: &[[L; 4]], t: i32) -> Result<[L; 4], Fault> {
    Ok(temps[index(temps.len(), t)?])
}

/// Register `t` for writing.
#[inline]
pub(crate) fn write<L>(temps: &mut [[L; 4]], t: i32) -> Result<&mut [L; 4], Fault> {
    let i = index(temps.len(), t)?;
    Ok(&mut temps[i])
}

/// Copies of `count` (1..=4) consecutive registers starting at `first`, as matrix
/// columns; entries past `count` repeat `fill`.
#[inline]
pub(crate) fn read_columns<L: Copy>(
    temps: &[[L; 4]],
    first: i32,
    count: usize,
    fill: [L; 4],
) -> Result<[[L; 4]; 4], Fault> {
    let mut columns = [fill; 4];
    for (k, column) in columns.iter_mut().enumerate().take(count) {
        *column = read(temps, first + k as i32)?;
    }
    Ok(columns)
}
