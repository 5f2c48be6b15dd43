//! Loading the scene key `seamless_cube_map` (docs/scene-format.md "Top level").

use super::{Entries, Loader};
use crate::scene::SceneError;
use crate::scene::json::{Json, get};

impl Loader<'_> {
    /// `seamless_cube_map`: `true` or `false` (`GL_TEXTURE_CUBE_MAP_SEAMLESS`,
    /// default false as in GL).
    pub(super) fn seamless_cube_map(&self, root: &Entries) -> Result<bool, SceneError> {
        match get(root, "seamless_cube_map") {
            None => Ok(false),
            Some(Json::Bool(b)) => Ok(*b),
            Some(other) => Err(self.error(
                "seamless_cube_map",
                format!("expected true or false, got {}", other.brief()),
            )),
        }
    }
}
