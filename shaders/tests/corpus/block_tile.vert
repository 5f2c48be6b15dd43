#version 330 core
// Interface blocks (GLSL 1.50 §4.3.7): the tile's varyings go out as one block with an
// instance name, holding a vec2, a float array and a mat2 member.
layout(location = 0) in vec2 aPos;
layout(location = 1) in vec2 aUV;

out TileData {
    vec2 uv;
    float rings[3];
    mat2 turn;
} vsOut;

void main() {
    vsOut.uv = aUV;
    for (int i = 0; i < 3; ++i) {
        vsOut.rings[i] = 0.12 * float(i + 1) + 0.08 * aUV.x;
    }
    float a = 0.6;
    vsOut.turn = mat2(cos(a), sin(a), -sin(a), cos(a));
    gl_Position = vec4(aPos, 0.0, 1.0);
}
