#version 330 core
// A checkerboard from floor and mod, also across negative coordinates.
in vec2 vUV;
out vec4 fragColor;

uniform vec3 uColorA;
uniform vec3 uColorB;
uniform float uScale;

void main() {
    vec2 p = (vUV - 0.37) * uScale;
    float parity = mod(floor(p.x) + floor(p.y), 2.0);
    vec3 col = parity < 0.5 ? uColorA : uColorB;
    fragColor = vec4(col, 1.0);
}
