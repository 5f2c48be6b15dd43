#version 330 core
// Diagonal stripes clipped to a box: a bvec from lessThan, all(), and a stripe
// phase from fract with anti-aliased edges.
in vec2 vUV;
out vec4 fragColor;

uniform float uFrequency;

void main() {
    vec2 p = vUV * 2.0 - 1.0;
    bvec2 inside = lessThan(abs(p), vec2(0.8, 0.6));
    float phase = fract((p.x + p.y) * uFrequency);
    float stripe = smoothstep(0.45, 0.5, phase) - smoothstep(0.95, 1.0, phase);
    vec3 col = vec3(0.2);
    if (all(inside)) {
        col = mix(vec3(0.95, 0.8, 0.1), vec3(0.1), stripe);
    } else if (any(inside)) {
        col = vec3(0.35, 0.35, 0.4);
    }
    fragColor = vec4(col, 1.0);
}
