//! The vtest protocol: how a guest talks to `virgl_test_server` over a Unix socket
//! (virglrenderer's `vtest/vtest_protocol.h`; docs/virgl.md restates it).
//!
//! Every message starts with two little-endian dwords, a length and a command id,
//! then the payload. This client speaks protocol version 0, the one every server
//! accepts without negotiation: the guest names its resources, and texture and buffer
//! data travel inline in `TRANSFER_PUT` / `TRANSFER_GET` (no shared memory).

use crate::command::{CommandBuffer, ResourceHandle};
use crate::error::VirglError;
use crate::pipe::{Bind, Format, Target};
use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// vtest command ids (`VCMD_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Vcmd {
    ResourceCreate = 2,
    ResourceUnref = 3,
    TransferGet = 4,
    TransferPut = 5,
    SubmitCmd = 6,
    ResourceBusyWait = 7,
    CreateRenderer = 8,
}

/// `VCMD_TRANSFER_HDR_SIZE`: dwords of a transfer request after the header.
const TRANSFER_DWORDS: u32 = 11;

/// `VCMD_BUSY_WAIT_FLAG_WAIT`: block until the host has finished.
const BUSY_WAIT_FLAG_WAIT: u32 = 1;

/// A resource to create: a buffer (`height = 1`) or a texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResourceDesc {
    /// Buffer or texture target.
    pub target: Target,
    /// Texel format ([`Format::R8Unorm`] for buffers).
    pub format: Format,
    /// How it will be bound.
    pub bind: Bind,
    /// Width in texels, or size in bytes for a buffer.
    pub width: u32,
    /// Height in texels (1 for a buffer, a 1D texture and a 1D array).
    pub height: u32,
    /// Depth in texels of a 3D texture, 1 otherwise.
    pub depth: u32,
    /// Array layers: an array texture's layer count, 6 for a cube map, 1 otherwise.
    pub array_size: u32,
    /// The last mip level (0: level 0 only).
    pub last_level: u32,
    /// Samples per pixel of a multisampled render target (`nr_samples`); 0 for a
    /// single-sampled resource.
    pub samples: u32,
}

impl ResourceDesc {
    /// A buffer of `bytes` bytes bound as `bind`.
    pub fn buffer(bytes: u32, bind: Bind) -> ResourceDesc {
        ResourceDesc {
            target: Target::Buffer,
            format: Format::R8Unorm,
            bind,
            width: bytes,
            height: 1,
            depth: 1,
            array_size: 1,
            last_level: 0,
            samples: 0,
        }
    }

    /// A texture of `target` and `format` bound as `bind`: `[width, height, depth]`
    /// texels (height 1 for 1D targets, depth 1 but for 3D), `array_size` layers (an
    /// array's layer count, 6 for a cube map, else 1), levels `0..=last_level`.
    pub fn texture(
        target: Target,
        format: Format,
        [width, height, depth]: [u32; 3],
        array_size: u32,
        last_level: u32,
        bind: Bind,
    ) -> ResourceDesc {
        ResourceDesc {
            target,
            format,
            bind,
            width,
            height,
            depth,
            array_size,
            last_level,
            samples: 0,
        }
    }

    /// The same resource with `samples` samples per pixel (4 for a multisampled
    /// render target; 0 single-sampled).
    pub fn with_samples(self, samples: u32) -> ResourceDesc {
        ResourceDesc { samples, ..self }
    }

    /// A `width × height` 2D texture of `format` bound as `bind`.
    pub fn texture_2d(width: u32, height: u32, format: Format, bind: Bind) -> ResourceDesc {
        ResourceDesc {
            target: Target::Texture2d,
            format,
            bind,
            width,
            height,
            depth: 1,
            array_size: 1,
            last_level: 0,
            samples: 0,
        }
    }
}

/// A connection to a vtest server: one guest context.
pub struct VtestConnection {
    stream: UnixStream,
    socket: PathBuf,
    next_resource: u32,
}

