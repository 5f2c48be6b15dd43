#version 330 core
in vec2 vUV;
out vec4 c;
uniform sampler2D uTex;
void main() {
    c = texture(uTex, vUV);
}
