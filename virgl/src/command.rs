//! The virgl command stream: what a guest sends in `SUBMIT_CMD` (virglrenderer's
//! `virgl_protocol.h`; docs/virgl.md restates every command this encoder writes).
//!
//! A command is one header dword — command in bits 0..7, object type in bits 8..15,
//! payload length in dwords in bits 16..31 — followed by its payload. The host decodes
//! commands in order and stops at the first it rejects.

use crate::error::VirglError;
use crate::pipe::{ClearBuffers, Format, PrimitiveMode, ShaderStage};
use crate::sampler::{SamplerState, SamplerView};
use crate::state::{BlendState, DepthState, RasterizerState, VertexElement};

/// A context object (state object, shader, view or surface), named by the guest.
/// Never 0 (the host rejects handle 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectHandle(pub u32);

/// A resource (buffer or texture), named by the guest at creation. Never 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ResourceHandle(pub u32);

/// Object types of `CREATE_OBJECT` / `BIND_OBJECT` (`enum virgl_object_type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ObjectType {
    /// Blend state.
    Blend,
    /// Rasterizer state.
    Rasterizer,
    /// Depth/stencil/alpha state.
    DepthStencilAlpha,
    /// A shader (TGSI text).
    Shader,
    /// Vertex elements (attribute layout).
    VertexElements,
    /// A view of a texture for sampling.
    SamplerView,
    /// Sampler state.
    SamplerState,
    /// A view of a texture for rendering.
    Surface,
}

impl ObjectType {
    const fn code(self) -> u32 {
        match self {
            ObjectType::Blend => 1,
            ObjectType::Rasterizer => 2,
            ObjectType::DepthStencilAlpha => 3,
            ObjectType::Shader => 4,
            ObjectType::VertexElements => 5,
            ObjectType::SamplerView => 6,
            ObjectType::SamplerState => 7,
            ObjectType::Surface => 8,
        }
    }
}

/// Context commands (`enum virgl_context_cmd`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ccmd {
    CreateObject = 1,
    BindObject = 2,
    DestroyObject = 3,
    SetViewportState = 4,
    SetFramebufferState = 5,
    SetVertexBuffers = 6,
    Clear = 7,
    DrawVbo = 8,
    SetSamplerViews = 10,
    SetIndexBuffer = 11,
    SetConstantBuffer = 12,
    SetStencilRef = 13,
    SetBlendColor = 14,
    SetScissorState = 15,
    Blit = 16,
    BindSamplerStates = 18,
    SetSampleMask = 24,
    BindShader = 31,
}

/// The largest payload of one command, in dwords (the 16-bit length field).
pub const MAX_PAYLOAD_DWORDS: usize = 0xffff;

/// Shader-object dwords before the text: handle, stage, length or offset, token
/// count, stream-output count (`VIRGL_OBJ_SHADER_HDR_SIZE(0)`).
const SHADER_HEADER_DWORDS: usize = 5;

/// Bit 31 of the shader offset dword: this packet continues a shader.
const SHADER_CONTINUATION: u32 = 1 << 31;

/// A safe upper bound on the number of TGSI tokens `text` parses into, for
/// [`CommandBuffer::create_shader`]: the host parses into a token array of exactly
/// the size the guest announces (plus 10), and a text emitter has no token count.
///
/// Per line at most 16 tokens: an instruction takes one token, one more each for a
/// label and a texture target, and at most two per operand (the register and its
/// dimension) for up to four operands; a declaration at most 8, an immediate 5 (a
/// header and four values), a property 2. Plus 16 for the shader's header tokens.
pub fn tgsi_token_bound(text: &str) -> u32 {
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    u32::try_from(lines)
        .unwrap_or(u32::MAX / 32)
        .saturating_mul(16)
        .saturating_add(16)
}

/// A vertex buffer binding: which buffer, the byte offset of vertex 0 and the bytes
/// from one vertex to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VertexBuffer {
    /// The buffer.
    pub resource: ResourceHandle,
    /// Bytes between consecutive vertices.
    pub stride: u32,
    /// Byte offset of vertex 0.
    pub offset: u32,
}

