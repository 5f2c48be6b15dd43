#version 330 core
// IEEE float division (GLSL 4.40 §4.7.1; CSIR's DIV under the extended profile):
// x / 0.0 is an infinity of x's sign times the zero's sign, 0.0 / 0.0 is NaN, and
// isinf / isnan tell them apart. Four bands across the tile with numerators -1, 0,
// 1, 2; the left half of each band divides by zero, the right half by a positive
// ramp; the bottom half divides by +den, the top half by -den (a vec2 division), so
// the infinities change sign there.
in vec2 vUV;
out vec4 fragColor;

vec3 shade(float q) {
    if (isnan(q)) {
        return vec3(0.85, 0.2, 0.8);
    }
    if (isinf(q)) {
        return q > 0.0 ? vec3(1.0, 0.8, 0.15) : vec3(0.15, 0.55, 1.0);
    }
    return clamp(vec3(0.5 + 0.15 * q, 0.45, 0.5 - 0.15 * q), 0.0, 1.0);
}

void main() {
    float band = floor(vUV.x * 4.0);
    float num = band - 1.0;
    float den = step(0.5, fract(vUV.x * 4.0)) * (vUV.y + 0.25);
    vec2 q = vec2(num) / vec2(den, -den);
    fragColor = vec4(shade(vUV.y < 0.5 ? q.x : q.y), 1.0);
}
