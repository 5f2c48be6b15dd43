//! EGL: the library loaded at run time, a display with no window system (Mesa's
//! surfaceless platform, or one device of `EGL_EXT_device_enumeration`), and an
//! OpenGL context made current on the calling thread with no surface
//! (`EGL_KHR_surfaceless_context`).
//!
//! Which driver draws is the EGL implementation's choice, as for any GL program:
//! with Mesa, `LIBGL_ALWAYS_SOFTWARE=1`, `GALLIUM_DRIVER=llvmpipe|softpipe` and
//! `MESA_LOADER_DRIVER_OVERRIDE` pick it, and a device (`--gl-device N`) names a GPU.

use crate::error::GlError;
use khronos_egl as egl;
use std::ffi::{CStr, c_char, c_void};
use std::sync::OnceLock;

/// The EGL library every context of the process uses, loaded once.
type Instance = egl::DynamicInstance<egl::EGL1_5>;

/// `EGL_PLATFORM_SURFACELESS_MESA` (`EGL_MESA_platform_surfaceless`).
const PLATFORM_SURFACELESS_MESA: egl::Enum = 0x31DD;
/// `EGL_PLATFORM_DEVICE_EXT` (`EGL_EXT_platform_device`).
const PLATFORM_DEVICE_EXT: egl::Enum = 0x313F;
/// `EGL_DRM_RENDER_NODE_FILE_EXT` (`EGL_EXT_device_drm_render_node`).
const DRM_RENDER_NODE_FILE_EXT: egl::Int = 0x3377;
/// `EGL_DRM_DEVICE_FILE_EXT` (`EGL_EXT_device_drm`).
const DRM_DEVICE_FILE_EXT: egl::Int = 0x3233;
/// `EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT`.
const CORE_PROFILE_BIT: egl::Int = 0x1;
/// `EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT`.
const COMPATIBILITY_PROFILE_BIT: egl::Int = 0x2;

/// The socket Mesa's virpipe driver connects to (fixed in Mesa's vtest winsys).
const VTEST_SOCKET: &str = "/tmp/.virgl_test";

/// The file name the EGL library is loaded from (glvnd's loader, or a vendor's own).
pub const LIBRARY: &str = "libEGL.so.1";

/// The library, or why it could not be loaded (kept: loading is tried once).
fn instance() -> Result<&'static Instance, GlError> {
    static INSTANCE: OnceLock<Result<Instance, String>> = OnceLock::new();
    INSTANCE
        .get_or_init(|| {
            // SAFETY: libEGL.so.1 is the system's EGL library; loading it runs its
            // initialisers, which expect nothing of the caller. khronos-egl checks that
            // every EGL 1.5 entry point exists before it returns an instance.
            unsafe { Instance::load_required_from_filename(LIBRARY) }.map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|reason| GlError::NoLibrary {
            library: LIBRARY,
            reason: reason.clone(),
        })
}

/// Which OpenGL profile a context offers (GL 3.2 core specification, appendix E).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Profile {
    /// The core profile: what `#version 140` and later shaders without
    /// `compatibility` are written for.
    Core,
    /// The compatibility profile: the fixed-function state and built-ins of GLSL
    /// 1.10/1.20 (`gl_Vertex`, `gl_Color`, two-sided colour, `glShadeModel`,
    /// `glClipPlane`).
    Compatibility,
}

/// Where the context comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Platform {
    /// Mesa's surfaceless platform (`EGL_MESA_platform_surfaceless`), the driver Mesa
    /// picks itself (a GPU's render node, or llvmpipe with `LIBGL_ALWAYS_SOFTWARE=1` or
    /// without a GPU); where the EGL library has no such platform, device 0.
    #[default]
    Default,
    /// Device `N` of `eglQueryDevicesEXT` (`EGL_EXT_device_enumeration`), through
    /// `EGL_EXT_platform_device`.
    Device(usize),
}

/// An OpenGL context current on the thread that made it, on a display that stays
/// initialised for the life of the process (terminating it would end every other
/// context of the process on the same display).
pub struct Context {
    egl: &'static Instance,
    display: egl::Display,
    context: egl::Context,
    /// Dropped after the context is destroyed (fields drop after `Drop::drop`): the
    /// display is terminated when its last context goes.
    _display_use: DisplayUse,
    /// How the display was found, for the render line: `surfaceless` or `device N
    /// (what it is)`.
    pub platform: String,
}

