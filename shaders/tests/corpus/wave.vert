#version 330 core
// A grid displaced by travelling waves (directions from a uniform array), projected
// by a view-projection matrix; the height becomes the vertex colour.
layout(location = 0) in vec2 aGrid;

uniform mat4 uViewProj;
uniform vec2 uWaveDir[2];
uniform float uTime;

out vec3 vColor;

void main() {
    float height = 0.0;
    for (int i = 0; i < 2; i++) {
        float phase = dot(aGrid, uWaveDir[i]) * 6.0 + uTime * float(i + 1);
        height += 0.08 * sin(phase);
    }
    vec4 world = vec4(aGrid.x, height, aGrid.y, 1.0);
    gl_Position = uViewProj * world;
    float t = clamp(height * 4.0 + 0.5, 0.0, 1.0);
    vColor = mix(vec3(0.05, 0.2, 0.5), vec3(0.7, 0.9, 1.0), t);
}
