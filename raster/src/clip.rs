//! Clipping in homogeneous clip space (GL 3.3 core "Primitive Clipping").
//!
//! A triangle is clipped exactly against the near (`z ≥ −w`) and far (`z ≤ w`) planes,
//! so vertices behind the eye (w ≤ 0) never reach the perspective divide. In x and y it
//! is clipped only against a guard band [`GUARD_BAND`] times wider than the view volume:
//! pixels outside the framebuffer are never visited anyway, and the guard band only
//! keeps window coordinates below 2^20 pixels so fixed-point edge functions cannot
//! overflow. Triangles entirely outside one view-volume plane are rejected.
//!
//! New vertices are placed with Sutherland–Hodgman, always interpolating *from the
//! inside vertex towards the outside one*, so two triangles sharing a clipped edge get
//! bit-identical new vertices (no cracks). Each polygon vertex carries its weights over
//! the original three vertices, linear in clip space; varyings follow from them.
//!
//! User clip planes (GL 3.0 §2.17, `gl_ClipDistance` / `gl_ClipVertex`) come after the
//! view volume: each vertex has one distance per enabled plane, linear in clip space
//! along the triangle, and the part where every distance is `≥ 0` is kept, by one more
//! Sutherland–Hodgman pass per plane ([`UserDistances`]).

/// Half-width of the x/y guard band in NDC units (the view volume is 1). With the
/// largest framebuffer (16384) window coordinates stay within (64 + 1) · 8192 < 2^20
/// pixels.
pub(crate) const GUARD_BAND: f32 = 64.0;

/// Capacity of a clipped polygon. A convex polygon gains at most one vertex per plane
/// (3 + 6 + 8 user planes = 17); the extra room absorbs rounding, and anything beyond
/// it is dropped.
pub(crate) const POLYGON_CAPACITY: usize = 24;

/// Most user clip distances per vertex: GL's `GL_MAX_CLIP_PLANES` /
/// `gl_MaxClipDistances`, 8 here (GL 3.0 table 6.46 requires at least 8).
pub const MAX_CLIP_DISTANCES: usize = 8;

/// The user clip distances of a triangle's three vertices: `distances[j][k]` is plane
/// `j`'s distance at vertex `k` (in the order the vertices are given to
/// [`clip_triangle`]), for planes `0..count`. A point is inside plane `j` where its
/// distance, linear in clip space, is `≥ 0`; NaN counts as outside.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct UserDistances {
    pub distances: [[f32; 3]; MAX_CLIP_DISTANCES],
    pub count: usize,
}

impl UserDistances {
    /// No user planes.
    pub const NONE: UserDistances = UserDistances {
        distances: [[0.0; 3]; MAX_CLIP_DISTANCES],
        count: 0,
    };

    /// The planes in use.
    fn planes(&self) -> &[[f32; 3]] {
        &self.distances[..self.count.min(MAX_CLIP_DISTANCES)]
    }
}

/// Whether a distance puts a point outside its plane.
#[inline]
fn outside(d: f32) -> bool {
    d.is_nan() || d < 0.0
}

/// One vertex of a clipped polygon.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ClipVertex {
    /// Clip-space position (x, y, z, w).
    pub position: [f32; 4],
    /// Weights of the original vertices 0, 1, 2 (sum 1), linear in clip space.
    pub weights: [f32; 3],
    /// Its user clip distances (planes `0..UserDistances::count`), blended like
    /// `position`.
    pub user: [f32; MAX_CLIP_DISTANCES],
    /// `Some(k)` when this is original vertex `k` itself.
    pub original: Option<u8>,
}

/// A convex polygon produced by clipping one triangle, in the triangle's winding order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Polygon {
    vertices: [ClipVertex; POLYGON_CAPACITY],
    len: usize,
}

impl Polygon {
    fn empty() -> Self {
        let v = ClipVertex {
            position: [0.0; 4],
            weights: [0.0; 3],
            user: [0.0; MAX_CLIP_DISTANCES],
            original: None,
        };
        Polygon {
            vertices: [v; POLYGON_CAPACITY],
            len: 0,
        }
    }

    /// The polygon's vertices.
    pub fn vertices(&self) -> &[ClipVertex] {
        &self.vertices[..self.len]
    }

