//! What a geometry-stage invocation reads and writes besides [`Inputs`](super::Inputs)
//! and [`Outputs`](super::Outputs): the vertices of its input primitive
//! ([`PrimitiveInput`], read by LOAD_VTX and LOAD_PRIMID) and the vertices it emits
//! ([`Emitted`], written by EMIT and ENDPRIM), with the rules of GLSL 1.50 §8.10 and
//! GL 3.2 §2.12.4 both interpreters follow:
//!
//! - EMIT appends the current outputs (`gl_Position` and the varying slots) as the
//!   next vertex of the current output strip, unless the invocation has already
//!   emitted `max_vertices` vertices: such an EMIT does nothing (GL leaves it
//!   undefined; Mesa drops the vertex too).
//! - ENDPRIM ends the current strip; the end of the invocation ends the last one.
//!   A strip with fewer vertices than one primitive of the output type needs (1, 2
//!   or 3) is dropped, as GL 3.2 §2.12.4 drops incomplete primitives.

use crate::ir::{GeometryLayout, OutputPrimitive};
use std::ops::Range;

/// The vertices of one input primitive, as the vertex stage left them: per vertex
/// its `gl_Position` and `stride` varying vec4 slots (vertex slots, the vertex
/// shader's STORE_VAR slots).
#[derive(Clone, Copy, Debug)]
pub struct PrimitiveInput<'a> {
    /// `gl_Position` of each vertex, in the primitive's order (GLSL 1.50 §4.3.8.1's
    /// vertex order, adjacent vertices included).
    pub positions: &'a [[f32; 4]],
    /// The varying slots of each vertex, `stride` per vertex, vertex after vertex.
    /// Slots past the end read (0, 0, 0, 0).
    pub varyings: &'a [[f32; 4]],
    /// Varying slots per vertex in `varyings`.
    pub stride: usize,
    /// `gl_PrimitiveIDIn`: the index of the primitive in its draw (GL 3.2 §2.12.4).
    pub primitive_id: u32,
}

impl PrimitiveInput<'_> {
    /// Input `slot` of vertex `vertex` (LOAD_VTX): `slot` −1 is `gl_Position`
    /// ((0, 0, 0, 1) past the vertices), a varying slot otherwise ((0, 0, 0, 0) past
    /// the data).
    #[inline]
    pub fn load(&self, vertex: usize, slot: i16) -> [f32; 4] {
        if slot < 0 {
            return self
                .positions
                .get(vertex)
                .copied()
                .unwrap_or([0.0, 0.0, 0.0, 1.0]);
        }
        let slot = slot as usize;
        if slot >= self.stride {
            return [0.0; 4];
        }
        self.varyings
            .get(vertex * self.stride + slot)
            .copied()
            .unwrap_or([0.0; 4])
    }
}

/// The vertices one geometry-stage invocation emitted, grouped into strips of the
/// output primitive type ([`GeometryLayout::output`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Emitted {
    /// `gl_Position` of every kept vertex, in emission order.
    pub positions: Vec<[f32; 4]>,
    /// The varying slots of every kept vertex, [`Emitted::stride`] per vertex.
    pub varyings: Vec<[f32; 4]>,
    /// Varying slots per vertex.
    pub stride: usize,
    /// Each complete strip's vertices, as a range of vertex indices, in order.
    pub strips: Vec<Range<u32>>,
    /// Vertices emitted so far by the invocation, dropped ones included (checked
    /// against `max_vertices`).
    emitted: u32,
    /// The first vertex of the strip being built.
    open: u32,
}

impl Emitted {
    /// An empty list for vertices of `stride` varying slots.
    pub fn new(stride: usize) -> Self {
        Emitted {
            stride,
            ..Emitted::default()
        }
    }

    /// Forget every vertex (keeping the allocations) for the next invocation.
    pub fn clear(&mut self) {
        self.positions.clear();
        self.varyings.clear();
        self.strips.clear();
        self.emitted = 0;
        self.open = 0;
    }

    /// Number of kept vertices.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// No vertex kept.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The varying slots of vertex `v`.
    pub fn vertex_varyings(&self, v: usize) -> &[[f32; 4]] {
        &self.varyings[v * self.stride..(v + 1) * self.stride]
    }

