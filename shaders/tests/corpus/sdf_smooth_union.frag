#version 330 core
// Two circles blended by the polynomial smooth minimum, next to their hard union.
in vec2 vUV;
out vec4 fragColor;

uniform float uK;

float smin(float a, float b, float k) {
    float h = clamp(0.5 + 0.5 * (b - a) / k, 0.0, 1.0);
    return mix(b, a, h) - k * h * (1.0 - h);
}

void main() {
    vec2 p = vUV * 2.0 - 1.0;
    float a = length(p - vec2(-0.3, 0.1)) - 0.35;
    float b = length(p - vec2(0.3, -0.1)) - 0.3;
    float d = p.y > 0.0 ? smin(a, b, uK) : min(a, b);
    float inside = 1.0 - smoothstep(-0.01, 0.01, d);
    vec3 col = mix(vec3(0.1, 0.1, 0.15), vec3(0.95, 0.55, 0.75), inside);
    col += vec3(0.15) * (1.0 - smoothstep(0.0, 0.02, abs(d)));
    fragColor = vec4(col, 1.0);
}
