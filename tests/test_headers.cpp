// The program metalcpu_test_headers exists for its precompiled header (GoogleTest and
// GoogleMock), which every test program reuses: tests/CMakeLists.txt says why.
int main() { return 0; }
