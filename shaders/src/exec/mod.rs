//! Execution of CSIR on the CPU. For now: the math shared by the scalar and the SIMD
//! batch interpreters ([`math`]).

pub mod math;
