#version 330 core
// The ACES filmic curve as fitted by Narkowicz, on an exposure ramp of coloured bars.
in vec2 vUV;
out vec4 fragColor;

uniform float uExposure;

vec3 acesFilm(vec3 x) {
    const float a = 2.51;
    const float b = 0.03;
    const float c = 2.43;
    const float d = 0.59;
    const float e = 0.14;
    return clamp((x * (a * x + b)) / (x * (c * x + d) + e), 0.0, 1.0);
}

void main() {
    vec3 bars[4] = vec3[4](vec3(1.0, 0.2, 0.1), vec3(0.2, 1.0, 0.3), vec3(0.2, 0.4, 1.0), vec3(1.0));
    int row = int(vUV.y * 4.0);
    vec3 base = bars[row];
    float stops = vUV.x * 8.0 - 4.0;
    vec3 hdr = base * exp2(stops) * uExposure;
    vec3 ldr = acesFilm(hdr);
    fragColor = vec4(pow(ldr, vec3(1.0 / 2.2)), 1.0);
}
