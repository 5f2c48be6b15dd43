#version 330 core
// Cellular (Voronoi) noise: one jittered feature point per cell, the distance to the
// nearest of the 3x3 neighbourhood found with nested loops.
in vec2 vUV;
out vec4 fragColor;

uniform float uJitter;

vec2 hash2(vec2 p) {
    vec2 q = vec2(dot(p, vec2(12.71, 31.17)), dot(p, vec2(26.95, 18.33)));
    return fract(sin(q) * 43.7585);
}

void main() {
    vec2 p = vUV * 5.0;
    vec2 cell = floor(p);
    vec2 local = fract(p);
    float nearest = 8.0;
    for (int j = -1; j <= 1; j++) {
        for (int i = -1; i <= 1; i++) {
            vec2 offset = vec2(float(i), float(j));
            vec2 feature = offset + 0.5 + uJitter * (hash2(cell + offset) - 0.5);
            nearest = min(nearest, length(feature - local));
        }
    }
    vec3 col = vec3(0.95, 0.75, 0.4) * (1.0 - nearest) + vec3(0.1, 0.15, 0.3) * nearest;
    col *= 0.7 + 0.3 * smoothstep(0.02, 0.06, nearest);
    fragColor = vec4(col, 1.0);
}
