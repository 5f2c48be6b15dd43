#version 330 core
// A multi-stop colour gradient: the stop pair chosen by a run-time index into const
// arrays, blended with smoothstep.
in vec2 vUV;
out vec4 fragColor;

const vec3 STOPS[4] = vec3[4](vec3(0.1, 0.05, 0.3), vec3(0.8, 0.2, 0.4), vec3(1.0, 0.7, 0.2), vec3(1.0, 1.0, 0.85));
const float POSITIONS[4] = float[](0.0, 0.35, 0.7, 1.0);

void main() {
    float t = clamp(vUV.x * 0.9 + vUV.y * 0.1, 0.0, 1.0);
    int i = t < POSITIONS[1] ? 0 : (t < POSITIONS[2] ? 1 : 2);
    float local = (t - POSITIONS[i]) / (POSITIONS[i + 1] - POSITIONS[i]);
    vec3 col = mix(STOPS[i], STOPS[i + 1], smoothstep(0.0, 1.0, local));
    fragColor = vec4(col, 1.0);
}
