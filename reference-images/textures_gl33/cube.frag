#version 330 core
in vec2 vUV;
out vec4 c;
uniform samplerCube uTex;
void main() {
    vec2 p = vUV * 4.0 - 2.0;
    c = texture(uTex, vec3(p.x, p.y, 1.0 - 0.3 * p.x));
}
