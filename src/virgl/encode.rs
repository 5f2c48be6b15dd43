//! Prepared draws sent to a VirGL host: resources created and filled, state objects,
//! shaders and bindings encoded, one draw per submission, then the colour buffer read
//! back.
//!
//! Each shader and each draw is submitted on its own and followed by a wait, so that
//! when the host refuses something (it closes the connection) the error names the
//! draw, and the shader, it refused.

use super::points_lines;
use super::prepare::{PreparedDraw, ProgramTgsi};
use super::state::{
    blend_color, blend_state, depth_state, rasterizer_state, scissor, stencil_ref, viewport,
};
use super::textures::{SlotTexture, TextureUpload, level_range, sampler_state};
use super::{VirglFrame, VirglOptions, VirglRenderError};
use crate::image_io::Rgba8Image;
use crate::scene::{Draw, Scene};
use csir_virgl::command::{CommandBuffer, ObjectHandle, ObjectType, ResourceHandle, VertexBuffer};
use csir_virgl::pipe::{Bind, ClearBuffers, Format, ShaderStage, Target};
use csir_virgl::sampler::{SamplerState, SamplerView};
use csir_virgl::state::{BlendState, DepthState, RasterizerState, VertexElement};
use csir_virgl::{ResourceDesc, VirglError, VtestConnection};
use std::collections::HashMap;
use std::sync::Arc;

/// Encoder state for one frame on one connection: handles handed out so far and the
/// objects already created, so that draws share them.
struct Encoder<'c> {
    connection: &'c mut VtestConnection,
    options: &'c VirglOptions,
    next_object: u32,
    /// Scene texture index → its resource and what it was uploaded as.
    textures: HashMap<usize, (ResourceHandle, TextureUpload)>,
    views: HashMap<SamplerView, ObjectHandle>,
    samplers: HashMap<SamplerState, ObjectHandle>,
    blends: HashMap<BlendState, ObjectHandle>,
    depths: HashMap<DepthState, ObjectHandle>,
    rasterizers: HashMap<RasterizerState, ObjectHandle>,
    shaders: HashMap<*const ProgramTgsi, (ObjectHandle, ObjectHandle)>,
    shader_packets: usize,
}

/// Render `draws` (prepared from `scene`) on `connection`.
pub fn render(
    scene: &Scene,
    draws: &[PreparedDraw],
    connection: &mut VtestConnection,
    options: &VirglOptions,
) -> Result<VirglFrame, VirglRenderError> {
    let (width, height) = (scene.width, scene.height);
    let mut encoder = Encoder {
        connection,
        options,
        next_object: 1,
        textures: HashMap::new(),
        views: HashMap::new(),
        samplers: HashMap::new(),
        blends: HashMap::new(),
        depths: HashMap::new(),
        rasterizers: HashMap::new(),
        shaders: HashMap::new(),
        shader_packets: 0,
    };
    let attachments = super::targets::attachments(scene);
    // A multisampled frame (`samples: 4`) draws into 4-sample resources and is
    // resolved by a blit into single-sampled ones before it is read back.
    let samples = if scene.samples > 1 { scene.samples } else { 0 };
    let mut colors = Vec::with_capacity(attachments.len());
    let mut surfaces = Vec::with_capacity(attachments.len());
    let mut commands = CommandBuffer::new();
    for attachment in &attachments {
        let resource = encoder.connection.create_resource(
            &ResourceDesc::texture_2d(
                width,
                height,
                attachment.resource_format,
                Bind::RENDER_TARGET,
            )
            .with_samples(samples),
        )?;
        let surface = encoder.object();
        commands.create_surface(surface, resource, attachment.surface_format);
        colors.push(resource);
        surfaces.push(surface);
    }
    let depth = encoder.connection.create_resource(
        &ResourceDesc::texture_2d(width, height, Format::S8UintZ24Unorm, Bind::DEPTH_STENCIL)
            .with_samples(samples),
    )?;
    let depth_surface = encoder.object();
    commands.create_surface(depth_surface, depth, Format::S8UintZ24Unorm);
    commands.set_framebuffer(&surfaces, Some(depth_surface));
    // Window = NDC · (w/2, h/2, 1/2) + (w/2, h/2, 1/2): NDC y = −1 lands on row 0,
    // OpenGL's bottom row of a framebuffer object; depth range [0, 1].
    let half = [width as f32 / 2.0, height as f32 / 2.0, 0.5];
    commands.set_viewport(half, half);
    // Each target its own clear value (glClearBuffer*), depth and stencil once.
    for (k, attachment) in attachments.iter().enumerate() {
        let mut buffers = ClearBuffers::color(k as u32);
        if k == 0 {
            buffers = buffers
                .with(ClearBuffers::DEPTH)
                .with(ClearBuffers::STENCIL);
        }
        commands.clear_words(
            buffers,
            attachment.clear,
            f64::from(scene.clear_depth),
            u32::from(scene.clear_stencil),
        );
    }
    encoder.submit(&commands, scene, "")?;
    for prepared in draws {
        encoder.draw(scene, prepared)?;
    }
    if samples > 0 {
        let mut commands = CommandBuffer::new();
        for (attachment, color) in attachments.iter().zip(colors.iter_mut()) {
            let resolved = encoder
                .connection
                .create_resource(&ResourceDesc::texture_2d(
                    width,
                    height,
                    attachment.resource_format,
                    Bind::RENDER_TARGET,
                ))?;
            commands.blit(resolved, *color, attachment.surface_format, [width, height]);
            *color = resolved;
        }
        encoder.submit(&commands, scene, "")?;
    }
    let mut targets = Vec::with_capacity(attachments.len());
    for (attachment, &resource) in attachments.iter().zip(&colors) {
        let bytes = encoder.connection.read_texture(
            resource,
            width,
            height,
            attachment.resource_format.bytes(),
        )?;
        targets.push(super::targets::target_image(
            attachment.target,
            width,
            height,
            &bytes,
        ));
    }
    // The frame is target 0 as RGBA8, top row first (as the CPU renderer's).
    let image = Rgba8Image::new(width, height, targets[0].to_rgba8())
        .expect("a scene is at least 1x1 and every target is read back whole");
    if !scene.targets.given {
        targets.clear();
    }
    Ok(VirglFrame {
        image,
        draws: draws.len(),
        triangles: draws.iter().map(|d| d.draw.indices.len() as u64 / 3).sum(),
        shader_packets: encoder.shader_packets,
        targets,
    })
}