/// An indexed draw from the bound index buffer (`pipe_draw_info`;
/// `glDrawElementsInstancedBaseVertex` with GL 3.1's primitive restart, GL 3.3 core
/// §2.8.1–§2.8.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexedDraw {
    /// The primitive type.
    pub mode: PrimitiveMode,
    /// Number of indices, starting at index 0 of the buffer.
    pub count: u32,
    /// Instances drawn (≥ 1; the host draws once for 0, so a caller skips such a
    /// draw).
    pub instance_count: u32,
    /// The first instance (`start_instance`, added to the instance number for
    /// instanced attributes, not to `gl_InstanceID`).
    pub start_instance: u32,
    /// Added to every index before it fetches a vertex (`index_bias`, GL's
    /// `basevertex`).
    pub index_bias: i32,
    /// `Some(index)`: primitive restart on, at this index value.
    pub restart: Option<u32>,
    /// The smallest index used, restart index aside (the bounds the host may rely
    /// on, `glDrawRangeElements`).
    pub min_index: u32,
    /// The largest index used, restart index aside.
    pub max_index: u32,
}

impl IndexedDraw {
    /// `count` indices of a `mode` draw, one instance, no bias, no restart, indices
    /// `0..=max_index`.
    pub const fn new(mode: PrimitiveMode, count: u32, max_index: u32) -> IndexedDraw {
        IndexedDraw {
            mode,
            count,
            instance_count: 1,
            start_instance: 0,
            index_bias: 0,
            restart: None,
            min_index: 0,
            max_index,
        }
    }
}

/// A command buffer being built: a sequence of dwords for one `SUBMIT_CMD`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommandBuffer {
    words: Vec<u32>,
}

impl CommandBuffer {
    /// An empty buffer.
    pub fn new() -> CommandBuffer {
        CommandBuffer::default()
    }

    /// The encoded dwords.
    pub fn words(&self) -> &[u32] {
        &self.words
    }

    /// Whether nothing has been encoded.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Forget everything encoded so far.
    pub fn reset(&mut self) {
        self.words.clear();
    }

    fn command(
        &mut self,
        name: &'static str,
        cmd: Ccmd,
        object: Option<ObjectType>,
        payload: &[u32],
    ) -> Result<(), VirglError> {
        if payload.len() > MAX_PAYLOAD_DWORDS {
            return Err(VirglError::CommandTooLong {
                command: name,
                dwords: payload.len(),
            });
        }
        let object = object.map_or(0, ObjectType::code);
        self.words
            .push(cmd as u32 | object << 8 | (payload.len() as u32) << 16);
        self.words.extend_from_slice(payload);
        Ok(())
    }

    fn create(
        &mut self,
        name: &'static str,
        object: ObjectType,
        handle: ObjectHandle,
        body: &[u32],
    ) -> Result<(), VirglError> {
        let mut payload = Vec::with_capacity(body.len() + 1);
        payload.push(handle.0);
        payload.extend_from_slice(body);
        self.command(name, Ccmd::CreateObject, Some(object), &payload)
    }

    /// Create blend state `handle`.
    pub fn create_blend(&mut self, handle: ObjectHandle, state: &BlendState) {
        self.create_fixed("create blend", ObjectType::Blend, handle, &state.dwords());
    }

    /// Create depth/stencil/alpha state `handle`.
    pub fn create_depth_state(&mut self, handle: ObjectHandle, state: &DepthState) {
        let object = ObjectType::DepthStencilAlpha;
        self.create_fixed("create depth state", object, handle, &state.dwords());
    }

    /// Create rasterizer state `handle`.
    pub fn create_rasterizer(&mut self, handle: ObjectHandle, state: &RasterizerState) {
        let object = ObjectType::Rasterizer;
        self.create_fixed("create rasterizer", object, handle, &state.dwords());
    }

    /// Create sampler state `handle`.
    pub fn create_sampler_state(&mut self, handle: ObjectHandle, state: &SamplerState) {
        let object = ObjectType::SamplerState;
        self.create_fixed("create sampler state", object, handle, &state.dwords());
    }

    /// Create vertex elements `handle`: element `i` feeds vertex shader input `IN[i]`.
    ///
    /// Errors: more elements than one command holds.
    pub fn create_vertex_elements(
        &mut self,
        handle: ObjectHandle,
        elements: &[VertexElement],
    ) -> Result<(), VirglError> {
        let body: Vec<u32> = elements.iter().flat_map(VertexElement::dwords).collect();
        self.create(
            "create vertex elements",
            ObjectType::VertexElements,
            handle,
            &body,
        )
    }

