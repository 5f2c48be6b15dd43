//! The fixed-function state of points, lines and polygon modes: `state.point_size`,
//! `state.program_point_size`, `state.line_width` and `state.polygon_mode`
//! (docs/scene-format.md).

/// How a draw's points and lines are sized (GL 3.3 core §3.4, §3.5). `Default` is
/// GL's: size 1, `GL_PROGRAM_POINT_SIZE` disabled, width 1.
#[derive(Clone, Copy, Debug)]
pub struct PointLineState {
    /// `glPointSize` (> 0, default 1), the size of every point unless
    /// `program_point_size`.
    pub point_size: f32,
    /// `glEnable(GL_PROGRAM_POINT_SIZE)` (default off): each point's size is the
    /// vertex shader's `gl_PointSize` (GL 3.3 core §3.4).
    pub program_point_size: bool,
    /// `glLineWidth` (> 0, default 1), rounded to an integer for aliased lines.
    pub line_width: f32,
    /// `glPolygonMode(GL_FRONT_AND_BACK, mode)` (default fill).
    pub polygon_mode: PolygonMode,
}

/// How triangles are rasterized (`glPolygonMode`, GL 3.3 core §3.6.4): after facing
/// and culling, as their interiors, their edges or their vertices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PolygonMode {
    /// `GL_FILL` (the default).
    #[default]
    Fill,
    /// `GL_LINE`: the edges of each triangle as submitted (not those clipping makes),
    /// as lines of `line_width`.
    Line,
    /// `GL_POINT`: the vertices of each triangle as points.
    Point,
}

impl PolygonMode {
    /// Every mode with its scene-format name.
    pub const NAMES: [(&'static str, PolygonMode); 3] = [
        ("fill", PolygonMode::Fill),
        ("line", PolygonMode::Line),
        ("point", PolygonMode::Point),
    ];
}

impl Default for PointLineState {
    fn default() -> Self {
        PointLineState {
            point_size: 1.0,
            program_point_size: false,
            line_width: 1.0,
            polygon_mode: PolygonMode::Fill,
        }
    }
}

/// Equal when the sizes have the same bits and the flag is the same.
impl PartialEq for PointLineState {
    fn eq(&self, o: &Self) -> bool {
        self.point_size.to_bits() == o.point_size.to_bits()
            && self.program_point_size == o.program_point_size
            && self.line_width.to_bits() == o.line_width.to_bits()
            && self.polygon_mode == o.polygon_mode
    }
}

impl Eq for PointLineState {}
