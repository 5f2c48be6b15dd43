//! csir-render
