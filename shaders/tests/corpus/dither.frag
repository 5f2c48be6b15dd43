#version 330 core
// Ordered dithering: a 4x4 Bayer threshold matrix (a const array indexed at run time
// with mod of the pixel position) quantizes a smooth gradient to two levels per channel.
in vec2 vUV;
out vec4 fragColor;

const float BAYER[16] = float[16](
    0.0, 8.0, 2.0, 10.0,
    12.0, 4.0, 14.0, 6.0,
    3.0, 11.0, 1.0, 9.0,
    15.0, 7.0, 13.0, 5.0);

void main() {
    vec2 cell = mod(floor(gl_FragCoord.xy), 4.0);
    int index = int(cell.x) + 4 * int(cell.y);
    float threshold = (BAYER[index] + 0.5) / 16.0;
    vec3 value = vec3(vUV.x, vUV.y, 1.0 - vUV.x) * 0.98 + 0.01;
    vec3 bits = step(vec3(threshold), value);
    fragColor = vec4(bits, 1.0);
}
