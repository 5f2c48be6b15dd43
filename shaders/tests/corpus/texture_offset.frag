#version 330 core
// textureOffset and its projective and explicit-level forms (GLSL 1.30 §8.7): the
// constant texel offset is added to the integer texel coordinates (u, v) before the
// wrap, in every filter and wrap mode. The left half of the tile samples uTex (5x3,
// a non-power-of-two size), the right half uPot (4x4); each draw of the scene binds
// both with one filter and wrap mode, and the coordinate runs from -0.25 to 1.25 so
// that every wrap shows. Rows from the bottom: textureOffset (1, -1); textureOffset
// (-8, 7) with a bias (the range's ends, more than a whole texture away);
// textureProjOffset (2, 3) averaged with textureProj; textureLodOffset (-3, 0). The colour is 3/4 of the rgb
// plus 1/4 of the alpha, so transparent texels show.
uniform sampler2D uTex;
uniform sampler2D uPot;
in vec2 vUV;
out vec4 fragColor;

void main() {
    bool right = vUV.x >= 0.5;
    vec2 p = vec2(fract(vUV.x * 2.0), fract(vUV.y * 4.0)) * 1.5 - 0.25;
    int row = int(vUV.y * 4.0);
    vec4 c;
    if (row == 0) {
        c = right ? textureOffset(uPot, p, ivec2(1, -1)) : textureOffset(uTex, p, ivec2(1, -1));
    } else if (row == 1) {
        const ivec2 far = ivec2(-8, 7);
        c = right ? textureOffset(uPot, p, far, 0.5) : textureOffset(uTex, p, far, 0.5);
    } else if (row == 2) {
        vec3 q = vec3(p * 2.0, 2.0);
        // Half textureProjOffset, half plain textureProj of the same coordinate.
        c = right ? textureProjOffset(uPot, q, ivec2(2, 3)) : textureProjOffset(uTex, q, ivec2(2, 3));
        c = 0.5 * c + 0.5 * (right ? textureProj(uPot, q) : textureProj(uTex, q));
    } else {
        c = right ? textureLodOffset(uPot, p, 0.0, ivec2(-3, 0))
                  : textureLodOffset(uTex, p, 0.0, ivec2(-3, 0));
    }
    fragColor = vec4(c.rgb * 0.75 + vec3(0.25) * c.a, 1.0);
}
