//! A frame made ready on a driver: its framebuffer, textures, samplers, programs and
//! vertex arrays created once, so that each frame is the clear and the draws alone
//! (what a benchmark of the driver times).

use crate::driver::CompatibilityCalls;
use crate::driver::Driver;
use crate::error::{GlError, Place};
use crate::frame::{Conventional, DrawDesc, DrawState, FrameDesc, IDENTITY, Stage};
use crate::program::{self, Program};
use crate::uniforms::{self, UniformPlan};
use glow::HasContext;

/// A frame ready to draw on the driver that prepared it. Its GL objects are deleted
/// when it is dropped.
pub struct PreparedFrame<'d> {
    driver: &'d Driver,
    width: u32,
    height: u32,
    clear_color: [f32; 4],
    clear_depth: f32,
    clear_stencil: u8,
    framebuffer: glow::Framebuffer,
    renderbuffers: Vec<glow::Renderbuffer>,
    /// The colour attachments of [`FrameDesc::targets`] (empty: one RGBA8).
    targets: Vec<crate::TargetDesc>,
    framebuffer_srgb: bool,
    seamless_cube_map: bool,

    /// A multisampled frame's single-sampled framebuffer, which reads come from
    /// (`multisample.rs`).
    resolve: Option<crate::multisample::Resolve>,
    textures: Vec<glow::Texture>,
    /// Each texture's target (`GL_TEXTURE_2D` for the RGBA8 ones).
    texture_targets: Vec<u32>,
    programs: Vec<Program>,
    draws: Vec<PreparedDraw>,
    buffers: Vec<glow::Buffer>,
}

/// One draw's GL objects and calls.
struct PreparedDraw {
    program: usize,
    vertex_array: glow::VertexArray,
    mode: u32,
    restart: Option<u32>,
    index_count: i32,
    instances: i32,
    uniforms: UniformPlan,
    /// One uniform buffer per block of `uniforms.blocks`, in that order.
    block_buffers: Vec<glow::Buffer>,
    /// (unit, texture, sampler object, sampler uniform location, texture target).
    samplers: Vec<(
        u32,
        glow::Texture,
        glow::Sampler,
        glow::UniformLocation,
        u32,
    )>,
    state: DrawState,
    /// Compatibility inputs the shader reads that the draw feeds no array: held at
    /// (0, 0, 0, 1) as the draw's other missing inputs are.
    unfed: Vec<Conventional>,
}

/// A draw's sampler: unit, texture, sampler object, sampler uniform location and the
/// texture's target.
type BoundSampler = (
    u32,
    glow::Texture,
    glow::Sampler,
    glow::UniformLocation,
    u32,
);

/// What makes two draws' programs the same: their stages' sources and attribute
/// bindings.
type ProgramKey<'a> = (Vec<(Stage, &'a str)>, &'a [(String, u32)]);

/// `GL_MODELVIEW`, `GL_PROJECTION` (GL 2.1 §2.11.2).
const GL_MODELVIEW: u32 = 0x1700;
const GL_PROJECTION: u32 = 0x1701;

/// Feed a compatibility input from the array buffer bound now: its own pointer call and
/// client state (GL 2.1 §2.8), recorded in the bound vertex array.
///
/// # Safety
/// A compatibility context is current, a vertex array object is bound, and the bound
/// `GL_ARRAY_BUFFER` holds tightly packed floats, `size` per vertex.
unsafe fn conventional_pointer(
    compat: &CompatibilityCalls,
    input: Conventional,
    size: i32,
) -> Result<(), String> {
    let none = std::ptr::null();
    // SAFETY: the caller's contract; offsets are 0 into the bound buffer.
    unsafe {
        match input {
            Conventional::Normal if size == 3 => {
                (compat.normal_pointer)(glow::FLOAT, 0, none);
                (compat.enable_client_state)(0x8075); // GL_NORMAL_ARRAY
            }
            Conventional::Color if size >= 3 => {
                (compat.color_pointer)(size, glow::FLOAT, 0, none);
                (compat.enable_client_state)(0x8076); // GL_COLOR_ARRAY
            }
            Conventional::SecondaryColor if size == 3 => {
                (compat.secondary_color_pointer)(size, glow::FLOAT, 0, none);
                (compat.enable_client_state)(0x845E); // GL_SECONDARY_COLOR_ARRAY
            }
            Conventional::TexCoord(unit) => {
                (compat.client_active_texture)(glow::TEXTURE0 + unit);
                (compat.tex_coord_pointer)(size, glow::FLOAT, 0, none);
                (compat.enable_client_state)(0x8078); // GL_TEXTURE_COORD_ARRAY
                (compat.client_active_texture)(glow::TEXTURE0);
            }
            other => {
                return Err(format!(
                    "{other:?}'s array takes {} floats per vertex in GL, and the draw gives {size}",
                    match other {
                        Conventional::Color => "3 or 4",
                        _ => "3",
                    }
                ));
            }
        }
    }
    Ok(())
}