    /// Create sampler view `handle` ([`SamplerView`]: a resource's layers and
    /// levels, or a buffer's elements, in a format and target).
    pub fn create_sampler_view(&mut self, handle: ObjectHandle, view: &SamplerView) {
        self.create_fixed(
            "create sampler view",
            ObjectType::SamplerView,
            handle,
            &view.dwords(),
        );
    }

    /// Create a surface `handle`: level 0, layer 0 of `resource` in `format`, to
    /// render into.
    pub fn create_surface(
        &mut self,
        handle: ObjectHandle,
        resource: ResourceHandle,
        format: Format,
    ) {
        let body = [resource.0, format.code(), 0, 0];
        self.create_fixed("create surface", ObjectType::Surface, handle, &body);
    }

    /// Fixed-size objects always fit in one command.
    fn create_fixed(
        &mut self,
        name: &'static str,
        object: ObjectType,
        handle: ObjectHandle,
        body: &[u32],
    ) {
        debug_assert!(body.len() < 16);
        let _fits = self.create(name, object, handle, body);
    }

    /// Create shader `handle` of `stage` from TGSI `text`, in as many packets as it
    /// takes when a packet may carry at most `max_packet_text` bytes of text (rounded
    /// down to whole dwords, at least one dword).
    ///
    /// The text is sent NUL-terminated. The first packet's offset dword holds the
    /// whole length with its NUL; each later packet is a continuation (bit 31 set)
    /// whose offset is the number of bytes sent before it. The host joins the
    /// pieces and parses the text once the last arrives, into at most
    /// `num_tokens + 10` TGSI tokens. Returns the number of packets.
    pub fn create_shader(
        &mut self,
        handle: ObjectHandle,
        stage: ShaderStage,
        text: &str,
        num_tokens: u32,
        max_packet_text: usize,
    ) -> usize {
        let mut bytes = text.as_bytes().to_vec();
        bytes.push(0);
        let total = bytes.len() as u32;
        let chunk = (max_packet_text / 4).clamp(1, MAX_PAYLOAD_DWORDS - SHADER_HEADER_DWORDS) * 4;
        let mut packets = 0;
        for (i, piece) in bytes.chunks(chunk).enumerate() {
            let offset = if i == 0 {
                total
            } else {
                (i * chunk) as u32 | SHADER_CONTINUATION
            };
            let mut body = vec![stage.code(), offset, num_tokens, 0];
            body.extend(piece.chunks(4).map(|b| {
                let mut word = [0u8; 4];
                word[..b.len()].copy_from_slice(b);
                u32::from_le_bytes(word)
            }));
            // `chunk` keeps every packet within MAX_PAYLOAD_DWORDS.
            let _fits = self.create("create shader", ObjectType::Shader, handle, &body);
            packets += 1;
        }
        packets
    }

    /// Bind state object `handle` of type `object` (blend, rasterizer, depth state
    /// or vertex elements).
    pub fn bind_object(&mut self, object: ObjectType, handle: ObjectHandle) {
        let _fits = self.command("bind object", Ccmd::BindObject, Some(object), &[handle.0]);
    }

    /// Destroy object `handle` of type `object`.
    pub fn destroy_object(&mut self, object: ObjectType, handle: ObjectHandle) {
        let _fits = self.command(
            "destroy object",
            Ccmd::DestroyObject,
            Some(object),
            &[handle.0],
        );
    }

    /// Bind shader `handle` as the `stage` shader.
    pub fn bind_shader(&mut self, handle: ObjectHandle, stage: ShaderStage) {
        let _fits = self.command(
            "bind shader",
            Ccmd::BindShader,
            None,
            &[handle.0, stage.code()],
        );
    }

    /// Viewport 0: window = NDC · scale + translate, per axis (x, y, z).
    pub fn set_viewport(&mut self, scale: [f32; 3], translate: [f32; 3]) {
        let mut payload = vec![0u32];
        payload.extend(scale.iter().chain(&translate).map(|v| v.to_bits()));
        let _fits = self.command("set viewport", Ccmd::SetViewportState, None, &payload);
    }

