//! Notes on a prepared draw's vertex inputs: what OpenGL allows but is most often a
//! mistake in a scene. A vertex shader input that no attribute feeds reads the current
//! attribute value, (0, 0, 0, 1) (GL 3.3 §2.7, "Vertex Specification"), and an
//! attribute at a location no input reads is ignored. Neither is an error; `render`
//! prints each as a `note:` line, as `run` does for inputs it is not given.

use csir::Program;

use crate::scene::Draw;

/// The notes on `draw`'s vertex inputs against `program`'s (`draws[i]: …` lines, in
/// location order): each input without an attribute, then each attribute (of an
/// inline draw; a mesh's attributes are the OBJ's) that no input reads.
pub(crate) fn vertex_input_notes(draw: &Draw, program: &Program) -> Vec<String> {
    let mut notes = Vec::new();
    let mut inputs: Vec<_> = program.attributes.iter().collect();
    inputs.sort_by_key(|a| a.location);
    for input in inputs {
        if !draw
            .attributes
            .iter()
            .any(|a| a.location == u32::from(input.location))
        {
            notes.push(format!(
                "{}: vertex input '{}' (location {}) has no attribute: it reads OpenGL's \
                 current value, (0, 0, 0, 1)",
                draw.field(),
                input.name,
                input.location
            ));
        }
    }
    if draw.mesh.is_none() {
        for attribute in &draw.attributes {
            if !program
                .attributes
                .iter()
                .any(|a| u32::from(a.location) == attribute.location)
            {
                notes.push(format!(
                    "{}.attributes: location {}: no vertex input reads it",
                    draw.field(),
                    attribute.location
                ));
            }
        }
    }
    notes
}
