#version 330 core
// Integers through flat varyings (GLSL 1.30 §4.3.6: an integer fragment input must be
// `flat`). Each corner sends an int above float's exact range (2^24 + 1 and up, which
// a float would round) and two uints, one of them a NaN bit pattern; the fragment
// shader receives the provoking (last) vertex's bits unchanged.
layout(location = 0) in vec2 aPos;     // the corner in NDC
layout(location = 1) in float aCorner; // 0, 1, 2, 3
uniform int uBase;                     // 16777217 in the scene
uniform uint uKey;

flat out int vBig;
flat out uvec2 vBits;
out vec2 vUV;

void main() {
    int corner = int(aCorner);
    vBig = uBase + corner * 3;
    vBits = uvec2(uint(corner + 1) * uKey, 0x7FC00000u + uint(corner));
    vUV = aPos * 0.5 + 0.5;
    gl_Position = vec4(aPos, 0.0, 1.0);
}
