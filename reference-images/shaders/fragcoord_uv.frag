#version 330 core
// Samples uTex at uv = (gl_FragCoord.xy - uOffset) * uScale: texture coordinates that
// do not depend on interpolation, so a sampler can be checked texel-exactly.
uniform sampler2D uTex;
uniform vec2 uOffset;
uniform vec2 uScale;
out vec4 fragColor;

void main() {
    vec2 uv = (gl_FragCoord.xy - uOffset) * uScale;
    fragColor = texture(uTex, uv);
}
