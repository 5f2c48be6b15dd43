#version 330 core
// textureSize (GLSL 1.30 §8.7) sizes the texel grid of whatever texture is bound: the
// tile is cut into its texels, and each cell samples its texel's centre,
// (floor(uv * size) + 0.5) / size, where linear filtering returns the texel
// unblended; thin lines mark the texel edges. The strip at the bottom shows the
// width and height at level 0 (left) and level 1 (right) as bars of size / 8: the
// texture has one level, and a level it does not have is 0 by 0 (as llvmpipe says).
uniform sampler2D uTex;
in vec2 vUV;
out vec4 fragColor;

void main() {
    ivec2 size = textureSize(uTex, 0);
    vec2 texels = vec2(size);
    vec2 grid = vUV * texels;
    vec2 centre = (floor(grid) + 0.5) / texels;
    vec3 color = texture(uTex, centre).rgb;
    vec2 f = fract(grid);
    float edge = step(0.95, max(f.x, f.y));
    color = mix(color, vec3(0.1), edge * 0.8);
    if (vUV.y < 0.125) {
        ivec2 level = textureSize(uTex, vUV.x < 0.5 ? 0 : 1);
        float x = fract(vUV.x * 2.0);
        float bar = vUV.y < 0.0625 ? float(level.x) : float(level.y);
        color = x < bar / 8.0 ? vec3(0.95, 0.75, 0.2) : vec3(0.15, 0.15, 0.25);
    }
    fragColor = vec4(color, 1.0);
}