    /// The framebuffer: colour surfaces in order and an optional depth surface.
    pub fn set_framebuffer(&mut self, colors: &[ObjectHandle], depth: Option<ObjectHandle>) {
        let mut payload = vec![colors.len() as u32, depth.map_or(0, |d| d.0)];
        payload.extend(colors.iter().map(|c| c.0));
        let _fits = self.command("set framebuffer", Ccmd::SetFramebufferState, None, &payload);
    }

    /// Vertex buffer bindings 0.. in order.
    ///
    /// Errors: more bindings than one command holds.
    pub fn set_vertex_buffers(&mut self, buffers: &[VertexBuffer]) -> Result<(), VirglError> {
        let payload: Vec<u32> = buffers
            .iter()
            .flat_map(|b| [b.stride, b.offset, b.resource.0])
            .collect();
        self.command("set vertex buffers", Ccmd::SetVertexBuffers, None, &payload)
    }

    /// The index buffer: 32-bit indices starting at byte 0 of `resource`.
    pub fn set_index_buffer_u32(&mut self, resource: ResourceHandle) {
        let _fits = self.command(
            "set index buffer",
            Ccmd::SetIndexBuffer,
            None,
            &[resource.0, 4, 0],
        );
    }

    /// Constant buffer 0 of `stage` (the shader's `CONST[0][n]`, vec4 `n` = floats
    /// `4n..4n+4`), sent inline as Mesa's virgl driver sends the default uniform
    /// block.
    ///
    /// Errors: more floats than one command holds.
    pub fn set_constants(&mut self, stage: ShaderStage, values: &[f32]) -> Result<(), VirglError> {
        let mut payload = vec![stage.code(), 0];
        payload.extend(values.iter().map(|v| v.to_bits()));
        self.command(
            "set constant buffer",
            Ccmd::SetConstantBuffer,
            None,
            &payload,
        )
    }

    /// Sampler views of `stage`, slots `0..views.len()`.
    ///
    /// Errors: more views than one command holds.
    pub fn set_sampler_views(
        &mut self,
        stage: ShaderStage,
        views: &[ObjectHandle],
    ) -> Result<(), VirglError> {
        let mut payload = vec![stage.code(), 0];
        payload.extend(views.iter().map(|v| v.0));
        self.command("set sampler views", Ccmd::SetSamplerViews, None, &payload)
    }

    /// Sampler states of `stage`, slots `0..states.len()`.
    ///
    /// Errors: more states than one command holds.
    pub fn bind_sampler_states(
        &mut self,
        stage: ShaderStage,
        states: &[ObjectHandle],
    ) -> Result<(), VirglError> {
        let mut payload = vec![stage.code(), 0];
        payload.extend(states.iter().map(|v| v.0));
        self.command(
            "bind sampler states",
            Ccmd::BindSamplerStates,
            None,
            &payload,
        )
    }

    /// The stencil reference values of front and back faces
    /// (`VIRGL_CCMD_SET_STENCIL_REF`: front in bits 0..7, back in 8..15).
    pub fn set_stencil_ref(&mut self, front: u8, back: u8) {
        let payload = [u32::from(front) | u32::from(back) << 8];
        let _fits = self.command("set stencil ref", Ccmd::SetStencilRef, None, &payload);
    }

    /// The sample mask (`VIRGL_CCMD_SET_SAMPLE_MASK`, `glSampleMaski(0, mask)`):
    /// bit `s` lets a fragment write sample `s`. The host applies it while the
    /// rasterizer state's multisample bit is set. Gallium's form of
    /// `glSampleCoverage`: the state tracker turns a coverage value into this mask.
    pub fn set_sample_mask(&mut self, mask: u32) {
        let _fits = self.command("set sample mask", Ccmd::SetSampleMask, None, &[mask]);
    }

