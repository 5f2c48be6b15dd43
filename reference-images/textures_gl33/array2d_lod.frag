#version 330 core
in vec2 vUV;
out vec4 c;
uniform sampler2DArray uTex;
void main() {
    c = textureLod(uTex, vec3(vUV, 1.0), floor(vUV.y * 4.0) * 0.75);
}
