#version 330 core
// A floor at y = 0 seen from an eye at height uCamera.y looking along -z: uv is
// uScale * (x, -z), perspective-correct.
layout(location = 0) in vec3 aPos;
uniform mat4 uMVP;
uniform float uScale;
out vec2 vUV;

void main() {
    vUV = uScale * vec2(aPos.x, -aPos.z);
    gl_Position = uMVP * vec4(aPos, 1.0);
}