    /// Copy the colour channels (`PIPE_MASK_RGBA`) of level 0, layer 0 of `src` into
    /// `dst`, both `width × height` and of `format`, nearest filtering, no scissor
    /// (`VIRGL_CCMD_BLIT`): from a multisampled `src` this is the resolve of
    /// `glBlitFramebuffer`.
    pub fn blit(
        &mut self,
        dst: ResourceHandle,
        src: ResourceHandle,
        format: Format,
        [width, height]: [u32; 2],
    ) {
        const PIPE_MASK_RGBA: u32 = 0xf;
        let mut payload = vec![PIPE_MASK_RGBA, 0, 0];
        for resource in [dst, src] {
            // handle, level, format, x, y, z, w, h, d
            payload.extend([resource.0, 0, format.code(), 0, 0, 0, width, height, 1]);
        }
        let _fits = self.command("blit", Ccmd::Blit, None, &payload);
    }

    /// The blend colour, RGBA floats (`VIRGL_CCMD_SET_BLEND_COLOR`, `glBlendColor`).
    pub fn set_blend_color(&mut self, color: [f32; 4]) {
        let payload = color.map(f32::to_bits);
        let _fits = self.command("set blend color", Ccmd::SetBlendColor, None, &payload);
    }

    /// Scissor rectangle 0, `[min_x, min_y, max_x, max_y]` in window pixels (max
    /// exclusive; `VIRGL_CCMD_SET_SCISSOR_STATE`: start slot, then x and y of each
    /// corner in the low and high 16 bits), used while the rasterizer state's
    /// scissor bit is set.
    pub fn set_scissor(&mut self, [min_x, min_y, max_x, max_y]: [u16; 4]) {
        let payload = [
            0,
            u32::from(min_x) | u32::from(min_y) << 16,
            u32::from(max_x) | u32::from(max_y) << 16,
        ];
        let _fits = self.command("set scissor", Ccmd::SetScissorState, None, &payload);
    }

    /// Clear `buffers` of the bound framebuffer to `color` (RGBA floats), `depth` and
    /// `stencil`.
    pub fn clear(&mut self, buffers: ClearBuffers, color: [f32; 4], depth: f64, stencil: u32) {
        self.clear_words(buffers, color.map(f32::to_bits), depth, stencil);
    }

    /// [`CommandBuffer::clear`] with the colour as the four dwords of Gallium's
    /// `pipe_color_union`: float bits for a normalized or float buffer, the integers
    /// for an integer buffer (the host clears it with `glClearBufferuiv`/`iv`).
    pub fn clear_words(
        &mut self,
        buffers: ClearBuffers,
        color: [u32; 4],
        depth: f64,
        stencil: u32,
    ) {
        let depth = depth.to_bits();
        let mut payload = vec![buffers.bits()];
        payload.extend(color);
        payload.extend([depth as u32, (depth >> 32) as u32, stencil]);
        let _fits = self.command("clear", Ccmd::Clear, None, &payload);
    }