impl Encoder<'_> {
    fn object(&mut self) -> ObjectHandle {
        let handle = ObjectHandle(self.next_object);
        self.next_object += 1;
        handle
    }

    /// Submit `commands` and wait for the host; a refusal is reported on `field` of
    /// the scene (the whole scene when `field` is empty).
    fn submit(
        &mut self,
        commands: &CommandBuffer,
        scene: &Scene,
        field: &str,
    ) -> Result<(), VirglRenderError> {
        let result = self
            .connection
            .submit(commands)
            .and_then(|()| self.connection.wait_idle("a command buffer"));
        result.map_err(|source| match source {
            VirglError::Disconnected { .. } => VirglRenderError::Host {
                scene: scene.path.display().to_string(),
                field: field.to_owned(),
                source,
            },
            other => VirglRenderError::Virgl(other),
        })
    }

    fn draw(&mut self, scene: &Scene, prepared: &PreparedDraw) -> Result<(), VirglRenderError> {
        let draw = prepared.draw;
        let (vertex_shader, fragment_shader) = self.shaders(scene, draw, &prepared.tgsi)?;
        let mut commands = CommandBuffer::new();
        let state = &draw.state.raster;
        let multisample = &draw.state.multisample;
        let blend = blend_state(state, multisample.alpha_to_coverage);
        let blend = self.state_object(&mut commands, blend);
        let depth = self.state_object(&mut commands, depth_state(state));
        let rasterizer = RasterizerState {
            multisample: scene.samples > 1,
            ..points_lines::rasterizer(rasterizer_state(state), prepared)
        };
        let rasterizer = self.state_object(&mut commands, rasterizer);
        if scene.samples > 1 {
            // Gallium's sample mask: glSampleCoverage's samples (all without it).
            commands.set_sample_mask(multisample.coverage_mask());
        }
        commands.bind_object(ObjectType::Blend, blend);
        commands.bind_object(ObjectType::DepthStencilAlpha, depth);
        commands.bind_object(ObjectType::Rasterizer, rasterizer);
        let [front, back] = stencil_ref(state);
        commands.set_stencil_ref(front, back);
        if state.blend.function().reads_constant() {
            commands.set_blend_color(blend_color(state));
        }
        let (scale, translate) = viewport(state, scene.width, scene.height);
        commands.set_viewport(scale, translate);
        if let Some(rect) = scissor(state) {
            commands.set_scissor(rect);
        }
        commands.bind_shader(vertex_shader, ShaderStage::Vertex);
        commands.bind_shader(fragment_shader, ShaderStage::Fragment);
        self.vertex_input(&mut commands, draw, &prepared.inputs)?;
        commands.set_constants(ShaderStage::Vertex, &prepared.vertex_constants)?;
        commands.set_constants(ShaderStage::Fragment, &prepared.fragment_constants)?;
        for (stage, slots) in [
            (ShaderStage::Vertex, &prepared.vertex_textures),
            (ShaderStage::Fragment, &prepared.fragment_textures),
        ] {
            self.sampler_slots(&mut commands, scene, stage, slots)?;
        }
        if let Some(command) = points_lines::draw_command(draw) {
            commands.draw_indexed(command);
        }
        self.submit(&commands, scene, &draw.field())
    }

    /// The program's two shader objects, created (each in its own submission, so a
    /// refusal names the shader) on the program's first draw.
    fn shaders(
        &mut self,
        scene: &Scene,
        draw: &Draw,
        tgsi: &Arc<ProgramTgsi>,
    ) -> Result<(ObjectHandle, ObjectHandle), VirglRenderError> {
        if let Some(&handles) = self.shaders.get(&Arc::as_ptr(tgsi)) {
            return Ok(handles);
        }
        let mut handles = Vec::with_capacity(2);
        for (stage, text, field) in [
            (ShaderStage::Vertex, &tgsi.vertex, draw.vertex_field()),
            (ShaderStage::Fragment, &tgsi.fragment, draw.fragment_field()),
        ] {
            let handle = self.object();
            let mut commands = CommandBuffer::new();
            self.shader_packets += commands.create_shader(
                handle,
                stage,
                text,
                csir_virgl::command::tgsi_token_bound(text),
                self.options.shader_packet_bytes,
            );
            self.submit(&commands, scene, &field)?;
            handles.push(handle);
        }
        let handles = (handles[0], handles[1]);
        self.shaders.insert(Arc::as_ptr(tgsi), handles);
        Ok(handles)
    }

    /// A state object with `state`'s value, created the first time it is needed.
    fn state_object<S: StateObject>(
        &mut self,
        commands: &mut CommandBuffer,
        state: S,
    ) -> ObjectHandle {
        if let Some(&handle) = S::cache(self).get(&state) {
            return handle;
        }
        let handle = self.object();
        state.create(commands, handle);
        S::cache(self).insert(state, handle);
        handle
    }

    /// Vertex elements, vertex buffers and the index buffer of `draw`: input `IN[n]`
    /// reads element `n`, which reads buffer binding `n`, one buffer per attribute.
    fn vertex_input(
        &mut self,
        commands: &mut CommandBuffer,
        draw: &Draw,
        inputs: &[Option<usize>],
    ) -> Result<(), VirglRenderError> {
        let mut elements = Vec::with_capacity(inputs.len());
        let mut buffers = Vec::with_capacity(inputs.len());
        let mut default_input = None;
        for (n, input) in inputs.iter().enumerate() {
            let (resource, size, format, divisor) = match input.map(|i| &draw.attributes[i]) {
                Some(attribute) => (
                    self.buffer(&attribute.data, Bind::VERTEX_BUFFER)?,
                    attribute.size,
                    points_lines::attribute_format(attribute),
                    attribute.divisor,
                ),
                None => {
                    // GL's value of an input without an array: (0, 0, 0, 1).
                    let resource = match default_input {
                        Some(resource) => resource,
                        None => {
                            let data = [0.0, 0.0, 0.0, 1.0].repeat(draw.vertex_count as usize);
                            let resource = self.buffer(&data, Bind::VERTEX_BUFFER)?;
                            default_input = Some(resource);
                            resource
                        }
                    };
                    (resource, 4, Format::R32G32B32A32Float, 0)
                }
            };
            elements.push(VertexElement {
                offset: 0,
                buffer: n as u32,
                format,
                instance_divisor: divisor,
            });
            buffers.push(VertexBuffer {
                resource,
                stride: size * 4,
                offset: 0,
            });
        }
        let handle = self.object();
        commands.create_vertex_elements(handle, &elements)?;
        commands.bind_object(ObjectType::VertexElements, handle);
        commands.set_vertex_buffers(&buffers)?;
        let indices: Vec<u8> = points_lines::index_list(draw)
            .iter()
            .flat_map(|i| i.to_le_bytes())
            .collect();
        let index_buffer = self.buffer_bytes(&indices, Bind::INDEX_BUFFER)?;
        commands.set_index_buffer_u32(index_buffer);
        Ok(())
    }

    fn buffer(&mut self, floats: &[f32], bind: Bind) -> Result<ResourceHandle, VirglRenderError> {
        let bytes: Vec<u8> = floats.iter().flat_map(|f| f.to_le_bytes()).collect();
        self.buffer_bytes(&bytes, bind)
    }

    fn buffer_bytes(
        &mut self,
        bytes: &[u8],
        bind: Bind,
    ) -> Result<ResourceHandle, VirglRenderError> {
        let resource = self
            .connection
            .create_resource(&ResourceDesc::buffer(bytes.len().max(4) as u32, bind))?;
        if !bytes.is_empty() {
            self.connection.write_buffer(resource, bytes)?;
        }
        Ok(resource)
    }

    /// Sampler views and sampler states for `stage`'s slots `0..` (an unbound slot
    /// gets handle 0, no view).
    fn sampler_slots(
        &mut self,
        commands: &mut CommandBuffer,
        scene: &Scene,
        stage: ShaderStage,
        slots: &[Option<SlotTexture>],
    ) -> Result<(), VirglRenderError> {
        let mut views = Vec::with_capacity(slots.len());
        let mut states = Vec::with_capacity(slots.len());
        for slot in slots {
            let (view, state) = match *slot {
                Some(slot) => {
                    let view = self.texture_view(commands, scene, slot)?;
                    let format = scene.textures[slot.texture]
                        .gl33
                        .as_ref()
                        .map(|g| g.format());
                    let state = sampler_state(slot.sampler, format);
                    (view, self.state_object(commands, state))
                }
                None => (ObjectHandle(0), ObjectHandle(0)),
            };
            views.push(view);
            states.push(state);
        }
        commands.set_sampler_views(stage, &views)?;
        commands.bind_sampler_states(stage, &states)?;
        Ok(())
    }

    /// The sampler view of a slot's texture from its sampler's base level, the
    /// texture uploaded on first use ([`TextureUpload`]: every level, layer, face or
    /// slice; texel row 0, t = 0, to texture row 0, as OpenGL stores it).
    fn texture_view(
        &mut self,
        commands: &mut CommandBuffer,
        scene: &Scene,
        slot: SlotTexture,
    ) -> Result<ObjectHandle, VirglRenderError> {
        if !self.textures.contains_key(&slot.texture) {
            let upload = TextureUpload::of(scene, slot.texture);
            let resource = self.connection.create_resource(&upload.desc)?;
            for level in &upload.levels {
                if upload.desc.target == Target::Buffer {
                    self.connection.write_buffer(resource, &level.bytes)?;
                } else if upload.target == Target::TextureCube {
                    // The host writes one face per transfer (`z` is the face).
                    let [w, h, faces] = level.size;
                    let face_bytes = level.bytes.len() / faces.max(1) as usize;
                    for (face, bytes) in level.bytes.chunks(face_bytes.max(1)).enumerate() {
                        self.connection.write_texture_level(
                            resource,
                            level.level,
                            face as u32,
                            [w, h, 1],
                            upload.texel_bytes,
                            bytes,
                        )?;
                    }
                } else {
                    self.connection.write_texture_level(
                        resource,
                        level.level,
                        0,
                        level.size,
                        upload.texel_bytes,
                        &level.bytes,
                    )?;
                }
            }
            self.textures.insert(slot.texture, (resource, upload));
        }
        let (resource, upload) = &self.textures[&slot.texture];
        let (base, max) = level_range(slot.sampler);
        let view = upload.view(*resource, base, max);
        if let Some(&handle) = self.views.get(&view) {
            return Ok(handle);
        }
        let handle = self.object();
        commands.create_sampler_view(handle, &view);
        self.views.insert(view, handle);
        Ok(handle)
    }
}

