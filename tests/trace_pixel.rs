//! `csir_render::debug::trace_pixel` explains pixels truthfully: on every reference
//! scene, at covered pixels and a background pixel, the traced colour is the rendered
//! byte, each draw's story chains into the next, and the traced shader run agrees bit
//! for bit with the pipeline's fragment stage.

use csir_raster::BlendMode;
use csir_render::debug::{
    Flow, FragmentTrace, PixelTrace, TraceError, TraceOptions, trace_pixel, trace_pixel_with,
};
use csir_render::pipeline::{Frame, RenderOptions, render_scene};
use csir_render::scene::{DEFAULT_CUBE_START_ANGLE, Scene};

mod common;
use common::{reference_dir, reference_scenes};

fn load(name: &str) -> Scene {
    Scene::load(reference_dir().join(name)).unwrap_or_else(|e| panic!("{e}"))
}

fn render(scene: &Scene) -> Frame {
    render_scene(scene, &RenderOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn pixel_of(frame: &Frame, [x, y]: [u32; 2]) -> [u8; 4] {
    frame.image.pixel(x, y).unwrap()
}

/// `round(clamp(c, 0, 1) * 255)`, the scene format's colour conversion (ties to even,
/// as llvmpipe and the rasterizer round).
fn unorm8(c: [f32; 4]) -> [u8; 4] {
    c.map(|v| (v.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8)
}

/// Pixels worth tracing: three covered by geometry (a quarter, half and three quarters
/// of the way through the pixels that differ from the clear colour) and one background
/// pixel, when the image has them.
fn chosen_pixels(scene: &Scene, frame: &Frame) -> Vec<[u32; 2]> {
    let clear = unorm8(scene.clear_color);
    let (width, height) = (frame.image.width(), frame.image.height());
    let all = (0..height).flat_map(|y| (0..width).map(move |x| [x, y]));
    let (covered, background): (Vec<[u32; 2]>, Vec<[u32; 2]>) =
        all.partition(|&p| pixel_of(frame, p) != clear);
    let mut chosen: Vec<[u32; 2]> = [1, 2, 3]
        .iter()
        .filter_map(|k| covered.get(covered.len() * k / 4).copied())
        .collect();
    chosen.extend(background.get(background.len() / 2).copied());
    chosen.dedup();
    chosen
}

/// Every invariant that makes a trace an explanation of the rendered pixel.
fn check_trace(label: &str, trace: &PixelTrace, rendered: [u8; 4]) {
    assert_eq!(
        trace.color, rendered,
        "{label}: traced colour differs from the render"
    );
    if !trace.samples.is_empty() {
        return check_sample_chains(label, trace);
    }
    let mut colour = trace.draws.first().map_or(trace.color, |d| d.before);
    for draw in &trace.draws {
        assert_eq!(
            draw.before, colour,
            "{label}: draw {} starts elsewhere",
            draw.index
        );
        for f in &draw.fragments {
            check_fragment(label, f);
            if let Some(b) = &f.blend {
                assert_eq!(b.destination, colour, "{label}: blend destination");
                colour = b.result;
            }
        }
        assert_eq!(
            draw.after, colour,
            "{label}: draw {} ends elsewhere",
            draw.index
        );
    }
    assert_eq!(colour, trace.color, "{label}: the last write is the pixel");
}

/// A multisampled trace: each sample's writes chain from draw to draw into the
/// sample's final value, and every shaded fragment's one shader run agrees with the
/// pipeline's.
fn check_sample_chains(label: &str, trace: &PixelTrace) {
    for value in &trace.samples {
        let s = value.sample;
        let mut colour = None;
        for draw in &trace.draws {
            for f in &draw.fragments {
                assert_eq!(f.samples.len(), 4, "{label}: a step per sample");
                if let Some(shader) = &f.shader {
                    assert_eq!(shader.disagreement, None, "{label}: interpreters disagree");
                }
                if let Some(b) = &f.samples[s].blend {
                    if let Some(c) = colour {
                        assert_eq!(b.destination, c, "{label}: sample {s} blend destination");
                    }
                    colour = Some(b.result);
                }
            }
        }
        if let Some(c) = colour {
            assert_eq!(
                c, value.color,
                "{label}: sample {s}'s last write is its value"
            );
        }
    }
}

fn check_fragment(label: &str, f: &FragmentTrace) {
    assert_eq!(
        f.vertices.len(),
        3,
        "{label}: a triangle has three vertices"
    );
    match &f.shader {
        None => {
            assert!(!f.shaded, "{label}: a shaded fragment has a shader trace");
            // Not shaded: the stencil test or the depth test failed.
            assert!(
                f.depth.as_ref().is_some_and(|d| !d.passed)
                    || f.stencil.as_ref().is_some_and(|s| !s.passed),
                "{label}: an unshaded fragment failed a test"
            );
            assert!(f.blend.is_none() && !f.discarded);
        }
        Some(shader) => {
            assert!(f.shaded);
            assert_eq!(shader.disagreement, None, "{label}: interpreters disagree");
            assert_eq!(shader.fault, None, "{label}");
            assert_eq!(shader.discarded, f.discarded, "{label}");
            assert!(!shader.instructions.is_empty());
            let color: [f32; 4] = std::array::from_fn(|c| shader.output.values[c].carrier());
            let last = shader.instructions.last().unwrap();
            if f.discarded {
                assert_eq!(last.instruction, "discard", "{label}");
                assert!(f.blend.is_none());
            } else {
                let blend = f.blend.as_ref().expect("a kept fragment is blended");
                assert_eq!(blend.source, unorm8(color), "{label}: blend source");
                if blend.mode == BlendMode::Replace {
                    assert_eq!(blend.result, unorm8(color), "{label}: replace");
                }
            }
        }
    }
}

#[test]
fn every_reference_scene_traces_to_the_rendered_bytes() {
    let scenes = reference_scenes();
    assert!(
        scenes.len() >= 10,
        "expected the reference set, found {scenes:?}"
    );
    let mut fragments = 0;
    for path in &scenes {
        let scene = Scene::load(path).unwrap_or_else(|e| panic!("{e}"));
        if scene.targets.list[0].is_wide() {
            // trace explains RGBA8 target 0 only, and says so
            let e = trace_pixel_with(&scene, [0, 0], &TraceOptions::default()).unwrap_err();
            assert!(
                e.to_string().contains("trace explains RGBA8 target 0 only"),
                "{e}"
            );
            continue;
        }
        let frame = render(&scene);
        let pixels = chosen_pixels(&scene, &frame);
        assert!(
            pixels.len() >= 3,
            "{}: too few pixels to trace",
            path.display()
        );
        for pixel in pixels {
            let label = format!("{} {pixel:?}", path.display());
            // Every draw: the chain of writes ends at the pixel only when none is cut
            // (fragment/blend_factors has 226 draws).
            let all = TraceOptions {
                max_draws: usize::MAX,
                ..TraceOptions::default()
            };
            let trace =
                trace_pixel_with(&scene, pixel, &all).unwrap_or_else(|e| panic!("{label}: {e}"));
            check_trace(&label, &trace, pixel_of(&frame, pixel));
            fragments += trace.draws.iter().map(|d| d.fragments.len()).sum::<usize>();
        }
    }
    assert!(
        fragments > 2 * scenes.len(),
        "only {fragments} fragments traced"
    );
}

#[test]
fn the_default_cube_shows_its_branch_and_lighting_inputs() {
    let scene = Scene::default_cube(DEFAULT_CUBE_START_ANGLE);
    let frame = render(&scene);
    let trace = trace_pixel(&scene, [160, 120]).unwrap();
    check_trace("default cube", &trace, pixel_of(&frame, [160, 120]));
    assert_eq!(trace.window, [160, 119], "window y is up");
    let fragment = &trace.draws[0].fragments[0];
    let names: Vec<&str> = fragment.varyings.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["vNormal", "vWorldPos", "vUV"]);
    assert_eq!(fragment.frag_coord[..2], [160.5, 119.5]);
    let weights: f32 = fragment.barycentric.iter().sum();
    assert!(
        (weights - 1.0).abs() < 1e-5,
        "barycentrics sum to 1: {weights}"
    );
    let shader = fragment.shader.as_ref().unwrap();
    assert_eq!(shader.output.name, "fragColor");
    let flows: Vec<Flow> = shader.instructions.iter().filter_map(|s| s.flow).collect();
    assert!(matches!(flows[0], Flow::If { taken: true }), "{flows:?}");
    assert!(
        matches!(flows.last(), Some(Flow::Endif { .. })),
        "{flows:?}"
    );
    assert!(
        shader
            .instructions
            .iter()
            .any(|s| s.instruction.contains("sample2d")),
        "the texture branch ran"
    );
}

#[test]
fn background_pixels_have_no_fragments() {
    let scene = Scene::default_cube(DEFAULT_CUBE_START_ANGLE);
    let trace = trace_pixel(&scene, [2, 2]).unwrap();
    assert_eq!(trace.color, [26, 26, 31, 255]);
    assert!(trace.draws[0].fragments.is_empty());
}

#[test]
fn discarded_and_depth_failed_fragments_are_told_apart() {
    let scene = load("discard_depth.json");
    let frame = render(&scene);
    // Image row 100 crosses both quads; scan it for a discarded fragment of draw 0 and
    // a fragment of draw 1 that fails the depth test against draw 0's kept fragment.
    let (mut discarded, mut failed) = (false, false);
    for x in (40..220).step_by(8) {
        let trace = trace_pixel(&scene, [x, 100]).unwrap();
        check_trace(
            &format!("discard_depth {x}"),
            &trace,
            pixel_of(&frame, [x, 100]),
        );
        if let Some(f) = trace.draws[0].fragments.first()
            && f.discarded
        {
            discarded = true;
            assert_eq!(trace.draws[0].before, trace.draws[0].after);
            let shader = f.shader.as_ref().unwrap();
            assert!(
                shader
                    .instructions
                    .iter()
                    .any(|s| s.flow == Some(Flow::If { taken: true }))
            );
        }
        if let Some(f) = trace.draws[1].fragments.first()
            && !f.shaded
        {
            failed = true;
            let depth = f.depth.as_ref().unwrap();
            assert!(!depth.passed && !depth.written);
            assert!(depth.fragment >= depth.stored);
            assert!(f.varyings.is_empty());
        }
    }
    assert!(
        discarded && failed,
        "discarded: {discarded}, depth failed: {failed}"
    );
}

#[test]
fn blended_fragments_show_both_inputs() {
    let scene = load("alpha_overlap.json");
    let frame = render(&scene);
    let pixel = chosen_pixels(&scene, &frame)[1];
    let trace = trace_pixel(&scene, pixel).unwrap();
    check_trace("alpha_overlap", &trace, pixel_of(&frame, pixel));
    let blends: Vec<_> = trace
        .draws
        .iter()
        .flat_map(|d| &d.fragments)
        .filter_map(|f| f.blend.as_ref())
        .collect();
    assert!(
        blends.iter().any(|b| b.mode == BlendMode::Alpha),
        "{blends:?}"
    );
}

#[test]
fn a_pixel_outside_the_image_is_an_error() {
    let scene = Scene::default_cube(DEFAULT_CUBE_START_ANGLE);
    for pixel in [[320, 0], [0, 240], [u32::MAX, u32::MAX]] {
        let err = trace_pixel(&scene, pixel).unwrap_err();
        assert!(matches!(err, TraceError::PixelOutside { .. }), "{err}");
        assert!(
            err.to_string().contains("outside the 320x240 image"),
            "{err}"
        );
    }
}

#[test]
fn json_holds_the_whole_story() {
    let scene = Scene::default_cube(DEFAULT_CUBE_START_ANGLE);
    let trace = trace_pixel(&scene, [160, 120]).unwrap();
    let json: serde_json::Value = serde_json::to_value(&trace).unwrap();
    assert_eq!(json["pixel"], serde_json::json!([160, 120]));
    let fragment = &json["draws"][0]["fragments"][0];
    assert_eq!(fragment["depth"]["test"], "less");
    assert_eq!(fragment["varyings"][0]["name"], "vNormal");
    let steps = fragment["shader"]["instructions"].as_array().unwrap();
    let branch = steps.iter().find(|s| s["flow"]["kind"] == "if").unwrap();
    assert_eq!(branch["flow"]["taken"], true);
    let endif = steps.iter().find(|s| s["flow"]["kind"] == "endif").unwrap();
    assert_eq!(endif["flow"]["ran"], "then");
    assert_eq!(endif["flow"]["if_index"], branch["index"]);
    let color: Vec<u64> = json["color"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(color, trace.color.map(u64::from));
}

/// A fragment shader whose colour is NaN, +inf and -inf (inf − inf, ±big·big).
const NON_FINITE: &str = "#version 330 core
in vec2 vP;
uniform float uBig;
out vec4 color;
void main() {
    float inf = uBig * uBig;
    color = vec4(inf - inf, inf, -inf, 1.0);
}
";

#[test]
fn no_depth_test_writes_no_depth_and_non_finite_values_are_named_in_json() {
    let dir = std::env::temp_dir().join(format!("csir-render-trace-nf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("nf.frag"), NON_FINITE).unwrap();
    let vert = reference_dir().join("shaders/flat.vert");
    let scene = serde_json::json!({
        "format": "csir-scene/1",
        "width": 4,
        "height": 4,
        "draws": [{
            "vertex": vert.to_str().unwrap(),
            "fragment": "nf.frag",
            "attributes": [{"location": 0, "size": 3,
                            "data": [-1, -1, 0, 3, -1, 0, -1, 3, 0]}],
            "uniforms": {
                "uMVP": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
                "uBig": 1e30
            },
            "state": {"depth_test": "none", "depth_write": true}
        }]
    });
    let scene = Scene::parse(&scene.to_string(), &dir.join("nf.json"));
    let _ = std::fs::remove_dir_all(&dir);
    let scene = scene.unwrap_or_else(|e| panic!("{e}"));
    let trace = trace_pixel(&scene, [1, 1]).unwrap();

    // The mask says write, but without a depth test nothing is written.
    let state = &trace.draws[0].state;
    assert!(state.depth_write && !state.writes_depth);
    let text = trace.to_string();
    assert!(
        text.contains("(depth none, write off (depth test none), cull none, blend none)"),
        "{text}"
    );

    let json = serde_json::to_value(&trace).unwrap();
    assert_eq!(json["draws"][0]["state"]["writes_depth"], false);
    let shader = &json["draws"][0]["fragments"][0]["shader"];
    assert_eq!(
        shader["output"]["values"],
        serde_json::json!(["NaN", "inf", "-inf", 1.0])
    );
    let stored = shader["instructions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| {
            s["instruction"]
                .as_str()
                .unwrap()
                .starts_with("store_color")
        })
        .unwrap();
    assert_eq!(
        stored["values"],
        serde_json::json!([["NaN", "inf", "-inf", 1.0]])
    );
    assert!(text.contains("color: vec4 = (NaN, inf, -inf, 1)"), "{text}");
}

#[test]
fn a_shader_with_derivatives_shows_the_quad_it_ran_in() {
    // derivatives/fwidth_sdf: pixel (20, 94) of the image is window (20, 161); the
    // triangle's lower edge leaves the quad's lower row (window y 160) uncovered.
    let scene = load("derivatives/fwidth_sdf.json");
    let frame = render(&scene);
    let trace = trace_pixel(&scene, [20, 94]).unwrap();
    check_trace("fwidth_sdf (20, 94)", &trace, pixel_of(&frame, [20, 94]));
    let fragment = trace.draws[1]
        .fragments
        .first()
        .expect("the triangle covers it");
    let quad = fragment
        .quad
        .expect("a quad when the shader takes derivatives");
    assert_eq!(quad.pixels, [[20, 160], [21, 160], [20, 161], [21, 161]]);
    assert_eq!(quad.helpers, [true, true, false, false]);
    assert_eq!(quad.traced, 2);
    let shader = fragment.shader.as_ref().unwrap();
    assert!(shader.disagreement.is_none(), "{:?}", shader.disagreement);
    // A shader without derivatives shades no quads.
    let plain = load("triangle.json");
    let frame = render(&plain);
    let [x, y] = chosen_pixels(&plain, &frame)[0];
    let trace = trace_pixel(&plain, [x, y]).unwrap();
    assert!(trace.draws[0].fragments.iter().all(|f| f.quad.is_none()));
}

/// A frame-covering quad of `fragment` (GLSL 3.30) over a 4×4 frame.
fn quad_draw(
    fragment: &str,
    state: csir_render::scene::DrawState,
) -> csir_render::scene::DrawBuilder {
    let vertex = "#version 330\nlayout(location = 0) in vec2 p;\n\
                  void main() { gl_Position = vec4(p, 0.0, 1.0); }\n";
    csir_render::scene::Draw::new(vertex, fragment)
        .attribute(0, 2, &[-1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0])
        .indices(&[0, 1, 2, 0, 2, 3])
        .state(state.depth_test(csir_raster::DepthTest::Disabled))
}

/// The stencil step of each fragment: reference, masks, the stored value before and
/// after and the op that applied, computed here by GL 3.3 §4.1.4's rule.
#[test]
fn trace_shows_each_stencil_step() {
    use csir_raster::{DepthTest, StencilFace, StencilOp};
    use csir_render::scene::DrawState;
    let red = "#version 330\nout vec4 c;\nvoid main() { c = vec4(1.0, 0.0, 0.0, 1.0); }\n";
    // Draw 0: (3 & 0xff) == (3 & 0xff) passes; incr through write mask 0x0f: 3 → 4.
    let first = StencilFace {
        func: DepthTest::Equal,
        reference: 3,
        write_mask: 0x0f,
        pass: StencilOp::Incr,
        ..Default::default()
    };
    // Draw 1: (9 & 0x0c) = 8 < (4 & 0x0c) = 4 fails; replace through 0xf3:
    // (4 & !0xf3) | (9 & 0xf3) = 4 | 1 = 5.
    let second = StencilFace {
        func: DepthTest::Less,
        reference: 9,
        value_mask: 0x0c,
        write_mask: 0xf3,
        fail: StencilOp::Replace,
        ..Default::default()
    };
    let scene = Scene::builder(4, 4)
        .clear_stencil(3)
        .draw(quad_draw(red, DrawState::default().stencil(first)))
        .draw(quad_draw(red, DrawState::default().stencil(second)))
        .build()
        .unwrap();
    let trace = trace_pixel(&scene, [1, 2]).unwrap();
    let steps: Vec<_> = trace
        .draws
        .iter()
        .map(|d| d.fragments[0].stencil.expect("a stencil step"))
        .collect();
    let view = |s: &csir_raster::StencilTrace| {
        (
            s.face.reference,
            s.face.value_mask,
            s.face.write_mask,
            s.before,
            s.passed,
            s.op,
            s.after,
        )
    };
    assert_eq!(
        view(&steps[0]),
        (3, 0xff, 0x0f, 3, true, StencilOp::Incr, 4)
    );
    assert_eq!(
        view(&steps[1]),
        (9, 0x0c, 0xf3, 4, false, StencilOp::Replace, 5)
    );
    let text = trace.to_string();
    assert!(
        text.contains(
            "stencil test (front face) less: ref 9 & mask 0x0c against stored 4: failed, \
             op replace through write mask 0xf3: stencil 4 -> 5"
        ),
        "{text}"
    );
    let json = serde_json::to_value(&trace).unwrap();
    let s = &json["draws"][0]["fragments"][0]["stencil"];
    assert_eq!(
        (&s["ref"], &s["before"], &s["after"], &s["op"]),
        (&3.into(), &3.into(), &4.into(), &"incr".into())
    );
}

/// The blend step of a blend object: factors, equations, source, second source,
/// destination and result, the result computed here with GL 3.3 §4.1.8's formula
/// in unorm8 (each product rounded): a dual-source blend `src1_alpha`,
/// `one_minus_src1_color` over the clear colour.
#[test]
fn trace_shows_the_blend_factors_and_both_sources() {
    use csir_raster::{BlendFactor, BlendFunction};
    use csir_render::scene::DrawState;
    let dual = "#version 330\nlayout(location = 0) out vec4 c;\n\
                layout(location = 0, index = 1) out vec4 f;\n\
                void main() { c = vec4(1.0, 0.5, 0.0, 0.5); f = vec4(0.0, 1.0, 0.2, 0.4); }\n";
    let function = BlendFunction::add(BlendFactor::Src1Alpha, BlendFactor::OneMinusSrc1Color);
    let scene = Scene::builder(4, 4)
        .clear_color([0.2, 0.4, 0.6, 1.0])
        .draw(quad_draw(
            dual,
            DrawState::default().blend_function(function),
        ))
        .build()
        .unwrap();
    let trace = trace_pixel(&scene, [2, 1]).unwrap();
    let blend = trace.draws[0].fragments[0].blend.expect("blended");
    let (s, s1, d) = (
        [255u8, 128, 0, 128],
        [0u8, 255, 51, 102],
        [51u8, 102, 153, 255],
    );
    let term = |x: u8, f: u8| (f64::from(x) * f64::from(f) / 255.0).round() as u32;
    let want: [u8; 4] =
        std::array::from_fn(|c| (term(s[c], s1[3]) + term(d[c], 255 - s1[c])).min(255) as u8);
    assert_eq!(want, [153, 51, 122, 204]);
    assert_eq!(
        (blend.source, blend.source1, blend.destination, blend.result),
        (s, Some(s1), d, want)
    );
    assert_eq!(trace.color, want, "the traced colour is the rendered one");
    let text = trace.to_string();
    assert!(
        text.contains(
            "blend rgb add(src1_alpha, one_minus_src1_color), alpha add(src1_alpha, \
             one_minus_src1_color): source (255, 128, 0, 128), second source \
             (0, 255, 51, 102) onto (51, 102, 153, 255) gives (153, 51, 122, 204)"
        ),
        "{text}"
    );
    let json = serde_json::to_value(&trace).unwrap();
    let b = &json["draws"][0]["fragments"][0]["blend"];
    assert_eq!(b["src_rgb"], "src1_alpha");
    assert_eq!(b["dst_alpha"], "one_minus_src1_color");
    assert_eq!(b["equation_rgb"], "add");
    assert_eq!(b["source1"], serde_json::json!([0, 255, 51, 102]));
    assert_eq!(b["result"], serde_json::json!([153, 51, 122, 204]));
    // A named mode shows its factors too.
    let alpha = Scene::builder(4, 4)
        .draw(quad_draw(dual, DrawState::alpha_blend()))
        .build()
        .unwrap();
    let text = trace_pixel(&alpha, [0, 0]).unwrap().to_string();
    assert!(
        text.contains(
            "blend alpha (rgb add(src_alpha, one_minus_src_alpha), alpha add(src_alpha, \
             one_minus_src_alpha)): source (255, 128, 0, 128) onto"
        ),
        "{text}"
    );
}
