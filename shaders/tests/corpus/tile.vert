#version 330 core
// Pass-through for the corpus tiles: a quad in NDC with its own 0..1 coordinates.
layout(location = 0) in vec2 aPos;
layout(location = 1) in vec2 aUV;

out vec2 vUV;

void main() {
    vUV = aUV;
    gl_Position = vec4(aPos, 0.0, 1.0);
}
