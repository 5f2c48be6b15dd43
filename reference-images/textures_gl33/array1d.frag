#version 330 core
in vec2 vUV;
out vec4 c;
uniform sampler1DArray uTex;
void main() {
    c = texture(uTex, vec2(vUV.x, vUV.y * 4.0 - 0.5));
}