    /// EMIT with `position` and the first [`Emitted::stride`] of `varyings` as the
    /// current outputs (zeros past `varyings`' end).
    pub fn emit(&mut self, layout: &GeometryLayout, position: [f32; 4], varyings: &[[f32; 4]]) {
        if self.emitted >= u32::from(layout.max_vertices) {
            return;
        }
        self.emitted += 1;
        self.positions.push(position);
        let n = varyings.len().min(self.stride);
        self.varyings.extend_from_slice(&varyings[..n]);
        self.varyings
            .extend(std::iter::repeat_n([0.0; 4], self.stride - n));
    }

    /// ENDPRIM (and the end of the invocation): close the open strip, keeping it if
    /// it has at least one primitive of `layout.output`.
    pub fn end_primitive(&mut self, layout: &GeometryLayout) {
        let end = self.positions.len() as u32;
        if (end - self.open) as usize >= layout.output.min_vertices() {
            self.strips.push(self.open..end);
        } else {
            self.positions.truncate(self.open as usize);
            self.varyings.truncate(self.open as usize * self.stride);
        }
        self.open = self.positions.len() as u32;
    }

    /// The primitives of strip `strip` as vertex indices: points one each, a line
    /// strip's segments `(i, i+1)`, a triangle strip's triangles in GL's order (GL 3.2
    /// §2.6.1: triangle `i` is `(i, i+1, i+2)` for even `i` and `(i+1, i, i+2)` for
    /// odd `i`, so every triangle keeps the strip's winding). Unused indices are 0.
    pub fn primitives(
        output: OutputPrimitive,
        strip: Range<u32>,
    ) -> impl Iterator<Item = [u32; 3]> {
        let (first, len) = (strip.start, strip.end - strip.start);
        let n = len.saturating_sub(output.min_vertices() as u32 - 1);
        (0..n).map(move |i| {
            let v = first + i;
            match output {
                OutputPrimitive::Points => [v, 0, 0],
                OutputPrimitive::LineStrip => [v, v + 1, 0],
                OutputPrimitive::TriangleStrip if i % 2 == 0 => [v, v + 1, v + 2],
                OutputPrimitive::TriangleStrip => [v + 1, v, v + 2],
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::InputPrimitive;

    fn layout(output: OutputPrimitive, max_vertices: u16) -> GeometryLayout {
        GeometryLayout {
            input: InputPrimitive::Triangles,
            output,
            max_vertices,
        }
    }

    #[test]
    fn a_strip_of_five_makes_three_triangles_in_gl_order() {
        let tris: Vec<[u32; 3]> =
            Emitted::primitives(OutputPrimitive::TriangleStrip, 10..15).collect();
        assert_eq!(tris, [[10, 11, 12], [12, 11, 13], [12, 13, 14]]);
        let lines: Vec<[u32; 3]> = Emitted::primitives(OutputPrimitive::LineStrip, 0..3).collect();
        assert_eq!(lines, [[0, 1, 0], [1, 2, 0]]);
        assert_eq!(
            Emitted::primitives(OutputPrimitive::TriangleStrip, 0..2).count(),
            0
        );
    }

    #[test]
    fn vertices_past_max_vertices_are_dropped_and_short_strips_too() {
        let l = layout(OutputPrimitive::TriangleStrip, 4);
        let mut e = Emitted::new(1);
        for k in 0..2 {
            e.emit(&l, [k as f32; 4], &[[k as f32 + 0.5; 4]]);
        }
        e.end_primitive(&l); // 2 vertices: no triangle, dropped
        assert!(e.is_empty() && e.strips.is_empty());
        for k in 0..5 {
            e.emit(&l, [k as f32; 4], &[]);
        }
        // Two of the four allowed were used by the dropped strip: two more, too few.
        assert_eq!(e.len(), 2);
        e.end_primitive(&l);
        assert_eq!(e.len(), 0);
        assert!(e.strips.is_empty());
        let mut e = Emitted::new(1);
        for k in 0..6 {
            e.emit(&l, [k as f32; 4], &[[k as f32 + 0.5; 4]]);
        }
        e.end_primitive(&l);
        assert_eq!(e.strips.len(), 1);
        assert_eq!(e.strips[0], 0..4);
        assert_eq!(e.positions[3], [3.0; 4]);
        assert_eq!(e.vertex_varyings(2), [[2.5; 4]]);
    }
}
