#version 330 core
// Performance suite: a quad at depth aPos.z (NDC), uv = its NDC xy mapped to [0, 1].
layout(location = 0) in vec3 aPos;
out vec2 vUV;

void main() {
    vUV = aPos.xy * 0.5 + 0.5;
    gl_Position = vec4(aPos, 1.0);
}
