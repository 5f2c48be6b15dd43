#version 330 core
in vec2 vUV;
out vec4 c;
uniform samplerCube uTex;
void main() {
    vec2 p = vUV * 2.0 - 1.0;
    float g = exp2(vUV.y * 5.0) / 32.0;
    c = textureGrad(uTex, vec3(p.x, p.y, 1.0 - 0.3 * p.x),
                    vec3(g, 0.0, 0.0), vec3(0.0, 0.5 * g, 0.25 * g));
}
