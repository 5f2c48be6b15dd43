#version 330 core
in vec2 vUV;
out vec4 c;
uniform sampler2DRect uTex;
void main() {
    c = texture(uTex, vUV * vec2(6.0, 4.0));
}
