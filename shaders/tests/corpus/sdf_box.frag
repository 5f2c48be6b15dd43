#version 330 core
// Signed distance to an axis-aligned box, shown as iso-distance bands.
in vec2 vUV;
out vec4 fragColor;

uniform vec2 uHalfSize;

float sdBox(vec2 p, vec2 b) {
    vec2 d = abs(p) - b;
    return length(max(d, 0.0)) + min(max(d.x, d.y), 0.0);
}

void main() {
    vec2 p = vUV * 2.0 - 1.0;
    float d = sdBox(p, uHalfSize);
    vec3 col = d > 0.0 ? vec3(0.9, 0.6, 0.3) : vec3(0.65, 0.85, 1.0);
    col *= 1.0 - exp(-4.0 * abs(d));
    col *= 0.8 + 0.2 * cos(120.0 * d);
    col = mix(col, vec3(1.0), 1.0 - smoothstep(0.0, 0.015, abs(d)));
    fragColor = vec4(col, 1.0);
}
