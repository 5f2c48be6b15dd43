#version 330 core
// A radial vignette darkening a two-colour diagonal gradient.
in vec2 vUV;
out vec4 fragColor;

uniform float uStrength;

void main() {
    vec3 base = mix(vec3(0.2, 0.6, 0.8), vec3(0.9, 0.8, 0.5), (vUV.x + vUV.y) * 0.5);
    vec2 p = vUV - 0.5;
    p.x *= 1.3;
    float r = length(p);
    float vignette = 1.0 - uStrength * smoothstep(0.25, 0.75, r);
    fragColor = vec4(base * vignette, 1.0);
}
