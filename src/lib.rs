//! csir-render

pub mod budget;
pub mod check;
pub mod compare;
pub mod debug;
pub mod file_read;
pub mod file_write;
pub mod image_io;
pub mod pipeline;
pub mod scene;
pub mod shader_test;
pub mod texture;
pub mod virgl;
