#version 330 core
// Linear blend skinning with two bones from a uniform mat4 array; the weight
// attribute also tints the vertex.
layout(location = 0) in vec3 aPos;
layout(location = 1) in float aWeight;

uniform mat4 uBones[2];
uniform mat4 uViewProj;

out vec3 vColor;

void main() {
    mat4 skin = uBones[0] * (1.0 - aWeight) + uBones[1] * aWeight;
    gl_Position = uViewProj * (skin * vec4(aPos, 1.0));
    vColor = mix(vec3(0.9, 0.4, 0.2), vec3(0.2, 0.5, 0.9), aWeight);
}
