#version 330 core
// Lines in clip space with a w per vertex, so that varyings along them are
// perspective-correct; a noperspective copy of the colour and a flat one.
layout(location = 0) in vec4 aPos;
layout(location = 1) in vec4 aColor;
out vec4 vSmooth;
noperspective out vec4 vLinear;
flat out vec4 vFlat;

void main() {
    vSmooth = aColor;
    vLinear = aColor;
    vFlat = aColor;
    gl_Position = aPos;
}
