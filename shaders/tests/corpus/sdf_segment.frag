#version 330 core
// Distance to line segments (a polyline from a const array), drawn as capsules.
in vec2 vUV;
out vec4 fragColor;

const vec2 POINTS[5] = vec2[5](vec2(-0.8, -0.6), vec2(-0.4, 0.5), vec2(0.0, -0.2), vec2(0.4, 0.6), vec2(0.8, -0.5));

float sdSegment(vec2 p, vec2 a, vec2 b) {
    vec2 pa = p - a;
    vec2 ba = b - a;
    float h = clamp(dot(pa, ba) / dot(ba, ba), 0.0, 1.0);
    return length(pa - ba * h);
}

void main() {
    vec2 p = vUV * 2.0 - 1.0;
    float d = 10.0;
    for (int i = 0; i < POINTS.length() - 1; i++) {
        d = min(d, sdSegment(p, POINTS[i], POINTS[i + 1]));
    }
    float line = 1.0 - smoothstep(0.04, 0.06, d);
    vec3 col = mix(vec3(0.1, 0.12, 0.1), vec3(0.4, 1.0, 0.5), line);
    col += vec3(0.0, 0.15, 0.05) * exp(-d * 12.0);
    fragColor = vec4(col, 1.0);
}
