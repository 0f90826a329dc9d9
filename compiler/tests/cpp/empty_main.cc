// Links the generated code of a schema into a program, so that every symbol it uses must
// resolve.
int main() { return 0; }
