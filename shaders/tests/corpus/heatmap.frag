#version 330 core
// A scalar field mapped to a heat ramp: the band from comparisons against
// thresholds (greaterThanEqual, a bvec4 turned into a vec4), then a blend.
in vec2 vUV;
out vec4 fragColor;

const vec3 RAMP[5] = vec3[5](vec3(0.0, 0.0, 0.3), vec3(0.0, 0.6, 0.9), vec3(0.2, 0.9, 0.2), vec3(1.0, 0.9, 0.0), vec3(0.9, 0.1, 0.0));

float field(vec2 p) {
    return 0.5 + 0.3 * sin(p.x * 5.0) * cos(p.y * 4.0) + 0.2 * (p.y - 0.5);
}

void main() {
    float t = clamp(field(vUV), 0.0, 0.999);
    vec4 above = vec4(greaterThanEqual(vec4(t), vec4(0.2, 0.4, 0.6, 0.8)));
    int band = int(dot(above, vec4(1.0)));
    float local = fract(t * 5.0);
    vec3 col = mix(RAMP[band], RAMP[min(band + 1, 4)], local * local);
    fragColor = vec4(col, 1.0);
}
