//! Render a scene file to PNG through the library API (what `csir-render render` does).
//!
//! ```sh
//! cargo run --release --example render_scene -- reference-images/lit_cube.json cube.png
//! ```

use csir_render::image_io::write_png;
use csir_render::pipeline::{RenderOptions, render_scene};
use csir_render::scene::Scene;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let scene_path = args
        .next()
        .unwrap_or("reference-images/lit_cube.json".into());
    let out_path = args.next().unwrap_or("scene.png".into());

    // Load and validate the scene: shaders, textures, meshes; errors name the JSON field.
    let scene = Scene::load(&scene_path)?;
    // Compile and link every draw's shaders to CSIR, bind uniforms and textures, rasterize.
    let frame = render_scene(&scene, &RenderOptions::default())?;
    // RGBA8, top row first; written atomically.
    let image = &frame.image;
    write_png(
        out_path.as_ref(),
        image.width(),
        image.height(),
        image.pixels(),
    )?;
    println!(
        "{}x{}, {} triangles -> {out_path}",
        image.width(),
        image.height(),
        frame.triangles()
    );
    Ok(())
}
