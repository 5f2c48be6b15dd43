#version 330 core
// 2D geometry in NDC; the colour is flat: each triangle takes its provoking vertex's.
layout(location = 0) in vec2 aPos;
layout(location = 1) in vec4 aColor;
flat out vec4 vColor;

void main() {
    vColor = aColor;
    gl_Position = vec4(aPos, 0.0, 1.0);
}
