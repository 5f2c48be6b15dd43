#version 330 core
in vec2 vUV;
out vec4 c;
uniform sampler3D uTex;
void main() {
    c = texture(uTex, vec3(vUV, 0.1 + 0.8 * vUV.x * vUV.y));
}
