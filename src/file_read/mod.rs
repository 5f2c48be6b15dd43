//! Reading whole files, bounded: every file the project reads (scene JSON, PNG
//! textures and images, shader sources, OBJ meshes) goes through [`read_bounded`], so
//! that a path such as `/dev/zero`, a huge file or an endless pipe fails with an error
//! instead of hanging or exhausting memory.
//!
//! The limits are generous but finite, far above any real input of their kind:
//!
//! | what                                   | limit                        |
//! |----------------------------------------|------------------------------|
//! | PNG file (`diff`, `--texture`, scenes) | [`MAX_PNG_BYTES`], 512 MiB   |
//! | scene JSON                             | [`MAX_SCENE_BYTES`], 256 MiB |
//! | OBJ mesh named by a scene              | [`MAX_OBJ_BYTES`], 512 MiB   |
//! | shader source named by a scene         | [`MAX_SCENE_SHADER_BYTES`], 16 MiB; the compiler then applies its own `Limits::source_bytes` (64 KiB by default) |
//! | shader source of `compile` and `run`   | `Limits::source_bytes` of the profile they compile with |
//!
//! Regular files and pipes (`<(…)`, FIFOs) are read; directories, devices and sockets
//! are refused as "not a regular file" before anything is read. Text files must be
//! UTF-8; [`NotUtf8`] says where the first invalid byte is.

mod bounded;
mod text;

pub use bounded::{read_bounded, read_text_bounded, too_large};
pub use text::{NotUtf8, utf8_text};

/// Largest PNG file read, in bytes (512 MiB: a 16384×16384 RGBA8 image, the largest
/// side [`MAX_PNG_SIDE`](crate::image_io::MAX_PNG_SIDE) allows, stored uncompressed
/// takes 1 GiB, but real PNGs of that size compress far below this).
pub const MAX_PNG_BYTES: u64 = 512 << 20;

/// Largest scene JSON file read, in bytes (256 MiB: enough for millions of inline
/// vertex floats).
pub const MAX_SCENE_BYTES: u64 = 256 << 20;

/// Largest OBJ mesh file read, in bytes (512 MiB).
pub const MAX_OBJ_BYTES: u64 = 512 << 20;

/// Largest shader source file a scene may name, in bytes (16 MiB). The scene is
/// loaded before it is compiled, so this is only a bound on reading: the compile
/// limits (`Limits::source_bytes`, 64 KiB by default, 256 KiB for `Limits::LARGE`)
/// decide what compiles.
pub const MAX_SCENE_SHADER_BYTES: u64 = 16 << 20;
