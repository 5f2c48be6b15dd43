#version 330 core
// Receives flat_int.vert's integers: the corner they came from follows from vBig, and
// the other two values must be exactly what that corner computed (magenta if not).
// The colour shows the bits themselves: the hash's top bytes and vBig's low byte.
flat in int vBig;
flat in uvec2 vBits;
in vec2 vUV;
uniform int uBase;
uniform uint uKey;
out vec4 fragColor;

void main() {
    int d = vBig - uBase;
    int corner = d / 3;
    bool exact = d >= 0 && d % 3 == 0 && vBits.x == uint(corner + 1) * uKey
        && vBits.y == 0x7FC00000u + uint(corner);
    vec3 col = vec3(float(vBits.x >> 24), float((vBits.x >> 16) & 0xFFu),
                    float((vBig & 0xFF) * 16)) / 255.0;
    if (!exact) {
        col = vec3(1.0, 0.0, 1.0);
    }
    // Smooth stripes across the quad keep the two flat halves from being uniform.
    col += step(0.5, fract(vUV.x * 8.0)) * 0.1;
    fragColor = vec4(col, 1.0);
}
