#version 330 core
in vec2 vUV;
out vec4 c;
uniform sampler3D uTex;
void main() {
    float g = exp2(vUV.y * 5.0) / 32.0;
    c = textureGrad(uTex, vec3(vUV, 0.5 * vUV.x + 0.25),
                    vec3(g, 0.0, 0.0), vec3(0.0, 0.25 * g, 0.5 * g));
}
