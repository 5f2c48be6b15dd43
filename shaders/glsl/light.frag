#version 330
// B §9 light.frag: normalize, dot, max, scalar broadcast.
in vec3 vN;
in vec3 vP;
uniform vec3 lightPosition;
uniform vec3 lightColor;
uniform vec3 ambientColor;
out vec4 fragColor;

void main() {
    vec3 N = normalize(vN);
    vec3 L = normalize(lightPosition - vP);
    float diffuse = max(dot(N, L), 0.0);
    fragColor = vec4(ambientColor + diffuse * lightColor, 1.0);
}
