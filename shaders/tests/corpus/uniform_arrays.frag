#version 330 core
// Uniform arrays with initializers and arrays of mat2: a palette of band colours and
// band weights that hold their initial values unless the scene sets them, and 2x2
// rotations (an array of mat2 set by the scene) that warp each band's stripes.
in vec2 vUV;
out vec4 fragColor;

uniform vec3 uBands[4] = vec3[4](vec3(0.9, 0.35, 0.2), vec3(0.95, 0.8, 0.3), vec3(0.3, 0.7, 0.45), vec3(0.25, 0.4, 0.85));
uniform float uWeights[4] = float[](1.0, 0.8, 0.6, 0.9);
uniform mat2 uTurn[2];
uniform float uScale = 10.0;

void main() {
    int band = int(vUV.y * 4.0);
    vec2 p = uTurn[band / 2] * (vUV - 0.5);
    float stripes = 0.5 + 0.5 * sin(p.x * uScale * float(band + 1));
    vec3 col = uBands[band] * uWeights[band] * (0.55 + 0.45 * stripes);
    fragColor = vec4(col, 1.0);
}
