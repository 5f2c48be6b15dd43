#version 330 core
// Colour by gl_PrimitiveID: the index of the primitive within its draw (GLSL 1.50
// §7.1), red its lowest two bits, green the next two, blue the two after.
in vec4 vColor;
out vec4 fragColor;

void main() {
    int id = gl_PrimitiveID;
    fragColor = vec4(float(id % 4) / 3.0, float((id / 4) % 4) / 3.0,
                     float((id / 16) % 4) / 3.0, 1.0) * 0.8 + 0.2 * vColor;
}
