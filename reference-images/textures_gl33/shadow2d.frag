#version 330 core
in vec2 vUV;
out vec4 c;
uniform sampler2DShadow uTex;
void main() {
    float s = texture(uTex, vec3(vUV, 0.2 + 0.6 * vUV.y));
    c = vec4(s, s * 0.5, 1.0 - s, 1.0);
}
