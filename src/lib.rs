//! # `csir-render`: a CPU software renderer around the CSIR shader compiler
//!
//! This crate is the renderer people use. It wires the two libraries below it, which
//! do not know each other: [`csir`] (GLSL → CSIR, the interpreters, TGSI, CSI) and
//! [`csir_raster`] (clipping, fixed-point rasterization in parallel tiles, depth,
//! blending). On top it adds scene files, textures, PNG in and out, image comparison,
//! reference checks, piglit's `.shader_test` runner, the VirGL back end and the
//! debugging tools behind the `csir-render` command line (`src/main.rs`, `src/cli/`).
//!
//! ## Main types
//!
//! - [`scene::Scene`]: a `csir-scene/1` file loaded and validated
//!   (`docs/scene-format.md`); [`scene::Scene::load`] is the entry point.
//! - [`pipeline::render_scene`] / [`pipeline::PreparedScene`]: compile and link each
//!   draw's shaders, bind uniforms and textures, and draw through the rasterizer into a
//!   [`pipeline::Frame`] (RGBA8, top row first).
//! - [`image_io::Rgba8Image`] and [`compare::compare`] / [`compare::ToleranceRule`]:
//!   images, their differences and the rule that decides a match.
//! - [`check::check_scenes`]: a whole suite of reference scenes
//!   (`docs/reference-checks.md`); [`shader_test::run_file`]: one piglit test
//!   (`docs/conformance.md`); [`virgl::render_scene_virgl`]: a scene drawn by a VirGL
//!   host from our TGSI (`docs/virgl.md`); [`debug`]: `trace` and `run`.
//! - [`file_read`] and [`file_write`]: every file the project reads or writes, bounded
//!   and refusing to overwrite an input.
//! - [`budget`]: the memory a render will allocate, checked against `--max-memory`
//!   before anything is allocated.
//!
//! ## Where to start
//!
//! ```
//! use csir_render::pipeline::{RenderOptions, render_scene};
//! use csir_render::scene::Scene;
//!
//! let scene = Scene::load("reference-images/triangle.json")?;
//! let frame = render_scene(&scene, &RenderOptions::default())?;
//! assert_eq!((frame.image.width(), frame.image.height()), (320, 240));
//! assert_eq!(frame.image.pixels().len(), 320 * 240 * 4);
//! assert_eq!(frame.draws.len(), 1); // one draw: the triangle
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! `docs/architecture.md` walks through every folder and names the documents: CSIR's
//! definition (`docs/csir.md`), what is kept from the original ChrisOS compiler
//! (`docs/csir-original.md`), the scene format, the GLSL dialects, conformance,
//! reference checks and VirGL.

pub mod budget;
pub mod check;
pub mod compare;
pub mod cpu_time;
pub mod debug;
pub mod file_read;
pub mod file_write;
pub mod gl;
pub mod image_io;
pub mod pipeline;
pub mod scene;
pub mod shader_test;
pub mod texture;
pub mod virgl;
