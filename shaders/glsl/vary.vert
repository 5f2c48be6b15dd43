#version 330
// B §9 vary.vert: a vec3 colour attribute passed through.
layout(location = 0) in vec4 position;
layout(location = 1) in vec3 vertexColor;
out vec3 color;

void main() {
    color = vertexColor;
    gl_Position = position;
}
