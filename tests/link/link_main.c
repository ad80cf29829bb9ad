/* An empty program: linked with one room's whole archive (tests/link/CMakeLists.txt), it
 * links only if every symbol the room uses comes from the room itself or from the rooms
 * and libraries it declares (docs/architecture.md, "Modules and dependencies"). */
int main(void) { return 0; }
