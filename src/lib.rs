//! csir-render

pub mod image_io;
pub mod texture;