impl VtestConnection {
    /// Connect to the server listening at `socket` and create a context named `name`
    /// (the host prints it in its logs). Reads block for at most `timeout`.
    ///
    /// Errors: the socket cannot be reached ([`VirglError::Io`]).
    pub fn connect(
        socket: &Path,
        name: &str,
        timeout: Duration,
    ) -> Result<VtestConnection, VirglError> {
        let io = |source| VirglError::Io {
            socket: socket.to_owned(),
            source,
        };
        let stream = UnixStream::connect(socket).map_err(io)?;
        stream.set_read_timeout(Some(timeout)).map_err(io)?;
        stream.set_write_timeout(Some(timeout)).map_err(io)?;
        let mut connection = VtestConnection {
            stream,
            socket: socket.to_owned(),
            next_resource: 1,
        };
        // CREATE_RENDERER's length is in bytes: the name and its NUL.
        let mut name = name.as_bytes().to_vec();
        name.push(0);
        let mut message = header(name.len() as u32, Vcmd::CreateRenderer);
        message.extend_from_slice(&name);
        connection.send(&message, "create renderer")?;
        Ok(connection)
    }

    /// A clone of the socket, so another thread (a Ctrl-C handler) can shut it down
    /// and make a blocked read return.
    pub fn try_clone_stream(&self) -> std::io::Result<UnixStream> {
        self.stream.try_clone()
    }

    /// Create a resource; the guest picks its handle.
    pub fn create_resource(&mut self, desc: &ResourceDesc) -> Result<ResourceHandle, VirglError> {
        let handle = ResourceHandle(self.next_resource);
        self.next_resource += 1;
        let mut message = header(10, Vcmd::ResourceCreate);
        for word in [
            handle.0,
            desc.target.code(),
            desc.format.code(),
            desc.bind.bits(),
            desc.width,
            desc.height,
            desc.depth,
            desc.array_size,
            desc.last_level,
            desc.samples,
        ] {
            message.extend_from_slice(&word.to_le_bytes());
        }
        self.send(&message, "create resource")?;
        Ok(handle)
    }

    /// Release a resource.
    pub fn unref_resource(&mut self, handle: ResourceHandle) -> Result<(), VirglError> {
        let mut message = header(1, Vcmd::ResourceUnref);
        message.extend_from_slice(&handle.0.to_le_bytes());
        self.send(&message, "unref resource")
    }

    /// Write `bytes` into buffer `handle` from byte 0.
    pub fn write_buffer(&mut self, handle: ResourceHandle, bytes: &[u8]) -> Result<(), VirglError> {
        let region = Region {
            width: bytes.len() as u32,
            ..Region::rows(0, 1, 0)
        };
        self.transfer(Vcmd::TransferPut, handle, region, bytes.len())?;
        self.send(bytes, "write buffer")
    }

    /// Write the whole of 2D texture `handle` (`width × height` texels of
    /// `bytes_per_texel` bytes), rows in memory order: row 0 is texture row 0 (t = 0
    /// in OpenGL's convention).
    pub fn write_texture(
        &mut self,
        handle: ResourceHandle,
        width: u32,
        height: u32,
        bytes_per_texel: u32,
        texels: &[u8],
    ) -> Result<(), VirglError> {
        let region = Region::rows(width, height, width * bytes_per_texel);
        self.transfer(Vcmd::TransferPut, handle, region, texels.len())?;
        self.send(texels, "write texture")
    }

    /// Write level `level` of texture `handle`: `size = [w, h, d]` texels from
    /// `[0, 0, z]`, where `z` is the first 3D slice or array layer (cube: face) and `d`
    /// the count of slices or layers; rows `w · bytes_per_texel` bytes apart, layers
    /// `w · h · bytes_per_texel` apart, in memory order (row 0 is texture row 0).
    pub fn write_texture_level(
        &mut self,
        handle: ResourceHandle,
        level: u32,
        z: u32,
        size: [u32; 3],
        bytes_per_texel: u32,
        texels: &[u8],
    ) -> Result<(), VirglError> {
        let [width, height, depth] = size;
        let stride = width * bytes_per_texel;
        let region = Region {
            level,
            z,
            depth,
            layer_stride: stride * height,
            ..Region::rows(width, height, stride)
        };
        self.transfer(Vcmd::TransferPut, handle, region, texels.len())?;
        self.send(texels, "write texture")
    }

    /// Read the whole of 2D texture `handle`, rows in memory order (row 0 is window
    /// row 0, the bottom row in OpenGL's convention).
    pub fn read_texture(
        &mut self,
        handle: ResourceHandle,
        width: u32,
        height: u32,
        bytes_per_texel: u32,
    ) -> Result<Vec<u8>, VirglError> {
        let region = Region::rows(width, height, width * bytes_per_texel);
        let size = region.stride as usize * height as usize;
        self.transfer(Vcmd::TransferGet, handle, region, size)?;
        let mut data = vec![0u8; size];
        self.receive(&mut data, "read texture")?;
        Ok(data)
    }

