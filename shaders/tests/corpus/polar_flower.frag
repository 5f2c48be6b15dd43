#version 330 core
// A polar pattern: the angle from atan(y, x) shapes petals and colours them.
in vec2 vUV;
out vec4 fragColor;

uniform float uPetals;

const float PI = 3.14159265;

void main() {
    vec2 p = vUV * 2.0 - 1.0;
    float r = length(p);
    float a = atan(p.y, p.x);
    float petal = 0.45 + 0.25 * cos(a * uPetals);
    float shape = 1.0 - smoothstep(petal - 0.02, petal + 0.02, r);
    vec3 hue = 0.5 + 0.5 * cos(vec3(0.0, 2.0, 4.0) + a);
    vec3 col = mix(vec3(0.08), hue * (0.6 + 0.4 * r / petal), shape);
    float heart = 1.0 - smoothstep(0.08, 0.1, r);
    col = mix(col, vec3(1.0, 0.85, 0.2), heart);
    fragColor = vec4(col, 1.0);
}
