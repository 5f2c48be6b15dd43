//! A driver: an OpenGL context current on this thread, the GL entry points loaded from
//! it, and what the driver says it is.

use crate::egl::{Context, Platform, Profile};
use crate::error::{GlError, Place, error_name};
use glow::HasContext;

/// Which driver to open and how.
#[derive(Clone, Copy, Debug, Default)]
pub struct DriverOptions {
    /// Where the context comes from (default: the EGL implementation's own choice).
    pub platform: Platform,
    /// The profile asked for (default core).
    pub profile: ProfileChoice,
}

/// The profile a frame needs, as the caller decides it from its shaders.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProfileChoice {
    /// OpenGL 3.3 core.
    #[default]
    Core,
    /// OpenGL 3.3 compatibility (GLSL 1.10/1.20 shaders, fixed-function state).
    Compatibility,
}

/// What the driver says it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DriverInfo {
    /// `GL_RENDERER` (`llvmpipe (LLVM 15.0.6, 256 bits)`).
    pub renderer: String,
    /// `GL_VERSION` (`4.5 (Core Profile) Mesa 22.3.6`).
    pub version: String,
    /// `GL_VENDOR`.
    pub vendor: String,
    /// How the context was made: `surfaceless` or `device N (what it is)`.
    pub platform: String,
}

impl DriverInfo {
    /// Whether the renderer is Mesa's llvmpipe, the project's reference.
    pub fn is_llvmpipe(&self) -> bool {
        self.renderer.starts_with("llvmpipe")
    }
}

/// Entry points of the compatibility profile that `glow` does not load.
pub(crate) struct CompatibilityCalls {
    /// `glShadeModel(GLenum)`.
    pub shade_model: unsafe extern "system" fn(u32),
    /// `glClipPlane(GLenum, const GLdouble *)`.
    pub clip_plane: unsafe extern "system" fn(u32, *const f64),
}

/// An OpenGL context current on the thread that opened it.
///
/// Not `Send`: a GL context is current on one thread, and every call goes to the
/// context current on the calling thread.
pub struct Driver {
    pub(crate) gl: glow::Context,
    pub(crate) compatibility: Option<CompatibilityCalls>,
    info: DriverInfo,
    // Dropped after `gl` (fields drop in order): the context outlives every GL object
    // deleted before it.
    _context: Context,
    _not_send: std::marker::PhantomData<*const ()>,
}

impl Driver {
    /// Open a context of at least OpenGL 3.3 and make it current on this thread.
    ///
    /// # Errors
    /// [`GlError::NoLibrary`], [`GlError::NoContext`], [`GlError::NoDevice`], or
    /// [`GlError::OldVersion`] when the context is older than 3.3.
    pub fn open(options: &DriverOptions) -> Result<Driver, GlError> {
        let profile = match options.profile {
            ProfileChoice::Core => Profile::Core,
            ProfileChoice::Compatibility => Profile::Compatibility,
        };
        let context = Context::new(options.platform, profile)?;
        // SAFETY: the context is current on this thread (Context::new made it so), and
        // the loader returns the driver's entry points for it, or null for names the
        // driver lacks (which glow then never calls without checking).
        let gl =
            unsafe { glow::Context::from_loader_function_cstr(|name| context.proc_address(name)) };
        // SAFETY: glGetString with these enums returns static strings of the current
        // context (GL 3.3 core §6.1.5).
        let info = unsafe {
            DriverInfo {
                renderer: gl.get_parameter_string(glow::RENDERER),
                version: gl.get_parameter_string(glow::VERSION),
                vendor: gl.get_parameter_string(glow::VENDOR),
                platform: context.platform.clone(),
            }
        };
        let (major, minor) = (gl.version().major, gl.version().minor);
        if (major, minor) < (3, 3) {
            return Err(GlError::OldVersion {
                version: info.version,
                renderer: info.renderer,
            });
        }
        let compatibility = match profile {
            Profile::Core => None,
            Profile::Compatibility => Some(compatibility_calls(&context)?),
        };
        Ok(Driver {
            gl,
            compatibility,
            info,
            _context: context,
            _not_send: std::marker::PhantomData,
        })
    }

    /// What the driver says it is.
    pub fn info(&self) -> &DriverInfo {
        &self.info
    }

    /// An error at `place` if the driver has recorded one since the last check:
    /// `GL_INVALID_OPERATION after glDrawElements`.
    pub(crate) fn check(&self, place: impl FnOnce() -> Place, call: &str) -> Result<(), GlError> {
        // SAFETY: glGetError takes no arguments; the context is current.
        let code = unsafe { self.gl.get_error() };
        if code == glow::NO_ERROR {
            return Ok(());
        }
        // Later errors queued behind the first say nothing more: drain them.
        // SAFETY: as above.
        while unsafe { self.gl.get_error() } != glow::NO_ERROR {}
        Err(GlError::at(
            place(),
            format!("{} after {call}", error_name(code)),
        ))
    }

    /// `glFinish`: every command issued has completed.
    pub fn finish(&self) {
        // SAFETY: glFinish takes no arguments; the context is current.
        unsafe { self.gl.finish() }
    }
}

/// `glShadeModel` and `glClipPlane` of a compatibility context.
fn compatibility_calls(context: &Context) -> Result<CompatibilityCalls, GlError> {
    let load = |name: &std::ffi::CStr| {
        let address = context.proc_address(name);
        if address.is_null() {
            Err(GlError::NoContext {
                reason: format!(
                    "the compatibility context has no {}",
                    name.to_string_lossy()
                ),
            })
        } else {
            Ok(address)
        }
    };
    let shade_model = load(c"glShadeModel")?;
    let clip_plane = load(c"glClipPlane")?;
    // SAFETY: the addresses are the driver's glShadeModel(GLenum) and
    // glClipPlane(GLenum, const GLdouble *) (GL 2.1 §2.14.7, §2.12), non-null, with
    // the system ABI of GL entry points.
    unsafe {
        Ok(CompatibilityCalls {
            shade_model: std::mem::transmute::<
                *const std::ffi::c_void,
                unsafe extern "system" fn(u32),
            >(shade_model),
            clip_plane: std::mem::transmute::<
                *const std::ffi::c_void,
                unsafe extern "system" fn(u32, *const f64),
            >(clip_plane),
        })
    }
}
