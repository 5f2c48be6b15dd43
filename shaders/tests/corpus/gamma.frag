#version 330 core
// Linear to display encodings, in three bands: the 1/2.2 power curve, the exact sRGB
// curve (selected per channel by mix with a bvec), and the raw linear ramp.
in vec2 vUV;
out vec4 fragColor;

vec3 linearToSrgb(vec3 c) {
    vec3 lo = c * 12.92;
    vec3 hi = 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055;
    return mix(lo, hi, greaterThan(c, vec3(0.0031308)));
}

void main() {
    vec3 linear = vec3(vUV.x, vUV.x * vUV.x, 0.5 * vUV.x);
    vec3 col;
    if (vUV.y > 0.66) {
        col = pow(linear, vec3(1.0 / 2.2));
    } else if (vUV.y > 0.33) {
        col = linearToSrgb(linear);
    } else {
        col = linear;
    }
    fragColor = vec4(col, 1.0);
}
