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

/// Entry points of OpenGL 3.3 core that `glow` does not load.
pub(crate) struct CoreCalls {
    /// `glProvokingVertex(GLenum)` (GL 3.2 §2.18).
    pub provoking_vertex: unsafe extern "system" fn(u32),
    /// `glPrimitiveRestartIndex(GLuint)` (GL 3.1 §2.8.1).
    pub primitive_restart_index: unsafe extern "system" fn(u32),
    /// `glPointSize(GLfloat)` (GL 3.3 core §3.4).
    pub point_size: unsafe extern "system" fn(f32),
}

/// Entry points of the compatibility profile that `glow` does not load (GL 2.1).
pub(crate) struct CompatibilityCalls {
    /// `glShadeModel(GLenum)`.
    pub shade_model: unsafe extern "system" fn(u32),
    /// `glClipPlane(GLenum, const GLdouble *)`.
    pub clip_plane: unsafe extern "system" fn(u32, *const f64),
    /// `glMatrixMode(GLenum)`.
    pub matrix_mode: unsafe extern "system" fn(u32),
    /// `glLoadMatrixf(const GLfloat *)`.
    pub load_matrix: unsafe extern "system" fn(*const f32),
    /// `glEnableClientState(GLenum)`.
    pub enable_client_state: unsafe extern "system" fn(u32),
    /// `glClientActiveTexture(GLenum)`.
    pub client_active_texture: unsafe extern "system" fn(u32),
    /// `glNormalPointer(GLenum type, GLsizei stride, const void *)`.
    pub normal_pointer: unsafe extern "system" fn(u32, i32, *const std::ffi::c_void),
    /// `glColorPointer(GLint size, GLenum type, GLsizei stride, const void *)`, and
    /// `glSecondaryColorPointer`, `glTexCoordPointer` of the same signature.
    pub color_pointer: unsafe extern "system" fn(i32, u32, i32, *const std::ffi::c_void),
    /// `glSecondaryColorPointer`.
    pub secondary_color_pointer: unsafe extern "system" fn(i32, u32, i32, *const std::ffi::c_void),
    /// `glTexCoordPointer`.
    pub tex_coord_pointer: unsafe extern "system" fn(i32, u32, i32, *const std::ffi::c_void),
    /// `glNormal3f`.
    pub normal: unsafe extern "system" fn(f32, f32, f32),
    /// `glColor4f`.
    pub color: unsafe extern "system" fn(f32, f32, f32, f32),
    /// `glSecondaryColor3f`.
    pub secondary_color: unsafe extern "system" fn(f32, f32, f32),
    /// `glMultiTexCoord4f(GLenum, ...)`.
    pub multi_tex_coord: unsafe extern "system" fn(u32, f32, f32, f32, f32),
}

/// An OpenGL context current on the thread that opened it.
///
/// Not `Send`: a GL context is current on one thread, and every call goes to the
/// context current on the calling thread.
pub struct Driver {
    pub(crate) gl: glow::Context,
    pub(crate) compatibility: Option<CompatibilityCalls>,
    pub(crate) core: CoreCalls,
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
        let core = core_calls(&context)?;
        Ok(Driver {
            gl,
            compatibility,
            core,
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

/// The address of entry point `name`, or an error naming it.
fn entry_point(
    context: &Context,
    name: &std::ffi::CStr,
) -> Result<*const std::ffi::c_void, GlError> {
    let address = context.proc_address(name);
    if address.is_null() {
        Err(GlError::NoContext {
            reason: format!("the context has no {}", name.to_string_lossy()),
        })
    } else {
        Ok(address)
    }
}

/// The core entry points `glow` lacks.
fn core_calls(context: &Context) -> Result<CoreCalls, GlError> {
    let provoking = entry_point(context, c"glProvokingVertex")?;
    let restart = entry_point(context, c"glPrimitiveRestartIndex")?;
    let point_size = entry_point(context, c"glPointSize")?;
    // SAFETY: the addresses are the driver's non-null entry points of these names,
    // the first two taking one 32-bit integer (GL 3.2 §2.18, GL 3.1 §2.8.1), the last
    // one 32-bit float (GL 3.3 core §3.4), with the system ABI.
    unsafe {
        Ok(CoreCalls {
            provoking_vertex: std::mem::transmute::<
                *const std::ffi::c_void,
                unsafe extern "system" fn(u32),
            >(provoking),
            primitive_restart_index: std::mem::transmute::<
                *const std::ffi::c_void,
                unsafe extern "system" fn(u32),
            >(restart),
            point_size: std::mem::transmute::<
                *const std::ffi::c_void,
                unsafe extern "system" fn(f32),
            >(point_size),
        })
    }
}

/// The compatibility profile's entry points `glow` lacks.
fn compatibility_calls(context: &Context) -> Result<CompatibilityCalls, GlError> {
    let load = |name: &std::ffi::CStr| entry_point(context, name);
    // SAFETY (every transmute below): each address is the driver's entry point of that
    // name (non-null, checked by `load`), whose C signature (GL 2.1 §2.7, §2.8, §2.11,
    // §2.12, §2.14.7) is the function type it is cast to, with the system ABI of GL
    // entry points.
    macro_rules! entry {
        ($name:literal) => {{
            let address = load($name)?;
            #[allow(clippy::missing_transmute_annotations)]
            // SAFETY: see above.
            let f = unsafe { std::mem::transmute(address) };
            f
        }};
    }
    Ok(CompatibilityCalls {
        shade_model: entry!(c"glShadeModel"),
        clip_plane: entry!(c"glClipPlane"),
        matrix_mode: entry!(c"glMatrixMode"),
        load_matrix: entry!(c"glLoadMatrixf"),
        enable_client_state: entry!(c"glEnableClientState"),
        client_active_texture: entry!(c"glClientActiveTexture"),
        normal_pointer: entry!(c"glNormalPointer"),
        color_pointer: entry!(c"glColorPointer"),
        secondary_color_pointer: entry!(c"glSecondaryColorPointer"),
        tex_coord_pointer: entry!(c"glTexCoordPointer"),
        normal: entry!(c"glNormal3f"),
        color: entry!(c"glColor4f"),
        secondary_color: entry!(c"glSecondaryColor3f"),
        multi_tex_coord: entry!(c"glMultiTexCoord4f"),
    })
}
