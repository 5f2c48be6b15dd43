//! A VirGL guest in safe Rust: what a guest driver sends to a VirGL host, over
//! `virgl_test_server`'s Unix socket.
//!
//! - [`vtest`]: the vtest protocol (create a context, create resources, move texture
//!   and buffer data, submit command buffers, wait for the host);
//! - [`command`]: the virgl command stream (state objects, shaders as TGSI text with
//!   continuations for long ones, views, surfaces, framebuffer, viewport, vertex and
//!   index buffers, constants, clear, draw);
//! - [`state`] and [`pipe`]: the fixed-function state objects and Gallium's numbers;
//! - [`sampler`]: sampler states and sampler views;
//! - [`server`]: a private server on a temporary socket, stopped when dropped.
//!
//! The crate knows nothing about CSIR or scenes: `csir-render`'s `virgl` module builds
//! on it. docs/virgl.md describes the protocol as used here.
//!
//! ```no_run
//! use csir_virgl::{VtestServer, command::CommandBuffer};
//! use std::time::Duration;
//! let server = VtestServer::start()?;
//! let mut connection = server
//!     .connect("example", Duration::from_secs(60))
//!     .map_err(|e| server.explain(e))?;
//! let mut commands = CommandBuffer::new();
//! // ... create objects, bind them, clear, draw ...
//! connection.submit(&commands)?;
//! connection.wait_idle("draw").map_err(|e| server.explain(e))?;
//! # Ok::<(), csir_virgl::VirglError>(())
//! ```

pub mod command;
mod error;
pub mod pipe;
pub mod sampler;
pub mod server;
pub mod state;
pub mod vtest;

pub use error::VirglError;
pub use server::{VtestServer, stop_all_servers};
pub use vtest::{ResourceDesc, VtestConnection};
