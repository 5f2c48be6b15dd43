#version 330 core
in vec2 vUV;
out vec4 c;
uniform sampler2DArray uTex;
void main() {
    c = texture(uTex, vec3(vUV * 2.0, floor(vUV.x * 3.0)));
}