/// Hold a compatibility input the draw feeds no array at (0, 0, 0, 1), the value the
/// draw's other missing inputs read.
///
/// # Safety
/// A compatibility context is current.
unsafe fn hold_at_default(compat: &CompatibilityCalls, input: Conventional) {
    // SAFETY: the caller's contract; these calls take plain values.
    unsafe {
        match input {
            Conventional::Normal => (compat.normal)(0.0, 0.0, 0.0),
            Conventional::Color => (compat.color)(0.0, 0.0, 0.0, 1.0),
            Conventional::SecondaryColor => (compat.secondary_color)(0.0, 0.0, 0.0),
            Conventional::TexCoord(unit) => {
                (compat.multi_tex_coord)(glow::TEXTURE0 + unit, 0.0, 0.0, 0.0, 1.0);
            }
        }
    }
}

/// The largest side of the framebuffer (llvmpipe's `GL_MAX_RENDERBUFFER_SIZE`, and the
/// scene format's limit).
const MAX_SIZE: u32 = 16384;

impl Driver {
    /// Create `frame`'s objects on this driver: compile and link each distinct
    /// program, upload textures and vertex arrays, resolve every uniform and sampler.
    ///
    /// # Errors
    /// At the part of the frame: a shader the driver does not compile or a program it
    /// does not link (with its info log), a uniform or sampler the program does not
    /// declare, a sampler the frame does not bind, a GL error after a named call.
    pub fn prepare<'d>(&'d self, frame: &FrameDesc<'_>) -> Result<PreparedFrame<'d>, GlError> {
        let gl = &self.gl;
        if frame.width == 0
            || frame.height == 0
            || frame.width > MAX_SIZE
            || frame.height > MAX_SIZE
        {
            return Err(GlError::at(
                Place::Frame,
                format!(
                    "{}x{} is not a framebuffer size (1..={MAX_SIZE} each)",
                    frame.width, frame.height
                ),
            ));
        }
        // SAFETY: every object is created on the current context and owned by the
        // PreparedFrame, which deletes them; the sizes are within GL's limits (checked
        // above).
        let (framebuffer, renderbuffers) = unsafe {
            let fb = gl
                .create_framebuffer()
                .map_err(|e| frame_error(format!("glGenFramebuffers: {e}")))?;
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fb));
            let mut rbs = Vec::new();
            let colour = if frame.targets.is_empty() {
                Some((glow::RGBA8, glow::COLOR_ATTACHMENT0))
            } else {
                rbs = crate::targets::attach(
                    gl,
                    &frame.targets,
                    frame.width,
                    frame.height,
                    frame.samples,
                )
                .map_err(frame_error)?;
                None
            };
            let depth_stencil = Some((glow::DEPTH24_STENCIL8, glow::DEPTH_STENCIL_ATTACHMENT));
            for (format, attachment) in [colour, depth_stencil].into_iter().flatten() {
                let rb = gl
                    .create_renderbuffer()
                    .map_err(|e| frame_error(format!("glGenRenderbuffers: {e}")))?;
                gl.bind_renderbuffer(glow::RENDERBUFFER, Some(rb));
                crate::multisample::storage(gl, format, frame.width, frame.height, frame.samples);
                gl.framebuffer_renderbuffer(
                    glow::FRAMEBUFFER,
                    attachment,
                    glow::RENDERBUFFER,
                    Some(rb),
                );
                rbs.push(rb);
            }
            gl.bind_renderbuffer(glow::RENDERBUFFER, None);
            (fb, rbs)
        };
        let mut prepared = PreparedFrame {
            driver: self,
            width: frame.width,
            height: frame.height,
            clear_color: frame.clear_color,
            clear_depth: frame.clear_depth,
            clear_stencil: frame.clear_stencil,
            framebuffer,
            renderbuffers,
            targets: frame.targets.clone(),
            framebuffer_srgb: frame.framebuffer_srgb,
            seamless_cube_map: frame.seamless_cube_map,

            resolve: None,
            textures: Vec::new(),
            texture_targets: Vec::new(),
            programs: Vec::new(),
            draws: Vec::new(),
            buffers: Vec::new(),
        };
        // SAFETY: the framebuffer just made is bound.
        let status = unsafe { gl.check_framebuffer_status(glow::FRAMEBUFFER) };
        if status != glow::FRAMEBUFFER_COMPLETE {
            return Err(frame_error(format!(
                "the framebuffer (RGBA8 + DEPTH24_STENCIL8, {}x{}) is incomplete: status 0x{status:04X}",
                frame.width, frame.height
            )));
        }
        if frame.samples > 1 {
            let formats: Vec<u32> = if frame.targets.is_empty() {
                vec![glow::RGBA8]
            } else {
                frame.targets.iter().map(|t| t.internal_format).collect()
            };
            // SAFETY: a current context; the size was checked above.
            let resolve = unsafe {
                crate::multisample::make_resolve(gl, &formats, frame.width, frame.height)
            };
            prepared.resolve = Some(resolve.map_err(frame_error)?);
        }
        self.check(|| Place::Frame, "creating the framebuffer")?;
        for (i, texture) in frame.textures.iter().enumerate() {
            let (object, target) = match &texture.gl33 {
                Some(image) => {
                    let (object, buffer) = crate::texture33::upload(&self.gl, image)
                        .map_err(|m| GlError::at(Place::Texture(i), m))?;
                    prepared.buffers.extend(buffer);
                    (object, image.target)
                }
                None => (
                    prepared
                        .upload_texture(texture)
                        .map_err(|m| GlError::at(Place::Texture(i), m))?,
                    glow::TEXTURE_2D,
                ),
            };
            prepared.textures.push(object);
            prepared.texture_targets.push(target);
            self.check(|| Place::Texture(i), "glTexImage2D")?;
        }
        // a program per distinct (sources, attribute bindings)
        let mut sources: Vec<ProgramKey<'_>> = Vec::new();
        for (i, draw) in frame.draws.iter().enumerate() {
            let shaders: Vec<(Stage, &str)> =
                draw.shaders.iter().map(|s| (s.stage, s.source)).collect();
            let key = (shaders, draw.attribute_bindings.as_slice());
            let program = match sources.iter().position(|k| *k == key) {
                Some(p) => p,
                None => {
                    let linked = program::link(self, i, &draw.shaders, &draw.attribute_bindings)?;
                    prepared.programs.push(linked);
                    sources.push(key);
                    prepared.programs.len() - 1
                }
            };
            let prepared_draw = prepared.prepare_draw(i, draw, program, frame)?;
            prepared.draws.push(prepared_draw);
            self.check(|| Place::Draw(i), "setting up the draw")?;
        }
        Ok(prepared)
    }
}

