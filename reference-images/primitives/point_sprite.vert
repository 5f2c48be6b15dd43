#version 330 core
// Points sized per vertex (gl_PointSize, read with GL_PROGRAM_POINT_SIZE enabled).
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec4 aColor;
layout(location = 2) in float aSize;
out vec4 vColor;

void main() {
    vColor = aColor;
    gl_PointSize = aSize;
    gl_Position = vec4(aPos, 1.0);
}
