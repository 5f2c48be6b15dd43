#version 330 core
// Interfering ripples from several centres (a uniform vec2 array), each damped with
// distance, shading a water colour.
in vec2 vUV;
out vec4 fragColor;

uniform vec2 uCenters[3];
uniform float uTime;

void main() {
    float h = 0.0;
    for (int i = 0; i < uCenters.length(); i++) {
        float d = distance(vUV, uCenters[i]);
        h += sin(d * 40.0 - uTime * 3.0 + float(i)) / (1.0 + d * 8.0);
    }
    vec3 water = mix(vec3(0.0, 0.2, 0.35), vec3(0.6, 0.85, 1.0), 0.5 + 0.25 * h);
    fragColor = vec4(water, 1.0);
}
