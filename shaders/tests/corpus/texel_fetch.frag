#version 330 core
// texelFetch (GLSL 1.30 §8.7) reads one texel by its integer index, unfiltered, at an
// explicit level. The tile is a grid of (width + 2) by (height + 2) cells, one ring of
// cells outside the texture on every side, each cell fetching its texel: the ring
// fetches out of range, which GLSL leaves undefined and llvmpipe answers with
// (0, 0, 0, 0). The colour is 3/4 of the texel's rgb plus 1/4 of its alpha, so a
// transparent texel and an out-of-range fetch show apart from an opaque black one.
// The cells of texel row 1 use texelFetchOffset with the offset (-1, 1): they show
// row 2 moved one cell right, the first one out of range. Bottom right, the cells of
// row 0 fetch at level 1 (left) and level -1 (right), levels the one-level texture
// does not have.
uniform sampler2D uTex;
in vec2 vUV;
out vec4 fragColor;

void main() {
    ivec2 size = textureSize(uTex, 0);
    ivec2 cell = ivec2(floor(vUV * vec2(size + 2))) - 1;
    int lod = 0;
    if (cell.y == 0 && cell.x >= 3) {
        lod = vUV.x < 0.8 ? 1 : -1;
    }
    vec4 texel = texelFetch(uTex, cell, lod);
    if (cell.y == 1) {
        texel = texelFetchOffset(uTex, cell, lod, ivec2(-1, 1));
    }
    fragColor = vec4(texel.rgb * 0.75 + vec3(0.25) * texel.a, 1.0);
}