impl Context {
    /// Create a context of at least OpenGL 3.3 with `profile` and make it current on
    /// this thread, with no surface.
    ///
    /// # Errors
    /// [`GlError::NoLibrary`] without `libEGL.so.1`; [`GlError::NoContext`] when no
    /// display, device or OpenGL 3.3 context can be had (the message says which step
    /// failed and what EGL answered).
    pub fn new(platform: Platform, profile: Profile) -> Result<Context, GlError> {
        // Mesa's virpipe driver aborts the process when no vtest server listens on its
        // fixed socket; say so instead.
        if std::env::var("GALLIUM_DRIVER").as_deref() == Ok("virpipe")
            && !std::path::Path::new(VTEST_SOCKET).exists()
        {
            return Err(no_context(format!(
                "GALLIUM_DRIVER=virpipe draws through a running virgl_test_server at \
                 {VTEST_SOCKET}, and none is listening (start one with \
                 `virgl_test_server --use-egl-surfaceless`, or choose llvmpipe)"
            )));
        }
        let egl = instance()?;
        let (display, platform_name) = open_display(egl, platform)?;
        let display_use = DisplayUse::initialize(egl, display).map_err(|e| {
            no_context(format!(
                "eglInitialize on {platform_name}: {e}{}",
                driver_hint()
            ))
        })?;
        egl.bind_api(egl::OPENGL_API)
            .map_err(|e| no_context(format!("eglBindAPI(EGL_OPENGL_API): {e}")))?;
        // EGL_SURFACE_TYPE defaults to EGL_WINDOW_BIT, which a display with no window
        // system has no config for; 0 asks for no surface type at all.
        let config_attributes = [
            egl::RENDERABLE_TYPE,
            egl::OPENGL_BIT,
            egl::SURFACE_TYPE,
            0,
            egl::NONE,
        ];
        let config = egl
            .choose_first_config(display, &config_attributes)
            .map_err(|e| no_context(format!("eglChooseConfig: {e}")))?
            .ok_or_else(|| {
                no_context(format!(
                    "{platform_name} has no EGL config that renders OpenGL"
                ))
            })?;
        let profile_bit = match profile {
            Profile::Core => CORE_PROFILE_BIT,
            Profile::Compatibility => COMPATIBILITY_PROFILE_BIT,
        };
        let context_attributes = [
            egl::CONTEXT_MAJOR_VERSION,
            3,
            egl::CONTEXT_MINOR_VERSION,
            3,
            egl::CONTEXT_OPENGL_PROFILE_MASK,
            profile_bit,
            egl::NONE,
        ];
        let context = egl
            .create_context(display, config, None, &context_attributes)
            .map_err(|e| {
                no_context(format!(
                    "{platform_name}: no OpenGL 3.3 {} context: {e}",
                    match profile {
                        Profile::Core => "core",
                        Profile::Compatibility => "compatibility",
                    }
                ))
            })?;
        if let Err(e) = egl.make_current(display, None, None, Some(context)) {
            let _ = egl.destroy_context(display, context);
            return Err(no_context(format!(
                "eglMakeCurrent with no surface on {platform_name}: {e} (the driver needs \
                 EGL_KHR_surfaceless_context)"
            )));
        }
        Ok(Context {
            egl,
            display,
            context,
            _display_use: display_use,
            platform: platform_name,
        })
    }

    /// The address of a GL entry point, or null when the driver has none of that
    /// name (what `glow` expects of its loader).
    pub fn proc_address(&self, name: &CStr) -> *const c_void {
        let name = name.to_str().unwrap_or("");
        self.egl
            .get_proc_address(name)
            .map_or(std::ptr::null(), |f| f as *const c_void)
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        // Release the context from this thread before destroying it, and the thread's
        // EGL state (a worker thread of a pool lives on); errors here leave nothing to
        // undo.
        let _ = self.egl.make_current(self.display, None, None, None);
        let _ = self.egl.destroy_context(self.display, self.context);
        let _ = self.egl.release_thread();
    }
}

