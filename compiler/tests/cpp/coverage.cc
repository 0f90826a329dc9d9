// Edge coverage for hostile.cc's fuzzer: the runtime and generated code are compiled with
// -fsanitize-coverage=trace-pc, which calls this at every edge; this file is not.

#include <cstddef>
#include <cstdint>

std::uint8_t g_edges[1 << 16];
std::uintptr_t g_previous = 0;

extern "C" void __sanitizer_cov_trace_pc() {
  const std::uintptr_t pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  const std::size_t edge = (pc ^ g_previous) % sizeof g_edges;
  if (g_edges[edge] != 255) ++g_edges[edge];
  g_previous = pc >> 1;
}
