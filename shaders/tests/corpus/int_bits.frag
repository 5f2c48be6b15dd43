#version 330 core
// 32-bit integers (issue 15): a uint hash of the pixel's cell (wrapping multiplies,
// xor-shifts), colour channels picked out with masks and shifts, signed division of
// negative numbers (toward zero), % (on non-negative operands: GLSL leaves it
// undefined on negative ones), an int uniform near 2^31 that wraps, and a float's
// bit pattern read as a uint.
out vec4 fragColor;
uniform uint uSeed;
uniform int uBig;

uint hash(uint x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

void main() {
    ivec2 pixel = ivec2(gl_FragCoord.xy) % 128;
    uvec2 cell = uvec2(pixel) >> 3u;
    uint h = hash(cell.x + (cell.y << 8) + uSeed);
    vec3 col = vec3(float(h & 0xFFu), float((h >> 8) & 0xFFu), float(h >> 24)) / 255.0;
    int x = pixel.x - 64;
    int q = x / 5;
    if (pixel.x % 5 == 0) {
        col = col.gbr;
    }
    if (((uBig + pixel.y) & 1) == 0 && q < -3) {
        col.b = 1.0 - col.b;
    }
    uint bits = floatBitsToUint(float(pixel.x) / 128.0 + 1.0);
    if ((bits >> 23) != 127u || ~bits == 0u) {
        col = vec3(1.0, 0.0, 1.0);
    }
    fragColor = vec4(col, 1.0);
}