/// One context's use of an initialised display. The display is initialised by the
/// first use and terminated (`eglTerminate`) when the last one ends, so that no driver
/// state is left for the process's exit to tear down while other threads run (Mesa's
/// and LLVM's exit handlers then find nothing to free).
struct DisplayUse {
    egl: &'static Instance,
    display: egl::Display,
}

/// Live uses of each initialised display, by its handle.
static DISPLAY_USES: std::sync::Mutex<Vec<(usize, usize)>> = std::sync::Mutex::new(Vec::new());

impl DisplayUse {
    /// `eglInitialize` (again, when a previous last use terminated it) and count a use.
    fn initialize(egl: &'static Instance, display: egl::Display) -> Result<DisplayUse, egl::Error> {
        let mut uses = DISPLAY_USES
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let key = display.as_ptr() as usize;
        match uses.iter_mut().find(|(d, _)| *d == key) {
            Some((_, count)) => *count += 1,
            None => {
                egl.initialize(display)?;
                uses.push((key, 1));
            }
        }
        Ok(DisplayUse { egl, display })
    }
}

impl Drop for DisplayUse {
    fn drop(&mut self) {
        let mut uses = DISPLAY_USES
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let key = self.display.as_ptr() as usize;
        if let Some(at) = uses.iter().position(|(d, _)| *d == key) {
            uses[at].1 -= 1;
            if uses[at].1 == 0 {
                uses.remove(at);
                let _ = self.egl.terminate(self.display);
            }
        }
    }
}

/// What to look at when EGL cannot start a driver: the Mesa variables that are set,
/// else the package that holds Mesa's drivers.
fn driver_hint() -> String {
    let set: Vec<String> = [
        "GALLIUM_DRIVER",
        "MESA_LOADER_DRIVER_OVERRIDE",
        "LIBGL_ALWAYS_SOFTWARE",
    ]
    .iter()
    .filter_map(|v| std::env::var(v).ok().map(|value| format!("{v}={value}")))
    .collect();
    if set.is_empty() {
        " (is a driver installed? Mesa's are in Debian's libgl1-mesa-dri)".into()
    } else {
        format!(
            " (with {}: does that name an installed driver? Mesa's CPU drivers are \
             GALLIUM_DRIVER=llvmpipe and softpipe, in Debian's libgl1-mesa-dri)",
            set.join(" ")
        )
    }
}

/// A [`GlError::NoContext`] with `reason`.
fn no_context(reason: String) -> GlError {
    GlError::NoContext { reason }
}

/// The display for `platform`, with the name the render line gives it.
fn open_display(
    egl: &'static Instance,
    platform: Platform,
) -> Result<(egl::Display, String), GlError> {
    let client_extensions = client_extensions(egl);
    let has = |name: &str| client_extensions.split(' ').any(|e| e == name);
    match platform {
        Platform::Default if has("EGL_MESA_platform_surfaceless") => {
            // SAFETY: the surfaceless platform takes EGL_DEFAULT_DISPLAY as its native
            // display (EGL_MESA_platform_surfaceless) and an empty attribute list.
            let display = unsafe {
                egl.get_platform_display(
                    PLATFORM_SURFACELESS_MESA,
                    egl::DEFAULT_DISPLAY,
                    &[egl::ATTRIB_NONE],
                )
            }
            .map_err(|e| no_context(format!("eglGetPlatformDisplay(surfaceless): {e}")))?;
            Ok((display, "surfaceless".to_string()))
        }
        Platform::Default => device_display(egl, 0, &has),
        Platform::Device(n) => device_display(egl, n, &has),
    }
}

