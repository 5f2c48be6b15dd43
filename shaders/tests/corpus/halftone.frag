#version 330 core
// Halftone: a dot per cell whose radius follows the luminance of a smooth image.
in vec2 vUV;
out vec4 fragColor;

const vec3 LUMA = vec3(0.299, 0.587, 0.114);

vec3 image(vec2 uv) {
    return vec3(uv.x, 0.5 + 0.5 * sin(uv.y * 5.0), 1.0 - uv.x * uv.y);
}

void main() {
    const float cells = 14.0;
    vec2 cell = floor(vUV * cells);
    vec2 centre = (cell + 0.5) / cells;
    float lum = dot(image(centre), LUMA);
    float radius = 0.5 * sqrt(1.0 - lum);
    float d = length(fract(vUV * cells) - 0.5);
    float ink = 1.0 - smoothstep(radius - 0.06, radius + 0.06, d);
    fragColor = vec4(mix(vec3(0.98, 0.96, 0.9), vec3(0.1, 0.1, 0.2), ink), 1.0);
}
