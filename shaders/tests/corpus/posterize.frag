#version 330 core
// Posterization: a smooth image quantized to a few levels per channel with floor.
in vec2 vUV;
out vec4 fragColor;

uniform float uLevels;

void main() {
    vec3 c = vec3(vUV.x, vUV.y, 0.5 + 0.5 * sin(6.0 * (vUV.x + vUV.y)));
    vec3 q = floor(c * uLevels + 0.5) / uLevels;
    fragColor = vec4(q, 1.0);
}
