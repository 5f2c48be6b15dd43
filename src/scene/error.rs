//! Scene errors, located: the scene file, the JSON field in the scene format's notation
//! (`draws[0].indices[5]`), and what is wrong, displayed as `SCENE: FIELD: MESSAGE`.

use std::fmt;
use std::path::{Path, PathBuf};

/// An error in a scene: which scene file, which JSON field, and what is wrong.
///
/// Displayed as `SCENE: FIELD: MESSAGE`, for example
/// `scene.json: draws[0].indices[5]: index 9 is out of range (3 vertices)`; the command
/// line prefixes `error: `, which gives the same line as `peer-render`. The field is
/// written in the scene format's notation (`draws[1].attributes[0].data`,
/// `textures.checker.path`, `draws[0].uniforms.uNope`) and is empty for errors about the
/// file as a whole (cannot be read, JSON syntax), which then display as `SCENE: MESSAGE`.
#[derive(Debug, thiserror::Error)]
pub struct SceneError {
    /// The scene file, as the caller named it.
    pub path: PathBuf,
    /// The JSON field path, or empty when the error concerns the whole file.
    pub field: String,
    /// What is wrong.
    pub kind: SceneErrorKind,
}

/// What is wrong with a scene.
#[derive(Debug)]
pub enum SceneErrorKind {
    /// The scene file itself cannot be read.
    Read(std::io::Error),
    /// The scene file is not valid JSON; the position is 1-based.
    Syntax {
        /// Line of the error.
        line: usize,
        /// Column of the error.
        column: usize,
        /// What the JSON parser expected or found.
        message: String,
    },
    /// A value breaks the scene format, or a file it names cannot be used; the message
    /// says what (and names the file, for files).
    Invalid(String),
}

impl SceneError {
    /// An error in `field` of the scene `path`: "field X of scene S: message". This is
    /// the constructor for checks made after loading (for example by the pipeline, when
    /// a uniform is not declared by the compiled program).
    pub fn new(
        path: impl Into<PathBuf>,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            path: path.into(),
            field: field.into(),
            kind: SceneErrorKind::Invalid(message.into()),
        }
    }

    /// The scene file cannot be read.
    pub(crate) fn read(path: &Path, source: std::io::Error) -> Self {
        Self {
            path: path.to_path_buf(),
            field: String::new(),
            kind: SceneErrorKind::Read(source),
        }
    }

    /// The message part alone (no scene path, no field).
    pub fn message(&self) -> String {
        self.kind.to_string()
    }
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.path.display())?;
        if !self.field.is_empty() {
            write!(f, "{}: ", self.field)?;
        }
        write!(f, "{}", self.kind)
    }
}

impl fmt::Display for SceneErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SceneErrorKind::Read(e) => write!(f, "cannot read the scene: {e}"),
            SceneErrorKind::Syntax {
                line,
                column,
                message,
            } => write!(f, "line {line}, column {column}: invalid JSON: {message}"),
            SceneErrorKind::Invalid(message) => f.write_str(message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_the_scene_and_the_field() {
        let e = SceneError::new(
            "scene.json",
            "draws[0].indices[5]",
            "index 9 is out of range (3 vertices)",
        );
        assert_eq!(
            e.to_string(),
            "scene.json: draws[0].indices[5]: index 9 is out of range (3 vertices)"
        );
        assert_eq!(e.message(), "index 9 is out of range (3 vertices)");
        let e = SceneError {
            path: "a/b.json".into(),
            field: String::new(),
            kind: SceneErrorKind::Syntax {
                line: 3,
                column: 12,
                message: "expected `:`".into(),
            },
        };
        assert_eq!(
            e.to_string(),
            "a/b.json: line 3, column 12: invalid JSON: expected `:`"
        );
    }
}
