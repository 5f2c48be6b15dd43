#version 330 core
// The floor of floor.vert with plain texture(): the level of detail comes from the
// quad's derivatives of vUV.
in vec2 vUV;
uniform sampler2D uTex;
out vec4 fragColor;

void main() {
    fragColor = texture(uTex, vUV);
}