/// An error about the frame as a whole.
fn frame_error(message: String) -> GlError {
    GlError::at(Place::Frame, message)
}

impl PreparedFrame<'_> {
    /// Upload one texture (row 0 first), with its mip chain when a sampler needs one.
    fn upload_texture(
        &mut self,
        texture: &crate::frame::TextureDesc<'_>,
    ) -> Result<glow::Texture, String> {
        let gl = &self.driver.gl;
        let expected = texture.width as usize * texture.height as usize * 4;
        if texture.rgba8.len() != expected {
            return Err(format!(
                "{} bytes for a {}x{} RGBA8 texture, which needs {expected}",
                texture.rgba8.len(),
                texture.width,
                texture.height
            ));
        }
        // SAFETY: the data holds width × height RGBA8 texels (checked above), read with
        // an unpack alignment of 1; the texture is owned by this frame.
        unsafe {
            let object = gl
                .create_texture()
                .map_err(|e| format!("glGenTextures: {e}"))?;
            gl.active_texture(glow::TEXTURE0);
            gl.bind_texture(glow::TEXTURE_2D, Some(object));
            gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
            gl.tex_image_2d(
                glow::TEXTURE_2D,
                0,
                glow::RGBA8 as i32,
                texture.width as i32,
                texture.height as i32,
                0,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelUnpackData::Slice(Some(texture.rgba8)),
            );
            if texture.mipmapped {
                gl.generate_mipmap(glow::TEXTURE_2D);
            }
            gl.bind_texture(glow::TEXTURE_2D, None);
            Ok(object)
        }
    }

    /// A new buffer holding `bytes`, left bound to `target` and kept by this frame
    /// (`glGenBuffers`, `glBindBuffer`, `glBufferData(GL_STATIC_DRAW)`).
    fn upload(&mut self, target: u32, bytes: &[u8]) -> Result<glow::Buffer, String> {
        let gl = &self.driver.gl;
        // SAFETY: the buffer is created on the current context and kept by this frame;
        // glBufferData copies exactly `bytes`.
        unsafe {
            let buffer = gl
                .create_buffer()
                .map_err(|e| format!("glGenBuffers: {e}"))?;
            self.buffers.push(buffer);
            gl.bind_buffer(target, Some(buffer));
            gl.buffer_data_u8_slice(target, bytes, glow::STATIC_DRAW);
            Ok(buffer)
        }
    }

    /// One draw's vertex array, uniform plan and samplers.
    fn prepare_draw(
        &mut self,
        index: usize,
        draw: &DrawDesc<'_>,
        program: usize,
        frame: &FrameDesc<'_>,
    ) -> Result<PreparedDraw, GlError> {
        let driver = self.driver;
        let gl = &driver.gl;
        let draw_error = |m: String| GlError::at(Place::Draw(index), m);
        let linked = &self.programs[program];
        let uniforms = uniforms::plan(driver, linked, index, &draw.uniforms)?;
        let samplers = self.prepare_samplers(index, draw, program, frame)?;
        let program_object = self.programs[program].program;
        // SAFETY: the objects are created on the current context and kept by this
        // frame; each buffer's data is a slice whose length is what is uploaded, and
        // the attribute pointers describe tightly packed floats of that buffer.
        unsafe {
            let vertex_array = gl
                .create_vertex_array()
                .map_err(|e| draw_error(format!("glGenVertexArrays: {e}")))?;
            gl.bind_vertex_array(Some(vertex_array));
            for attribute in &draw.attributes {
                self.upload(glow::ARRAY_BUFFER, bytemuck::cast_slice(attribute.data))
                    .map_err(&draw_error)?;
                let conventional = draw
                    .conventional
                    .iter()
                    .find(|(_, location)| *location == attribute.location);
                match (conventional, &driver.compatibility) {
                    (Some((input, _)), Some(compat)) => {
                        conventional_pointer(compat, *input, attribute.size as i32)
                            .map_err(&draw_error)?;
                    }
                    _ if attribute.ty == glow::FLOAT => {
                        gl.enable_vertex_attrib_array(attribute.location);
                        gl.vertex_attrib_pointer_f32(
                            attribute.location,
                            attribute.size as i32,
                            glow::FLOAT,
                            false,
                            0,
                            0,
                        );
                    }
                    _ => {
                        gl.enable_vertex_attrib_array(attribute.location);
                        gl.vertex_attrib_pointer_i32(
                            attribute.location,
                            attribute.size as i32,
                            attribute.ty,
                            0,
                            0,
                        );
                    }
                }
                if attribute.divisor != 0 {
                    gl.vertex_attrib_divisor(attribute.location, attribute.divisor);
                }
            }
            self.upload(
                glow::ELEMENT_ARRAY_BUFFER,
                bytemuck::cast_slice(draw.indices),
            )
            .map_err(&draw_error)?;
            gl.bind_vertex_array(None);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
            let mut block_buffers = Vec::new();
            for block in &uniforms.blocks {
                let buffer = self
                    .upload(glow::UNIFORM_BUFFER, &block.bytes)
                    .map_err(&draw_error)?;
                gl.uniform_block_binding(program_object, block.index, block.index);
                block_buffers.push(buffer);
            }
            gl.bind_buffer(glow::UNIFORM_BUFFER, None);
            Ok(PreparedDraw {
                program,
                vertex_array,
                mode: draw.mode,
                restart: draw.restart,
                instances: i32::try_from(draw.instances)
                    .map_err(|_| draw_error(format!("{} instances", draw.instances)))?,
                index_count: i32::try_from(draw.indices.len()).map_err(|_| {
                    draw_error(format!(
                        "{} indices are more than GL counts",
                        draw.indices.len()
                    ))
                })?,
                uniforms,
                block_buffers,
                samplers,
                state: draw.state,
                unfed: draw
                    .conventional
                    .iter()
                    .filter(|(_, location)| {
                        !draw.attributes.iter().any(|a| a.location == *location)
                    })
                    .map(|(input, _)| *input)
                    .collect(),
            })
        }
    }

    /// The draw's sampler bindings: a sampler object each, on unit = its position; an
    /// error for a sampler the program does not declare, or one it declares that the
    /// draw does not bind.
    fn prepare_samplers(
        &mut self,
        index: usize,
        draw: &DrawDesc<'_>,
        program: usize,
        frame: &FrameDesc<'_>,
    ) -> Result<Vec<BoundSampler>, GlError> {
        let gl = &self.driver.gl;
        let linked = &self.programs[program];
        let mut out = Vec::new();
        for (unit, binding) in draw.samplers.iter().enumerate() {
            let place = || Place::Sampler(index, binding.name.to_string());
            let element = array_element(binding.name);
            let active = linked.uniforms.iter().find(|u| match element {
                // An element of an array of samplers (`tex[2]`): GL lists the array.
                Some((array, k)) => u.array && u.name == array && k < u.size,
                None => u.name == binding.name,
            });
            let Some(active) = active else {
                let name = element.map_or(binding.name, |(array, _)| array);
                if linked.declared.iter().any(|d| d == name) {
                    continue; // declared, unused: the driver dropped it
                }
                return Err(GlError::at(
                    place(),
                    format!("the program does not declare sampler '{}'", binding.name),
                ));
            };
            if !uniforms::is_sampler(active.utype) {
                return Err(GlError::at(
                    place(),
                    format!("'{}' is not a sampler uniform", binding.name),
                ));
            }
            let texture = *self.textures.get(binding.texture).ok_or_else(|| {
                GlError::at(
                    place(),
                    format!(
                        "texture {} of {} does not exist",
                        binding.texture,
                        frame.textures.len()
                    ),
                )
            })?;
            // SAFETY: the program is linked; the sampler object is created on the
            // current context and kept by this frame; the parameters are GL enums the
            // caller chose from the documented sets.
            unsafe {
                let location = gl
                    .get_uniform_location(linked.program, binding.name)
                    .ok_or_else(|| {
                        GlError::at(place(), "the driver gives the sampler no location")
                    })?;
                let sampler = gl
                    .create_sampler()
                    .map_err(|e| GlError::at(place(), format!("glGenSamplers: {e}")))?;
                gl.sampler_parameter_i32(
                    sampler,
                    glow::TEXTURE_MIN_FILTER,
                    binding.min_filter as i32,
                );
                gl.sampler_parameter_i32(
                    sampler,
                    glow::TEXTURE_MAG_FILTER,
                    binding.mag_filter as i32,
                );
                for (pname, wrap) in [
                    glow::TEXTURE_WRAP_S,
                    glow::TEXTURE_WRAP_T,
                    glow::TEXTURE_WRAP_R,
                ]
                .into_iter()
                .zip(binding.wrap)
                {
                    gl.sampler_parameter_i32(sampler, pname, wrap as i32);
                }
                if let Some(state) = &binding.gl33 {
                    crate::texture33::apply(gl, sampler, state);
                }
                let target = self.texture_targets[binding.texture];
                out.push((unit as u32, texture, sampler, location, target));
            }
            self.driver.check(place, "glSamplerParameteri")?;
        }
        for u in linked
            .uniforms
            .iter()
            .filter(|u| uniforms::is_sampler(u.utype) && u.block.is_none())
        {
            // An array of samplers is bound element by element (`tex[2]`).
            let bound = |b: &crate::frame::SamplerDesc<'_>| {
                b.name == u.name
                    || (u.array
                        && array_element(b.name).is_some_and(|(a, k)| a == u.name && k < u.size))
            };
            if !draw.samplers.iter().any(bound) {
                return Err(GlError::at(
                    Place::Draw(index),
                    format!(
                        "sampler '{}' has no texture (give it under samplers)",
                        u.name
                    ),
                ));
            }
        }
        Ok(out)
    }

    /// Clear the framebuffer and issue every draw; with `check`, a GL error after any
    /// draw is an error naming it. The commands may still be running on return:
    /// [`Driver::finish`] waits for them.
    ///
    /// # Errors
    /// With `check`: `GL_INVALID_OPERATION after glDrawElements` at the draw.
    pub fn draw(&self, check: bool) -> Result<(), GlError> {
        let driver = self.driver;
        let gl = &driver.gl;
        // SAFETY: every object used belongs to this frame on the current context;
        // state calls take enums from the documented sets.
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(self.framebuffer));
            gl.viewport(0, 0, self.width as i32, self.height as i32);
            gl.disable(glow::SCISSOR_TEST);
            gl.color_mask(true, true, true, true);
            gl.depth_mask(true);
            gl.front_face(glow::CCW);
            if self.seamless_cube_map {
                gl.enable(glow::TEXTURE_CUBE_MAP_SEAMLESS);
            } else {
                gl.disable(glow::TEXTURE_CUBE_MAP_SEAMLESS);
            }
            gl.clear_depth_f64(f64::from(self.clear_depth));
            gl.stencil_mask(0xff);
            gl.clear_stencil(i32::from(self.clear_stencil));
            if self.targets.is_empty() {
                let [r, g, b, a] = self.clear_color;
                gl.clear_color(r, g, b, a);
                gl.clear(
                    glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT | glow::STENCIL_BUFFER_BIT,
                );
            } else {
                gl.clear(glow::DEPTH_BUFFER_BIT | glow::STENCIL_BUFFER_BIT);
                crate::targets::clear(gl, &self.targets, self.framebuffer_srgb);
            }
        }
        if check {
            driver.check(|| Place::Frame, "glClear")?;
        }
        for (i, draw) in self.draws.iter().enumerate() {
            let program = &self.programs[draw.program];
            // SAFETY: as above; the uniform writes were resolved against this program,
            // which is made current before them.
            unsafe {
                gl.use_program(Some(program.program));
                self.apply_state(&draw.state);
                if let Some(compat) = &driver.compatibility {
                    for &input in &draw.unfed {
                        hold_at_default(compat, input);
                    }
                }
                for write in &draw.uniforms.writes {
                    write.apply(gl);
                }
                for (block, &buffer) in draw.uniforms.blocks.iter().zip(&draw.block_buffers) {
                    gl.bind_buffer_base(glow::UNIFORM_BUFFER, block.index, Some(buffer));
                }
                for (unit, texture, sampler, location, target) in &draw.samplers {
                    gl.active_texture(glow::TEXTURE0 + unit);
                    gl.bind_texture(*target, Some(*texture));
                    gl.bind_sampler(*unit, Some(*sampler));
                    gl.uniform_1_i32(Some(location), *unit as i32);
                }
                gl.bind_vertex_array(Some(draw.vertex_array));
                if let Some(index) = draw.restart {
                    gl.enable(glow::PRIMITIVE_RESTART);
                    (driver.core.primitive_restart_index)(index);
                } else {
                    gl.disable(glow::PRIMITIVE_RESTART);
                }
                if draw.index_count > 0 && draw.instances == 1 {
                    gl.draw_elements(draw.mode, draw.index_count, glow::UNSIGNED_INT, 0);
                } else if draw.index_count > 0 && draw.instances > 1 {
                    gl.draw_elements_instanced(
                        draw.mode,
                        draw.index_count,
                        glow::UNSIGNED_INT,
                        0,
                        draw.instances,
                    );
                }
                gl.bind_vertex_array(None);
            }
            if check {
                driver.check(|| Place::Draw(i), "glDrawElements")?;
            }
        }
        if let Some(resolve) = &self.resolve {
            let count = self.targets.len().max(1);
            // SAFETY: the resolve framebuffer was made with this frame's colour formats
            // and size, single-sampled.
            unsafe {
                crate::multisample::blit(
                    gl,
                    self.framebuffer,
                    resolve,
                    count,
                    self.width,
                    self.height,
                );
            }
            if check {
                driver.check(|| Place::Frame, "glBlitFramebuffer")?;
            }
        }
        Ok(())
    }

    /// The framebuffer the frame is read from: the resolve framebuffer of a
    /// multisampled frame, else the one drawn into.
    fn read_framebuffer(&self) -> glow::Framebuffer {
        self.resolve
            .as_ref()
            .map_or(self.framebuffer, |r| r.framebuffer)
    }

    /// Set one draw's fixed-function state (every piece, so nothing leaks from the
    /// draw before).
    fn apply_state(&self, state: &DrawState) {
        let gl = &self.driver.gl;
        // SAFETY: state calls with enums from the documented sets on the current
        // context; the compatibility entry points exist when `compatibility` is set
        // (loaded by Driver::open) and take an enum and four doubles.
        unsafe {
            let enable = |cap: u32, on: bool| if on { gl.enable(cap) } else { gl.disable(cap) };
            (self.driver.core.provoking_vertex)(if state.provoking_first {
                glow::FIRST_VERTEX_CONVENTION
            } else {
                glow::LAST_VERTEX_CONVENTION
            });
            (self.driver.core.point_size)(state.point_size);
            enable(glow::PROGRAM_POINT_SIZE, state.program_point_size);
            gl.line_width(state.line_width);
            gl.polygon_mode(glow::FRONT_AND_BACK, state.polygon_mode);
            enable(glow::DEPTH_TEST, state.depth_func.is_some());
            if let Some(f) = state.depth_func {
                gl.depth_func(f);
            }
            gl.depth_mask(state.depth_mask);
            enable(glow::CULL_FACE, state.cull_face.is_some());
            if let Some(face) = state.cull_face {
                gl.cull_face(face);
            }
            enable(glow::BLEND, state.blend.is_some());
            if let Some(b) = state.blend {
                gl.blend_equation_separate(b.equation_rgb, b.equation_alpha);
                gl.blend_func_separate(b.src_rgb, b.dst_rgb, b.src_alpha, b.dst_alpha);
                let [r, g, b, a] = b.color;
                gl.blend_color(r, g, b, a);
            }
            let [r, g, b, a] = state.color_mask;
            gl.color_mask(r, g, b, a);
            enable(glow::SCISSOR_TEST, state.scissor.is_some());
            if let Some([x, y, w, h]) = state.scissor {
                gl.scissor(x, y, w, h);
            }
            let [x, y, w, h] =
                state
                    .viewport
                    .unwrap_or([0, 0, self.width as i32, self.height as i32]);
            gl.viewport(x, y, w, h);
            let [near, far] = state.depth_range;
            gl.depth_range_f64(f64::from(near), f64::from(far));
            enable(glow::POLYGON_OFFSET_FILL, state.polygon_offset.is_some());
            if let Some([factor, units]) = state.polygon_offset {
                gl.polygon_offset(factor, units);
            }
            crate::stencil::apply(gl, state.stencil, state.depth_clamp);
            crate::multisample::apply(gl, state.alpha_to_coverage, state.sample_coverage);
            if let Some(compat) = &self.driver.compatibility {
                // glClipPlane stores the equation through the inverse modelview matrix
                // of the time (GL 2.1 §2.12): identity, so it is stored as given
                (compat.matrix_mode)(GL_MODELVIEW);
                (compat.load_matrix)(IDENTITY.as_ptr());
            }
            for (i, plane) in state.clip_planes.iter().enumerate() {
                let cap = glow::CLIP_DISTANCE0 + i as u32;
                enable(cap, plane.is_some());
                if let (Some(eq), Some(compat)) = (plane, &self.driver.compatibility) {
                    let eq = eq.map(f64::from);
                    (compat.clip_plane)(cap, eq.as_ptr());
                }
            }
            if let Some(compat) = &self.driver.compatibility {
                let [modelview, projection] = &state.matrices;
                (compat.load_matrix)(modelview.as_ptr());
                (compat.matrix_mode)(GL_PROJECTION);
                (compat.load_matrix)(projection.as_ptr());
                // GL_VERTEX_PROGRAM_TWO_SIDE (GL 2.1 §2.14.1)
                enable(0x8643, state.two_sided_color);
                (compat.shade_model)(if state.flat_shading { 0x1D00 } else { 0x1D01 });
            }
        }
    }

    /// The colour attachment, RGBA8, top row first (`glReadPixels` from the bottom row,
    /// flipped): `width × height × 4` bytes.
    pub fn read_rgba8(&self) -> Vec<u8> {
        let gl = &self.driver.gl;
        let (w, h) = (self.width as usize, self.height as usize);
        let mut pixels = vec![0u8; w * h * 4];
        // SAFETY: `pixels` holds exactly width × height RGBA8 pixels at a pack
        // alignment of 1, what glReadPixels writes for this rectangle.
        unsafe {
            gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(self.read_framebuffer()));
            gl.read_buffer(glow::COLOR_ATTACHMENT0);
            gl.pixel_store_i32(glow::PACK_ALIGNMENT, 1);
            gl.read_pixels(
                0,
                0,
                w as i32,
                h as i32,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelPackData::Slice(Some(&mut pixels)),
            );
        }
        let row = w * 4;
        let mut flipped = Vec::with_capacity(pixels.len());
        for y in (0..h).rev() {
            flipped.extend_from_slice(&pixels[y * row..(y + 1) * row]);
        }
        flipped
    }

    /// Colour attachment `k` of [`FrameDesc::targets`] read back with its format's
    /// `glReadPixels` format and type, top row first (`gl/src/targets.rs`); `None`
    /// past the last target (or for a frame without targets).
    pub fn read_target(&self, k: usize) -> Option<Vec<[u32; 4]>> {
        let target = self.targets.get(k)?;
        let gl = &self.driver.gl;
        // SAFETY: the frame's framebuffer was made by `targets::attach` with these
        // targets, at this size.
        Some(unsafe {
            crate::targets::read(
                gl,
                self.read_framebuffer(),
                k,
                target,
                self.width,
                self.height,
            )
        })
    }

    /// The framebuffer's size, (width, height).
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }
}

