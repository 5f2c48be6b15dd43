#version 330
// B §9 tex.frag: one sampler, SAMPLE.
in vec2 fragUV;
uniform sampler2D diffuseTexture;
out vec4 color;

void main() {
    color = texture(diffuseTexture, fragUV);
}