    /// Appends `v`; `false` when the polygon is full.
    fn push(&mut self, v: ClipVertex) -> bool {
        if self.len == POLYGON_CAPACITY {
            return false;
        }
        self.vertices[self.len] = v;
        self.len += 1;
        true
    }
}

/// What clipping did to a triangle.
// A stack value used once per triangle; boxing the polygon would allocate instead.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug)]
pub(crate) enum ClipResult {
    /// Inside the near/far planes and the guard band: use the triangle as it is.
    Unclipped,
    /// Nothing of it is inside the view volume.
    Rejected,
    /// The part inside, as a convex polygon of 3 or more vertices.
    Clipped(Polygon),
}

/// A clip plane; a point is inside when `distance ≥ 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Plane {
    Near,
    Far,
    Left,
    Right,
    Bottom,
    Top,
}

impl Plane {
    const ALL: [Plane; 6] = [
        Plane::Near,
        Plane::Far,
        Plane::Left,
        Plane::Right,
        Plane::Bottom,
        Plane::Top,
    ];

    /// Signed distance of `p`, with the x/y planes scaled by `extent` (1 for the view
    /// volume, [`GUARD_BAND`] for the guard band).
    #[inline]
    fn distance(self, p: [f32; 4], extent: f32) -> f32 {
        let [x, y, z, w] = p;
        match self {
            Plane::Near => w + z,
            Plane::Far => w - z,
            Plane::Left => extent * w + x,
            Plane::Right => extent * w - x,
            Plane::Bottom => extent * w + y,
            Plane::Top => extent * w - y,
        }
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// Bit set of the planes `p` is outside of (NaN distances count as outside: the bit
/// is `1 - (d >= 0)`). Straight-line and always inlined, so the three corners' codes are
/// computed from registers (an outlined `map` over the corners read them back from
/// the stack right after the caller's scalar stores: a failed store-to-load forward
/// per triangle); `outcode_is_the_plane_fold` checks it against the planes' fold.
#[inline(always)]
fn outcode(p: [f32; 4], extent: f32) -> u8 {
    let out = |plane: Plane| (1 - (plane.distance(p, extent) >= 0.0) as u8) << plane as u8;
    out(Plane::Near)
        | out(Plane::Far)
        | out(Plane::Left)
        | out(Plane::Right)
        | out(Plane::Bottom)
        | out(Plane::Top)
}

/// Clips the triangle with clip-space vertices `p` (finite values) against the view
/// volume and then the user planes of `user` ([`clip_triangle_to`] with every plane).
///
/// The tests that decide between rejecting, keeping and clipping are inlined into the
/// caller, which has `p` in registers; only the clipping itself ([`clip_polygon_of`],
/// rare) is a call. As a call the whole function read `p` back from the caller's
/// stack right after the caller's scalar stores of it: a failed store-to-load
/// forward on almost every triangle (half of this function's samples on one load in
/// a 1M-triangle frame).
#[cfg(test)]
pub(crate) fn clip_triangle(p: [[f32; 4]; 3], user: &UserDistances) -> ClipResult {
    clip_triangle_to(p, user, ALL_PLANES)
}

/// Every view-volume plane, as [`Plane::bit`]s.
pub(crate) const ALL_PLANES: u8 = 0x3f;

/// The view-volume planes without near and far: `depth_clamp` (GL 3.3 §2.20, "the
/// −w ≤ z ≤ w plane equation is ignored by view volume clipping").
pub(crate) const NO_DEPTH_PLANES: u8 =
    ALL_PLANES & !(1 << Plane::Near as u8 | 1 << Plane::Far as u8);

/// [`clip_triangle`] against the view-volume planes in `planes` ([`ALL_PLANES`] or
/// [`NO_DEPTH_PLANES`]) only.
#[inline(always)]
pub(crate) fn clip_triangle_to(
    p: [[f32; 4]; 3],
    user: &UserDistances,
    view_planes: u8,
) -> ClipResult {
    let view = [
        outcode(p[0], 1.0) & view_planes,
        outcode(p[1], 1.0) & view_planes,
        outcode(p[2], 1.0) & view_planes,
    ];
    if view[0] & view[1] & view[2] != 0 {
        return ClipResult::Rejected;
    }
    let planes = user.planes();
    if planes.iter().any(|d| d.iter().all(|&d| outside(d))) {
        return ClipResult::Rejected;
    }
    let guard = [
        outcode(p[0], GUARD_BAND) & view_planes,
        outcode(p[1], GUARD_BAND) & view_planes,
        outcode(p[2], GUARD_BAND) & view_planes,
    ];
    let needed = guard[0] | guard[1] | guard[2];
    let user_needed = planes.iter().any(|d| d.iter().any(|&d| outside(d)));
    if needed == 0 && !user_needed {
        return ClipResult::Unclipped;
    }
    clip_polygon_of(p, user, needed)
}

/// The part of the triangle `p` inside the guard-band planes `needed` (bits of
/// [`Plane::bit`]) and the user planes of `user`: the slow path of
/// [`clip_triangle`], for triangles some plane cuts.
#[inline(never)]
fn clip_polygon_of(p: [[f32; 4]; 3], user: &UserDistances, needed: u8) -> ClipResult {
    let planes = user.planes();
    let mut polygon = Polygon::empty();
    for (k, position) in p.into_iter().enumerate() {
        let mut weights = [0.0; 3];
        weights[k] = 1.0;
        let mut distances = [0.0; MAX_CLIP_DISTANCES];
        for (d, plane) in distances.iter_mut().zip(planes) {
            *d = plane[k];
        }
        polygon.push(ClipVertex {
            position,
            weights,
            user: distances,
            original: Some(k as u8),
        });
    }
    for plane in Plane::ALL {
        if needed & plane.bit() == 0 {
            continue;
        }
        let distance = |v: &ClipVertex| plane.distance(v.position, GUARD_BAND);
        match clip_polygon(&polygon, distance) {
            Some(clipped) if clipped.len >= 3 => polygon = clipped,
            _ => return ClipResult::Rejected,
        }
    }
    for (j, plane) in planes.iter().enumerate() {
        if !plane.iter().any(|&d| outside(d)) {
            continue;
        }
        match clip_polygon(&polygon, |v: &ClipVertex| v.user[j]) {
            Some(clipped) if clipped.len >= 3 => polygon = clipped,
            _ => return ClipResult::Rejected,
        }
    }
    ClipResult::Clipped(polygon)
}

/// One Sutherland–Hodgman pass keeping where `distance` is `≥ 0` (NaN is outside);
/// `None` when the result would overflow the polygon's capacity.
fn clip_polygon(input: &Polygon, distance: impl Fn(&ClipVertex) -> f32) -> Option<Polygon> {
    let mut output = Polygon::empty();
    let vertices = input.vertices();
    let mut distances = [0.0f32; POLYGON_CAPACITY];
    for (d, v) in distances.iter_mut().zip(vertices) {
        *d = distance(v);
    }
    for i in 0..vertices.len() {
        let prev = if i == 0 { vertices.len() - 1 } else { i - 1 };
        let (cur_in, prev_in) = (!outside(distances[i]), !outside(distances[prev]));
        if cur_in != prev_in {
            let (inside, outside) = if cur_in { (i, prev) } else { (prev, i) };
            let v = intersect(
                &vertices[inside],
                &vertices[outside],
                distances[inside],
                distances[outside],
            );
            if !output.push(v) {
                return None;
            }
        }
        if cur_in && !output.push(vertices[i]) {
            return None;
        }
    }
    Some(output)
}

/// The point where the segment from `inside` (distance `d_in ≥ 0`) to `outside`
/// (`d_out < 0`) crosses the plane, linear in clip space.
fn intersect(inside: &ClipVertex, outside: &ClipVertex, d_in: f32, d_out: f32) -> ClipVertex {
    let t = d_in / (d_in - d_out);
    let lerp = |a: f32, b: f32| a + t * (b - a);
    ClipVertex {
        position: std::array::from_fn(|i| lerp(inside.position[i], outside.position[i])),
        weights: std::array::from_fn(|i| lerp(inside.weights[i], outside.weights[i])),
        user: std::array::from_fn(|i| lerp(inside.user[i], outside.user[i])),
        original: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`outcode`] is the definition's fold over the planes (`outside` of each
    /// plane's distance) for every corner of a pool with signed zeros, infinities,
    /// NaN and values on and near the planes, at both extents.
    #[test]
    fn outcode_is_the_plane_fold() {
        let pool = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            -0.5,
            64.0,
            -64.0,
            1.0e-30,
            -1.0e-30,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            3.0e38,
        ];
        let mut checked = 0;
        for &x in &pool {
            for &y in &pool[..6] {
                for &z in &pool {
                    for &w in &pool {
                        for extent in [1.0, GUARD_BAND] {
                            let p = [x, y, z, w];
                            let expected = Plane::ALL
                                .iter()
                                .filter(|plane| outside(plane.distance(p, extent)))
                                .fold(0, |code, plane| code | plane.bit());
                            assert_eq!(outcode(p, extent), expected, "{p:?} {extent}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        // y over the whole pool too (the loops above take its first six).
        for &y in &pool {
            let p = [0.25, y, 0.0, 1.0];
            let expected = Plane::ALL
                .iter()
                .filter(|plane| outside(plane.distance(p, 1.0)))
                .fold(0, |code, plane| code | plane.bit());
            assert_eq!(outcode(p, 1.0), expected, "{p:?}");
        }
        assert_eq!(checked, 14 * 6 * 14 * 14 * 2);
    }

    /// Clipping against the view volume only.
    fn clip_triangle_view(p: [[f32; 4]; 3]) -> ClipResult {
        clip_triangle(p, &UserDistances::NONE)
    }

    fn user(planes: &[[f32; 3]]) -> UserDistances {
        let mut u = UserDistances::NONE;
        u.distances[..planes.len()].copy_from_slice(planes);
        u.count = planes.len();
        u
    }

    const INSIDE: [[f32; 4]; 3] = [
        [0.0, 0.0, 0.0, 1.0],
        [1.0, 0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0, 1.0],
    ];

    #[test]
    fn user_planes_keep_where_every_distance_is_not_negative() {
        // All distances ≥ 0 (0 included): untouched; all < 0 on one plane: rejected,
        // whatever the others say; NaN counts as outside.
        let kept = user(&[[0.0, 1.0, 2.0], [5.0, 5.0, 5.0]]);
        assert!(matches!(
            clip_triangle(INSIDE, &kept),
            ClipResult::Unclipped
        ));
        let gone = user(&[[1.0, 1.0, 1.0], [-1.0, -0.5, -2.0]]);
        assert!(matches!(clip_triangle(INSIDE, &gone), ClipResult::Rejected));
        let nan = user(&[[f32::NAN, -1.0, -1.0]]);
        assert!(matches!(clip_triangle(INSIDE, &nan), ClipResult::Rejected));
        // Plane 0 cuts edges 0-1 and 2-0 at their midpoints (d = 1 at vertex 0,
        // -1 at vertices 1 and 2): a triangle of half the size remains.
        let cut = user(&[[1.0, -1.0, -1.0]]);
        let ClipResult::Clipped(poly) = clip_triangle(INSIDE, &cut) else {
            panic!("not clipped")
        };
        // Sutherland–Hodgman starts with edge 2-0: its crossing, vertex 0, then the
        // crossing of edge 0-1.
        let v = poly.vertices();
        assert_eq!(v.len(), 3);
        assert_eq!(v[0].position, [0.0, 0.5, 0.0, 1.0]);
        assert_eq!(v[0].weights, [0.5, 0.0, 0.5]);
        assert_eq!(v[1].original, Some(0));
        assert_eq!(v[2].position, [0.5, 0.0, 0.0, 1.0]);
        assert_eq!(v[2].weights, [0.5, 0.5, 0.0]);
        assert_eq!((v[0].user[0], v[2].user[0]), (0.0, 0.0));
    }

    #[test]
    fn two_user_planes_make_a_quadrilateral() {
        // d0 = 0.75 - x (cuts x = 0.75), d1 = 0.75 - y: the triangle minus two corners.
        let planes = user(&[[0.75, -0.25, 0.75], [0.75, 0.75, -0.25]]);
        let ClipResult::Clipped(poly) = clip_triangle(INSIDE, &planes) else {
            panic!("not clipped")
        };
        let mut xy: Vec<[f32; 2]> = poly
            .vertices()
            .iter()
            .map(|v| [v.position[0], v.position[1]])
            .collect();
        xy.sort_by(|a, b| a.partial_cmp(b).unwrap());
        assert_eq!(
            xy,
            [
                [0.0, 0.0],
                [0.0, 0.75],
                [0.25, 0.75],
                [0.75, 0.0],
                [0.75, 0.25]
            ]
        );
        for v in poly.vertices() {
            assert!(v.user[0] >= 0.0 && v.user[1] >= 0.0, "{v:?}");
        }
    }

    #[test]
    fn inside_triangle_is_not_clipped() {
        let r = clip_triangle_view([
            [0.0, 0.0, 0.0, 1.0],
            [1.0, 0.0, 0.0, 1.0],
            [0.0, 1.0, 0.0, 1.0],
        ]);
        assert!(matches!(r, ClipResult::Unclipped));
        // Outside the view volume in x but inside the guard band: no clipping either.
        let r = clip_triangle_view([
            [0.0, 0.0, 0.0, 1.0],
            [30.0, 0.0, 0.0, 1.0],
            [0.0, 1.0, 0.0, 1.0],
        ]);
        assert!(matches!(r, ClipResult::Unclipped));
    }

    #[test]
    fn triangle_outside_one_plane_is_rejected() {
        let r = clip_triangle_view([
            [2.0, 0.0, 0.0, 1.0],
            [3.0, 0.0, 0.0, 1.0],
            [2.0, 1.0, 0.0, 1.0],
        ]);
        assert!(matches!(r, ClipResult::Rejected));
        let behind = [
            [0.0, 0.0, -2.0, -1.0],
            [1.0, 0.0, -2.0, -1.0],
            [0.0, 1.0, -2.0, -1.0],
        ];
        assert!(matches!(clip_triangle_view(behind), ClipResult::Rejected));
    }

    #[test]
    fn near_plane_cuts_vertex_behind_the_eye() {
        // Vertex 2 has w < 0; the near plane z = -w cuts edges 1-2 and 2-0.
        let p = [
            [0.0, 0.0, 0.0, 1.0],
            [1.0, 0.0, 0.0, 1.0],
            [0.0, 0.0, -3.0, -1.0],
        ];
        let ClipResult::Clipped(poly) = clip_triangle_view(p) else {
            panic!("not clipped")
        };
        let v = poly.vertices();
        assert_eq!(v.len(), 4);
        for cv in v {
            let [_, _, z, w] = cv.position;
            assert!(z + w >= -1e-6 && w > 0.0, "{cv:?}");
            let s: f32 = cv.weights.iter().sum();
            assert!((s - 1.0).abs() < 1e-6);
        }
        // Sutherland–Hodgman starts with edge 2-0: its crossing, then vertices 0 and 1,
        // then the crossing of edge 1-2 (d(1) = 1, d(2) = -4: t = 0.2 from vertex 1).
        assert_eq!(
            v.iter().map(|v| v.original).collect::<Vec<_>>(),
            [None, Some(0), Some(1), None]
        );
        assert_eq!(v[0].weights, [0.8, 0.0, 0.2]);
        assert_eq!(v[3].weights, [0.0, 0.8, 0.2]);
    }

    #[test]
    fn shared_edge_gets_identical_new_vertices() {
        // Two triangles sharing edge a-b, which crosses the near plane, listed in
        // opposite directions.
        let a = [0.3, 0.1, 0.5, 1.0];
        let b = [0.2, -0.4, -2.7, -0.9];
        let t1 = clip_triangle_view([a, b, [0.9, 0.9, 0.1, 1.0]]);
        let t2 = clip_triangle_view([b, a, [-0.9, 0.5, 0.2, 1.0]]);
        let (ClipResult::Clipped(p1), ClipResult::Clipped(p2)) = (t1, t2) else {
            panic!()
        };
        let new1: Vec<_> = p1.vertices().iter().map(|v| v.position).collect();
        let new2: Vec<_> = p2.vertices().iter().map(|v| v.position).collect();
        assert!(new1.iter().any(|p| new2.contains(p)), "{new1:?} {new2:?}");
    }
}
