//! `Scene::builder` rebuilds loaded reference scenes key by key from their plain data,
//! and the rebuilt scene renders the same bytes as the file: the builder fills in
//! what the loader fills in (indexes, vertex counts, triangle assembly, texture
//! indexes, mip chains) the same way.

use csir_render::pipeline::{RenderOptions, render_scene};
use csir_render::scene::{Draw, DrawBuilder, Scene, SceneBuilder};
use std::path::Path;

/// The builder calls that make `scene` again from its loaded data.
fn rebuild(scene: &Scene) -> SceneBuilder {
    let mut b = Scene::builder(scene.width, scene.height)
        .clear_color(scene.clear_color)
        .clear_depth(scene.clear_depth)
        .seamless_cube_map(scene.seamless_cube_map);
    for t in &scene.textures {
        b = match &t.gl33 {
            Some(gl) => b.gl_texture(&t.name, gl.clone()),
            None => b.texture(&t.name, t.texture.clone()),
        };
    }
    if let Some(rule) = scene.expect {
        b = b.expect(rule);
    }
    for d in &scene.draws {
        b = b.draw(rebuild_draw(scene, d));
    }
    b
}

fn rebuild_draw(scene: &Scene, d: &Draw) -> DrawBuilder {
    let mut draw = Draw::new(d.vertex.text.clone(), d.fragment.text.clone())
        .instances(d.instances)
        .primitive(d.primitive)
        .state(d.state);
    for a in &d.attributes {
        draw = draw.attribute_array(a.clone());
    }
    draw = match (&d.geometry, &d.elements) {
        (_, Some(elements)) => draw.indices(elements),
        (None, None) => draw.indices(&d.indices),
        (Some(_), None) => draw,
    };
    if let Some(g) = &d.geometry {
        draw = draw.geometry(g.shader.text.clone(), g.mode);
    }
    if let Some(r) = d.primitive_restart_index {
        draw = draw.primitive_restart_index(r);
    }
    for u in &d.uniforms {
        draw = match &u.ints {
            Some(ints) => draw.uniform_ints(u.key.clone(), ints),
            None => draw.uniform(u.key.clone(), &u.values),
        };
    }
    for s in &d.samplers {
        let texture = &scene.textures[s.texture].name;
        draw = match s.gl33 {
            Some(gl) => draw.gl_sampler(s.name.clone(), texture, gl),
            None => draw.sampler(s.name.clone(), texture, s.sampler),
        };
    }
    draw
}

#[test]
fn rebuilt_reference_scenes_render_the_same_bytes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-images");
    let mut checked = 0;
    for name in [
        "triangle.json",
        "lit_cube.json",
        "alpha_overlap.json",
        "clip_planes.json",
        "texture_lod_strip.json",
        "fragment/blend_factors.json",
        "fragment/masks_scissor_viewport.json",
        "fragment/polygon_offset_decal.json",
        "primitives/lines.json",
        "primitives/points.json",
        "primitives/instancing.json",
        "primitives/polygon_mode.json",
        "geometry/amplify.json",
        "textures_gl33/cube_seamless.json",
    ] {
        let loaded = Scene::load(root.join(name)).unwrap_or_else(|e| panic!("{e}"));
        let built = rebuild(&loaded)
            .build()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(built.draws.len(), loaded.draws.len());
        for (b, l) in built.draws.iter().zip(&loaded.draws) {
            assert_eq!(
                (b.index, b.vertex_count, &b.indices, &b.elements),
                (l.index, l.vertex_count, &l.indices, &l.elements),
                "{name}"
            );
        }
        let options = RenderOptions::default();
        let want = render_scene(&loaded, &options).unwrap_or_else(|e| panic!("{e}"));
        let got = render_scene(&built, &options).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            want.image == got.image,
            "{name}: the rebuilt scene renders other pixels"
        );
        checked += 1;
    }
    assert_eq!(checked, 14);
}

#[test]
fn built_shaders_and_errors_name_the_scene_path() {
    let scene = Scene::builder(8, 8)
        .name("torus")
        .draw(Draw::new("v", "f").attribute(0, 2, &[0.0; 6]))
        .build()
        .unwrap();
    assert_eq!(
        scene.draws[0].vertex.path,
        Path::new("torus/draws[0].vertex")
    );
    assert_eq!(scene.draws[0].indices, [0, 1, 2]);
    let e = Scene::builder(8, 8)
        .draw(Draw::new("v", "f").attribute(0, 2, &[0.0; 6]).divisor(3, 1))
        .build()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "<scene built in code>: draws[0].attributes[1].data: holds 0 elements; 1 instances \
         with divisor 1 read 1"
    );
    let twice = Scene::builder(8, 8)
        .texture(
            "t",
            csir_render::scene::Texture::from_texels(1, 1, vec![[0; 4]]).unwrap(),
        )
        .texture(
            "t",
            csir_render::scene::Texture::from_texels(1, 1, vec![[0; 4]]).unwrap(),
        )
        .build()
        .unwrap_err();
    assert_eq!(twice.field, "textures.t");
    assert_eq!(twice.message(), "a texture named \"t\" is given twice");
}

#[test]
fn a_mesh_in_code_is_the_mesh_of_a_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-images");
    let loaded = Scene::load(root.join("lit_cube.json")).unwrap();
    let obj = std::fs::read_to_string(root.join("meshes/cube.obj")).unwrap();
    let built = Scene::builder(8, 8)
        .draw(Draw::new("v", "f").mesh("cube.obj", obj))
        .build()
        .unwrap();
    let (b, l) = (&built.draws[0], &loaded.draws[0]);
    assert_eq!(b.attributes, l.attributes);
    assert_eq!((b.vertex_count, &b.indices), (l.vertex_count, &l.indices));
    assert_eq!(b.indices.len(), 36, "a cube is 12 triangles");
    assert_eq!(b.mesh.as_deref(), Some(Path::new("cube.obj")));
}
