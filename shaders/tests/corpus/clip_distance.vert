#version 330 core
// tile.vert that also writes user clip distances (GLSL 1.30 §7.1): four planes through
// the tile's centre at 45° steps, written in a loop. They clip
// only where a draw enables GL_CLIP_DISTANCEi; the corpus_clip scene enables all four
// (state.clip_planes), which cuts the tile's corners. It also checks that writing
// gl_ClipDistance compiles, emits TGSI that agrees with the interpreter and survives
// CSI v2.
layout(location = 0) in vec2 aPos;
layout(location = 1) in vec2 aUV;

out vec2 vUV;
out float gl_ClipDistance[4];   // sized by a redeclaration (GLSL 1.30 §7.1)

void main() {
    vUV = aUV;
    vec2 c = aUV - vec2(0.5);
    for (int i = 0; i < 4; i++) {
        float a = float(i) * 0.7853982;
        gl_ClipDistance[i] = 0.35 - dot(vec2(cos(a), sin(a)), c);
    }
    gl_Position = vec4(aPos, 0.0, 1.0);
}
