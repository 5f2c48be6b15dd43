#version 330 core
// Samples uTex with textureLod at uv = (gl_FragCoord.xy - uOffset) * uScale, at the
// explicit level of detail uLod: one band per level in texture_lod_strip.
uniform sampler2D uTex;
uniform vec2 uOffset;
uniform vec2 uScale;
uniform float uLod;
out vec4 fragColor;

void main() {
    vec2 uv = (gl_FragCoord.xy - uOffset) * uScale;
    fragColor = textureLod(uTex, uv, uLod);
}
