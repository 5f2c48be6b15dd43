//! What can go wrong drawing through a driver, and where in the frame it went wrong.

use crate::frame::Stage;

/// The part of a frame an error is about, so that the caller can name it in its own
/// terms (a scene's JSON field, a test's section).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// The frame as a whole (its framebuffer, its size).
    Frame,
    /// Texture `n` of [`FrameDesc::textures`](crate::FrameDesc::textures).
    Texture(usize),
    /// Draw `n` as a whole (its program's link, the draw call).
    Draw(usize),
    /// A shader of draw `n`.
    Shader(usize, Stage),
    /// The uniform of draw `n` given under this key.
    Uniform(usize, String),
    /// The sampler of draw `n` of this name.
    Sampler(usize, String),
}

/// Why a frame could not be drawn through the driver.
#[derive(Debug, thiserror::Error)]
pub enum GlError {
    /// The EGL library could not be loaded.
    #[error(
        "cannot load {library} ({reason}): install an EGL implementation, on Debian \
         `apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri` (Mesa's llvmpipe)"
    )]
    NoLibrary {
        /// The file name looked for.
        library: &'static str,
        /// What the dynamic loader said.
        reason: String,
    },
    /// No display, device or OpenGL 3.3 context could be had.
    #[error("no OpenGL 3.3 context: {reason}")]
    NoContext {
        /// Which step failed and what EGL answered.
        reason: String,
    },
    /// `--gl-device N` names no device.
    #[error("there is no EGL device {index}; the devices are: {}", if .devices.is_empty() { "none".to_string() } else { .devices.join(", ") })]
    NoDevice {
        /// The index asked for.
        index: usize,
        /// `N: what it is`, for each device.
        devices: Vec<String>,
    },
    /// The context's version is below OpenGL 3.3.
    #[error("the driver gives OpenGL {version}; drawing needs 3.3 or later ({renderer})")]
    OldVersion {
        /// `GL_VERSION`.
        version: String,
        /// `GL_RENDERER`.
        renderer: String,
    },
    /// Something about one part of the frame: a shader the driver does not compile, a
    /// program it does not link (with its info log), a uniform the program does not
    /// declare, a GL error after a named call.
    #[error("{message}")]
    At {
        /// Which part of the frame.
        place: Place,
        /// What is wrong.
        message: String,
    },
}

impl GlError {
    /// An error about `place`.
    pub fn at(place: Place, message: impl Into<String>) -> GlError {
        GlError::At {
            place,
            message: message.into(),
        }
    }

    /// The part of the frame the error is about, if it is about one.
    pub fn place(&self) -> Option<&Place> {
        match self {
            GlError::At { place, .. } => Some(place),
            _ => None,
        }
    }
}

/// The name of a `glGetError` code, as the GL specification spells it (GL 3.3 core
/// §2.5, table 2.3).
pub fn error_name(code: u32) -> String {
    match code {
        0x0500 => "GL_INVALID_ENUM".into(),
        0x0501 => "GL_INVALID_VALUE".into(),
        0x0502 => "GL_INVALID_OPERATION".into(),
        0x0503 => "GL_STACK_OVERFLOW".into(),
        0x0504 => "GL_STACK_UNDERFLOW".into(),
        0x0505 => "GL_OUT_OF_MEMORY".into(),
        0x0506 => "GL_INVALID_FRAMEBUFFER_OPERATION".into(),
        other => format!("GL error 0x{other:04X}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_codes_have_their_spec_names() {
        assert_eq!(error_name(0x0502), "GL_INVALID_OPERATION");
        assert_eq!(error_name(0x0506), "GL_INVALID_FRAMEBUFFER_OPERATION");
        assert_eq!(error_name(0x1234), "GL error 0x1234");
    }

    #[test]
    fn a_missing_library_names_the_debian_packages() {
        let e = GlError::NoLibrary {
            library: "libEGL.so.1",
            reason: "libEGL.so.1: cannot open shared object file".into(),
        };
        let text = e.to_string();
        assert!(
            text.starts_with("cannot load libEGL.so.1 (libEGL.so.1: cannot open"),
            "{text}"
        );
        assert!(
            text.contains("apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri"),
            "{text}"
        );
    }

    #[test]
    fn a_missing_device_lists_the_devices() {
        let e = GlError::NoDevice {
            index: 3,
            devices: vec![
                "0: /dev/dri/card0".into(),
                "1: EGL_MESA_device_software".into(),
            ],
        };
        assert_eq!(
            e.to_string(),
            "there is no EGL device 3; the devices are: 0: /dev/dri/card0, 1: EGL_MESA_device_software"
        );
    }
}
