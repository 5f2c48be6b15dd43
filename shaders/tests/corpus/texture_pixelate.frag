#version 330 core
// Pixelation: texture coordinates snapped to a coarse grid (sampled at texel centres),
// tinted by a per-block ripple.
in vec2 vUV;
out vec4 fragColor;

uniform sampler2D uTex;
uniform float uBlocks;

void main() {
    vec2 block = floor(vUV * uBlocks);
    vec2 uv = (block + 0.375) / uBlocks;
    vec4 texel = texture(uTex, uv);
    float tint = 0.85 + 0.15 * cos(length(block - uBlocks * 0.5));
    fragColor = vec4(texel.rgb * tint, 1.0);
}
