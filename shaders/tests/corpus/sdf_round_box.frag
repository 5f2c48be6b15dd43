#version 330 core
// A rounded box (box distance minus a radius), rotated, with a drop shadow.
in vec2 vUV;
out vec4 fragColor;

uniform float uAngle;
uniform float uCorner;

float sdRoundBox(vec2 p, vec2 b, float r) {
    vec2 q = abs(p) - b + r;
    return min(max(q.x, q.y), 0.0) + length(max(q, 0.0)) - r;
}

void main() {
    vec2 p = vUV * 2.0 - 1.0;
    float c = cos(uAngle);
    float s = sin(uAngle);
    mat2 rot = mat2(c, -s, s, c);
    float d = sdRoundBox(rot * p, vec2(0.6, 0.4), uCorner);
    float shadow = sdRoundBox(rot * (p - vec2(0.06, -0.08)), vec2(0.6, 0.4), uCorner);
    vec3 col = vec3(0.93, 0.93, 0.9);
    col *= 1.0 - 0.35 * (1.0 - smoothstep(-0.05, 0.12, shadow));
    col = mix(col, vec3(0.2, 0.55, 0.45), 1.0 - smoothstep(-0.01, 0.01, d));
    fragColor = vec4(col, 1.0);
}
