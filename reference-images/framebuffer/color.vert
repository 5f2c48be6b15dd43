#version 330 core
// Geometry in NDC with its depth; smooth colour.
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec4 aColor;
out vec4 vColor;

void main() {
    vColor = aColor;
    gl_Position = vec4(aPos, 1.0);
}
