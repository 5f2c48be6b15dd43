#version 330 core
// Value noise from a sin/fract hash, smoothly interpolated, summed over octaves (fBm).
// The hash keeps its multiplier small so that it stays well conditioned.
in vec2 vUV;
out vec4 fragColor;

uniform vec2 uOffset;

#define OCTAVES 3
#define LACUNARITY 2.0

float hash(vec2 p) {
    return fract(sin(dot(p, vec2(12.9898, 4.1414))) * 43.7585);
}

float noise(vec2 p) {
    vec2 i = floor(p);
    vec2 f = fract(p);
    vec2 u = f * f * (3.0 - 2.0 * f);
    float a = hash(i);
    float b = hash(i + vec2(1.0, 0.0));
    float c = hash(i + vec2(0.0, 1.0));
    float d = hash(i + vec2(1.0, 1.0));
    return mix(mix(a, b, u.x), mix(c, d, u.x), u.y);
}

void main() {
    vec2 p = vUV * 5.0 + uOffset;
    float v = 0.0;
    float amp = 0.5;
    for (int octave = 0; octave < OCTAVES; octave++) {
        v += amp * noise(p);
        p = p * LACUNARITY + vec2(1.7, 9.2);
        amp *= 0.5;
    }
    vec3 col = mix(vec3(0.1, 0.2, 0.4), vec3(0.95, 0.85, 0.7), v);
    fragColor = vec4(col, 1.0);
}
