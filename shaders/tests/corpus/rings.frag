#version 330 core
// Concentric rings: sin of the distance, sharpened, fading towards the edge.
in vec2 vUV;
out vec4 fragColor;

uniform vec2 uCenter;
uniform float uPhase;

void main() {
    float r = distance(vUV, uCenter);
    float wave = sin(r * 60.0 - uPhase);
    float ring = smoothstep(-0.3, 0.3, wave);
    float fade = exp(-r * 2.5);
    vec3 col = mix(vec3(0.05, 0.1, 0.2), vec3(0.4, 0.8, 1.0), ring * fade);
    fragColor = vec4(col, 1.0);
}
