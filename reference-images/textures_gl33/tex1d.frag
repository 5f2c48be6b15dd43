#version 330 core
in vec2 vUV;
out vec4 c;
uniform sampler1D uTex;
void main() {
    c = texture(uTex, vUV.x * 2.0 - 0.25) * (0.5 + 0.5 * vUV.y);
}