/// A fixed-function state object: how to create it and where the encoder keeps the
/// ones already created.
trait StateObject: Sized + Copy + Eq + std::hash::Hash {
    fn create(&self, commands: &mut CommandBuffer, handle: ObjectHandle);
    fn cache<'e>(encoder: &'e mut Encoder<'_>) -> &'e mut HashMap<Self, ObjectHandle>;
}

impl StateObject for BlendState {
    fn create(&self, commands: &mut CommandBuffer, handle: ObjectHandle) {
        commands.create_blend(handle, self);
    }
    fn cache<'e>(encoder: &'e mut Encoder<'_>) -> &'e mut HashMap<Self, ObjectHandle> {
        &mut encoder.blends
    }
}

impl StateObject for DepthState {
    fn create(&self, commands: &mut CommandBuffer, handle: ObjectHandle) {
        commands.create_depth_state(handle, self);
    }
    fn cache<'e>(encoder: &'e mut Encoder<'_>) -> &'e mut HashMap<Self, ObjectHandle> {
        &mut encoder.depths
    }
}

impl StateObject for RasterizerState {
    fn create(&self, commands: &mut CommandBuffer, handle: ObjectHandle) {
        commands.create_rasterizer(handle, self);
    }
    fn cache<'e>(encoder: &'e mut Encoder<'_>) -> &'e mut HashMap<Self, ObjectHandle> {
        &mut encoder.rasterizers
    }
}

impl StateObject for SamplerState {
    fn create(&self, commands: &mut CommandBuffer, handle: ObjectHandle) {
        commands.create_sampler_state(handle, self);
    }
    fn cache<'e>(encoder: &'e mut Encoder<'_>) -> &'e mut HashMap<Self, ObjectHandle> {
        &mut encoder.samplers
    }
}
