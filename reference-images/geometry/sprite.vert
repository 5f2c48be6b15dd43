#version 150
// 2D points with a colour and a size for the sprite geometry shader.
in vec2 aPos;
in vec4 aColor;
in float aSize;
out vec4 vColor;
out float vSize;

void main() {
    vColor = aColor;
    vSize = aSize;
    gl_Position = vec4(aPos, 0.0, 1.0);
}