/// The client extension string (`eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS)`),
/// empty where the library has none.
fn client_extensions(egl: &'static Instance) -> String {
    egl.query_string(None, egl::EXTENSIONS)
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// `eglQueryDevicesEXT`.
type QueryDevices = unsafe extern "system" fn(i32, *mut *mut c_void, *mut i32) -> u32;
/// `eglQueryDeviceStringEXT`.
type QueryDeviceString = unsafe extern "system" fn(*mut c_void, i32) -> *const c_char;

/// One EGL device: its handle and what it is (the DRM device file, or its device
/// extensions for a software device).
struct Device {
    handle: *mut c_void,
    name: String,
}

/// Every device `eglQueryDevicesEXT` lists, in its order.
fn devices(egl: &'static Instance) -> Result<Vec<Device>, GlError> {
    let query = egl
        .get_proc_address("eglQueryDevicesEXT")
        .ok_or_else(|| no_context("the EGL library has no eglQueryDevicesEXT".into()))?;
    // SAFETY: eglGetProcAddress returned this entry point for the name
    // eglQueryDevicesEXT, whose signature (EGL_EXT_device_enumeration) is
    // QueryDevices: a function pointer of one ABI cast to its own type.
    let query: QueryDevices = unsafe { std::mem::transmute(query) };
    let describe: Option<QueryDeviceString> = egl
        .get_proc_address("eglQueryDeviceStringEXT")
        // SAFETY: as above, for eglQueryDeviceStringEXT (EGL_EXT_device_query).
        .map(|f| unsafe { std::mem::transmute::<extern "system" fn(), QueryDeviceString>(f) });
    let mut count = 0i32;
    // SAFETY: a null array with size 0 asks for the number of devices only.
    let ok = unsafe { query(0, std::ptr::null_mut(), &mut count) };
    if ok == 0 || count < 0 {
        return Err(no_context("eglQueryDevicesEXT failed".into()));
    }
    let mut handles = vec![std::ptr::null_mut(); count as usize];
    let mut written = 0i32;
    // SAFETY: `handles` has room for `count` device handles, the size passed.
    let ok = unsafe { query(count, handles.as_mut_ptr(), &mut written) };
    if ok == 0 {
        return Err(no_context("eglQueryDevicesEXT failed".into()));
    }
    handles.truncate(written.clamp(0, count) as usize);
    Ok(handles
        .into_iter()
        .map(|handle| {
            let text = |what: i32| {
                let f = describe?;
                // SAFETY: `handle` came from eglQueryDevicesEXT; the string returned
                // is owned by EGL, NUL-terminated, and copied before the next call.
                let s = unsafe { f(handle, what) };
                // SAFETY: a non-null result is a NUL-terminated string (EGL_EXT_device_query).
                (!s.is_null()).then(|| unsafe { CStr::from_ptr(s) }.to_string_lossy().into_owned())
            };
            let extensions = text(egl::EXTENSIONS).unwrap_or_default();
            let name = text(DRM_RENDER_NODE_FILE_EXT)
                .or_else(|| text(DRM_DEVICE_FILE_EXT))
                .unwrap_or_else(|| {
                    if extensions
                        .split(' ')
                        .any(|e| e == "EGL_MESA_device_software")
                    {
                        "Mesa's software device (llvmpipe, softpipe)".into()
                    } else {
                        format!("a device with no DRM file ({extensions})")
                    }
                });
            Device { handle, name }
        })
        .collect())
}

/// The display of device `n`, named `device N (what it is)`.
fn device_display(
    egl: &'static Instance,
    n: usize,
    has: &dyn Fn(&str) -> bool,
) -> Result<(egl::Display, String), GlError> {
    if !has("EGL_EXT_device_enumeration") && !has("EGL_EXT_device_base") {
        return Err(no_context(
            "the EGL library enumerates no devices (no EGL_EXT_device_enumeration; is \
             Mesa's EGL installed? Debian's libegl-mesa0)"
                .into(),
        ));
    }
    let devices = devices(egl)?;
    let Some(device) = devices.get(n) else {
        let listed: Vec<String> = devices
            .iter()
            .enumerate()
            .map(|(i, d)| format!("{i}: {}", d.name))
            .collect();
        return Err(GlError::NoDevice {
            index: n,
            devices: listed,
        });
    };
    // SAFETY: the device platform takes a device handle from eglQueryDevicesEXT as its
    // native display (EGL_EXT_platform_device) and an empty attribute list.
    let display = unsafe {
        egl.get_platform_display(PLATFORM_DEVICE_EXT, device.handle, &[egl::ATTRIB_NONE])
    }
    .map_err(|e| no_context(format!("eglGetPlatformDisplay(device {n}): {e}")))?;
    Ok((display, format!("device {n} ({})", device.name)))
}