impl Drop for PreparedFrame<'_> {
    fn drop(&mut self) {
        let gl = &self.driver.gl;
        // SAFETY: every object named here was created by this frame on the driver's
        // context, which outlives the frame (the frame borrows the driver).
        unsafe {
            for d in &self.draws {
                gl.delete_vertex_array(d.vertex_array);
                for (_, _, sampler, _, _) in &d.samplers {
                    gl.delete_sampler(*sampler);
                }
            }
            for &b in &self.buffers {
                gl.delete_buffer(b);
            }
            for &t in &self.textures {
                gl.delete_texture(t);
            }
            for p in &self.programs {
                gl.delete_program(p.program);
            }
            for &rb in &self.renderbuffers {
                gl.delete_renderbuffer(rb);
            }
            gl.delete_framebuffer(self.framebuffer);
            if let Some(resolve) = &self.resolve {
                for &rb in &resolve.renderbuffers {
                    gl.delete_renderbuffer(rb);
                }
                gl.delete_framebuffer(resolve.framebuffer);
            }
        }
    }
}

/// `NAME[K]` as `(NAME, K)`: an element of an array of samplers (GLSL 3.30 §4.1.7), which
/// `glGetActiveUniform` lists as the array `NAME[0]` of its size; `None` for another
/// name.
fn array_element(name: &str) -> Option<(&str, i32)> {
    let (array, rest) = name.split_once('[')?;
    let k = rest.strip_suffix(']')?;
    if k.is_empty() || !k.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((array, k.parse().ok()?))
}
