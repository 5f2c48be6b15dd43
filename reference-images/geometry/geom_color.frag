#version 150
// The colour the geometry shader emitted with each vertex.
in vec4 gColor;
out vec4 fragColor;

void main() {
    fragColor = gColor;
}