    /// Draw `draw` from the bound index buffer (`VIRGL_CCMD_DRAW_VBO`, 12 dwords:
    /// start 0, count, mode, indexed 1, instance count, index bias, start instance,
    /// primitive restart, restart index, min index, max index, count from stream
    /// output 0).
    pub fn draw_indexed(&mut self, draw: IndexedDraw) {
        let payload = [
            0,
            draw.count,
            draw.mode.code(),
            1,
            draw.instance_count,
            draw.index_bias as u32,
            draw.start_instance,
            u32::from(draw.restart.is_some()),
            draw.restart.unwrap_or(0),
            draw.min_index,
            draw.max_index,
            0,
        ];
        let _fits = self.command("draw", Ccmd::DrawVbo, None, &payload);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(word: u32) -> (u32, u32, u32) {
        (word & 0xff, (word >> 8) & 0xff, word >> 16)
    }

    #[test]
    fn a_command_is_a_header_and_its_payload() {
        let mut cb = CommandBuffer::new();
        cb.bind_shader(ObjectHandle(7), ShaderStage::Fragment);
        assert_eq!(cb.words(), &[31 | 2 << 16, 7, 1]);
        cb.reset();
        cb.create_surface(ObjectHandle(3), ResourceHandle(9), Format::R8G8B8A8Unorm);
        assert_eq!(header(cb.words()[0]), (1, 8, 5));
        assert_eq!(&cb.words()[1..], &[3, 9, 67, 0, 0]);
    }

    #[test]
    fn clear_sends_depth_as_a_little_endian_double() {
        let mut cb = CommandBuffer::new();
        let buffers = ClearBuffers::COLOR0.with(ClearBuffers::DEPTH);
        cb.clear(buffers, [0.25, 0.5, 0.75, 1.0], 1.0, 0);
        let w = cb.words();
        assert_eq!(header(w[0]), (7, 0, 8));
        assert_eq!(w[1], 5);
        assert_eq!(f32::from_bits(w[3]), 0.5);
        let depth = u64::from(w[6]) | u64::from(w[7]) << 32;
        assert_eq!(f64::from_bits(depth), 1.0);
    }

    #[test]
    fn a_short_shader_is_one_nul_terminated_packet() {
        let mut cb = CommandBuffer::new();
        let packets = cb.create_shader(
            ObjectHandle(5),
            ShaderStage::Vertex,
            "VERT\nEND\n",
            40,
            4096,
        );
        assert_eq!(packets, 1);
        let w = cb.words();
        // 9 bytes of text + NUL = 10 bytes = 3 dwords.
        assert_eq!(header(w[0]), (1, 4, 5 + 3));
        assert_eq!(&w[1..6], &[5, 0, 10, 40, 0]);
        let text: Vec<u8> = w[6..].iter().flat_map(|d| d.to_le_bytes()).collect();
        assert_eq!(&text, b"VERT\nEND\n\0\0\0");
    }

    #[test]
    fn a_long_shader_goes_in_continuations_with_byte_offsets() {
        let text = "FRAG\n".repeat(10); // 50 bytes + NUL = 51
        let mut cb = CommandBuffer::new();
        let packets = cb.create_shader(ObjectHandle(2), ShaderStage::Fragment, &text, 99, 22);
        // 22 rounds down to 20 bytes a packet: 20 + 20 + 11.
        assert_eq!(packets, 3);
        let w = cb.words();
        let mut at = 0;
        let mut joined = Vec::new();
        let mut offsets = Vec::new();
        while at < w.len() {
            let (cmd, obj, len) = header(w[at]);
            assert_eq!((cmd, obj), (1, 4));
            let body = &w[at + 1..at + 1 + len as usize];
            assert_eq!(body[0], 2, "same handle in every packet");
            assert_eq!(body[1], 1, "fragment");
            assert_eq!(body[3], 99, "token count in every packet");
            offsets.push(body[2]);
            joined.extend(body[5..].iter().flat_map(|d| d.to_le_bytes()));
            at += 1 + len as usize;
        }
        assert_eq!(offsets, vec![51, 20 | 1 << 31, 40 | 1 << 31]);
        assert_eq!(&joined[..51], format!("{text}\0").as_bytes());
    }

    #[test]
    fn oversized_payloads_are_an_error_not_a_wrapped_length() {
        let mut cb = CommandBuffer::new();
        let values = vec![0.0f32; MAX_PAYLOAD_DWORDS];
        let err = cb.set_constants(ShaderStage::Vertex, &values).unwrap_err();
        assert!(
            matches!(err, VirglError::CommandTooLong { dwords, .. } if dwords == MAX_PAYLOAD_DWORDS + 2)
        );
        assert!(cb.is_empty(), "nothing half-written");
    }

    #[test]
    fn draw_is_an_indexed_triangle_list() {
        let mut cb = CommandBuffer::new();
        cb.draw_indexed(IndexedDraw::new(PrimitiveMode::Triangles, 36, 23));
        let w = cb.words();
        assert_eq!(header(w[0]), (8, 0, 12));
        assert_eq!(&w[1..], &[0, 36, 4, 1, 1, 0, 0, 0, 0, 0, 23, 0]);
    }

    /// An instanced line-strip draw with a bias and primitive restart: every field
    /// at `VIRGL_DRAW_VBO_*`'s place.
    #[test]
    fn an_instanced_restarted_draw_fills_every_field() {
        let mut cb = CommandBuffer::new();
        cb.draw_indexed(IndexedDraw {
            instance_count: 12,
            start_instance: 2,
            index_bias: -1,
            restart: Some(65535),
            min_index: 1,
            ..IndexedDraw::new(PrimitiveMode::LineStripAdjacency, 14, 9)
        });
        let w = cb.words();
        assert_eq!(header(w[0]), (8, 0, 12));
        assert_eq!(&w[1..], &[0, 14, 11, 1, 12, u32::MAX, 2, 1, 65535, 1, 9, 0]);
    }
}
