#version 330 core
// Signed distance to a circle: filled, outlined and with a soft glow outside.
in vec2 vUV;
out vec4 fragColor;

uniform float uRadius;

float sdCircle(vec2 p, float r) {
    return length(p) - r;
}

void main() {
    vec2 p = vUV * 2.0 - 1.0;
    float d = sdCircle(p, uRadius);
    const float aa = 0.015;
    float fill = 1.0 - smoothstep(-aa, aa, d);
    float outline = 1.0 - smoothstep(aa, 2.0 * aa, abs(d - 0.05));
    float glow = exp(-6.0 * max(d, 0.0));
    vec3 col = vec3(0.05, 0.05, 0.1) + vec3(0.2, 0.3, 0.6) * glow;
    col = mix(col, vec3(0.9, 0.4, 0.2), fill);
    col = mix(col, vec3(1.0), outline);
    fragColor = vec4(col, 1.0);
}
