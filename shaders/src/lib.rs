//! csir