    /// Send a command buffer for the host to decode and run.
    pub fn submit(&mut self, commands: &CommandBuffer) -> Result<(), VirglError> {
        let words = commands.words();
        let mut message = header(words.len() as u32, Vcmd::SubmitCmd);
        message.reserve(words.len() * 4);
        for word in words {
            message.extend_from_slice(&word.to_le_bytes());
        }
        self.send(&message, "submit commands")
    }

    /// Wait until the host has run everything submitted. This is also how a
    /// rejected command shows: the host closes the connection, so the reply never
    /// comes ([`VirglError::Disconnected`]).
    pub fn wait_idle(&mut self, after: &str) -> Result<(), VirglError> {
        let mut message = header(2, Vcmd::ResourceBusyWait);
        for word in [0, BUSY_WAIT_FLAG_WAIT] {
            message.extend_from_slice(&word.to_le_bytes());
        }
        self.send(&message, after)?;
        let mut reply = [0u8; 12];
        self.receive(&mut reply, after)?;
        let word = |i: usize| {
            u32::from_le_bytes([
                reply[4 * i],
                reply[4 * i + 1],
                reply[4 * i + 2],
                reply[4 * i + 3],
            ])
        };
        let (len, id, busy) = (word(0), word(1), word(2));
        if len != 1 || id != Vcmd::ResourceBusyWait as u32 || busy != 0 {
            return Err(VirglError::Protocol {
                request: "busy wait".into(),
                reply: format!("length {len}, command {id}, busy {busy}"),
            });
        }
        Ok(())
    }

    fn transfer(
        &mut self,
        cmd: Vcmd,
        handle: ResourceHandle,
        region: Region,
        data_size: usize,
    ) -> Result<(), VirglError> {
        let mut message = header(TRANSFER_DWORDS, cmd);
        for word in [
            handle.0,
            region.level,
            region.stride,       // bytes per row of the data
            region.layer_stride, // bytes per layer of the data
            0,                   // x
            0,                   // y
            region.z,
            region.width,
            region.height,
            region.depth,
            data_size as u32,
        ] {
            message.extend_from_slice(&word.to_le_bytes());
        }
        self.send(&message, "transfer")
    }

    fn send(&mut self, bytes: &[u8], what: &str) -> Result<(), VirglError> {
        self.stream
            .write_all(bytes)
            .map_err(|e| self.error(e, what))
    }

    fn receive(&mut self, bytes: &mut [u8], what: &str) -> Result<(), VirglError> {
        self.stream
            .read_exact(bytes)
            .map_err(|e| self.error(e, what))
    }

    /// A closed or reset socket means the host gave up on this context.
    fn error(&self, source: std::io::Error, what: &str) -> VirglError {
        use std::io::ErrorKind::{BrokenPipe, ConnectionReset, UnexpectedEof};
        match source.kind() {
            BrokenPipe | ConnectionReset | UnexpectedEof => VirglError::Disconnected {
                after: what.to_owned(),
                log: String::new(),
            },
            _ => VirglError::Io {
                socket: self.socket.clone(),
                source,
            },
        }
    }
}

/// The part of a resource a transfer touches: bytes `0..width` of a buffer, or the
/// texels `0..width × 0..height × z..z + depth` of level `level` of a texture with rows
/// `stride` bytes apart and layers `layer_stride` apart.
#[derive(Clone, Copy)]
struct Region {
    level: u32,
    z: u32,
    width: u32,
    height: u32,
    depth: u32,
    stride: u32,
    layer_stride: u32,
}

impl Region {
    /// `width × height` texels of level 0, layer 0.
    fn rows(width: u32, height: u32, stride: u32) -> Region {
        Region {
            level: 0,
            z: 0,
            width,
            height,
            depth: 1,
            stride,
            layer_stride: 0,
        }
    }
}

/// A message header: length (dwords, or bytes for `CREATE_RENDERER`) and command.
fn header(len: u32, cmd: Vcmd) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(8);
    bytes.extend_from_slice(&len.to_le_bytes());
    bytes.extend_from_slice(&(cmd as u32).to_le_bytes());
    bytes
}
