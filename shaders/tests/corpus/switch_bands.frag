#version 330 core
// A switch on a band index computed from the pixel: fallthrough that accumulates
// colour, two labels on one statement, a default in the middle, a break under an if,
// and a second switch that leaves some rows unchanged.
in vec2 vUV;
out vec4 fragColor;

void main() {
    int band = int(vUV.x * 8.0);
    int row = int(vUV.y * 4.0);
    vec3 col = vec3(0.1);
    switch (band) {
    case 0:
        col.r += 0.5;
    case 1:
        col.g += 0.4;
        break;
    case 2:
    case 3:
        col = vec3(0.2, 0.3, 0.9);
        if (row == 2) {
            break;
        }
        col.r = 0.8;
    default:
        col.b += 0.3;
        break;
    case 6:
        col = vec3(float(row) / 3.0, 0.7, 0.2);
    }
    switch (row) {
    case 0:
        col *= 0.6;
        break;
    case 3:
        col = 1.0 - col;
        break;
    }
    fragColor = vec4(col, 1.0);
}
