#version 330 core
// Cosine colour palettes, a + b·cos(2π(c·t + d)), one per horizontal band.
in vec2 vUV;
out vec4 fragColor;

vec3 palette(float t, vec3 a, vec3 b, vec3 c, vec3 d) {
    return a + b * cos(6.28318 * (c * t + d));
}

void main() {
    float t = vUV.x;
    vec3 col;
    if (vUV.y > 0.75) {
        col = palette(t, vec3(0.5), vec3(0.5), vec3(1.0), vec3(0.0, 0.33, 0.67));
    } else if (vUV.y > 0.5) {
        col = palette(t, vec3(0.5), vec3(0.5), vec3(1.0), vec3(0.0, 0.1, 0.2));
    } else if (vUV.y > 0.25) {
        col = palette(t, vec3(0.5), vec3(0.5), vec3(1.0, 1.0, 0.5), vec3(0.8, 0.9, 0.3));
    } else {
        col = palette(t, vec3(0.5), vec3(0.5), vec3(2.0, 1.0, 0.0), vec3(0.5, 0.2, 0.25));
    }
    fragColor = vec4(col, 1.0);
}
