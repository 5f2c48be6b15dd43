#version 330
// B §9 tri.vert: colour passed through, position unchanged.
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 color;
out vec4 vcolor;

void main() {
    vcolor = color;
    gl_Position = position;
}
