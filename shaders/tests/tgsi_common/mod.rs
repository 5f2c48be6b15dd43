//! Test-only support for the TGSI back end: hand-built CSIR shaders, a parser for
//! TGSI text that follows virglrenderer's `tgsi_text` rules, an executor with TGSI's
//! semantics, and a generator of random verified CSIR programs.
#![allow(dead_code)]

pub mod check;
pub mod exec;
pub mod hand;
pub mod parse;
pub mod random;
