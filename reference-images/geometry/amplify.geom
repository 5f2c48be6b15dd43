#version 150
// Amplification: each input triangle comes out three times, shrunk toward its centre,
// shifted and tinted by its copy number and by gl_PrimitiveIDIn; the third copy is a
// four-vertex strip (the triangle and the reflection of its first corner), so the
// strip order of its two triangles shows (GL 3.2 §2.6.1).
layout(triangles) in;
layout(triangle_strip, max_vertices = 10) out;
in vec4 vColor[];
out vec4 gColor;
uniform vec2 shift;

void main() {
    vec4 centre = (gl_in[0].gl_Position + gl_in[1].gl_Position + gl_in[2].gl_Position) / 3.0;
    for (int k = 0; k < 3; k++) {
        float scale = 0.9 - 0.25 * float(k);
        vec4 offset = vec4(shift * float(k), 0.0, 0.0);
        vec4 tint = vec4(1.0 - 0.3 * float(k), 1.0, 0.6 + 0.4 * float(gl_PrimitiveIDIn), 1.0);
        for (int i = 0; i < 3; i++) {
            gl_Position = centre + (gl_in[i].gl_Position - centre) * scale + offset;
            gColor = vColor[i] * tint;
            EmitVertex();
        }
        if (k == 2) {
            vec4 a = gl_in[1].gl_Position + gl_in[2].gl_Position - gl_in[0].gl_Position;
            gl_Position = centre + (a - centre) * scale + offset;
            gColor = vec4(1.0, 1.0, 1.0, 1.0);
            EmitVertex();
        }
        EndPrimitive();
    }
}
