// devquery: describe CUDA device 0 as one JSON object, for gpu-check.
//
//   {"name": "NVIDIA H100 80GB HBM3", "cc": "9.0", "sm_count": 132,
//    "mem_clock_khz": 2619000, "bus_width_bits": 5120, "peak_gbps": 3352.320}
//
// Every number comes from cudaDeviceGetAttribute: CUDA 13 removed
// memoryClockRate and memoryBusWidth from cudaDeviceProp, and the attribute
// calls are what the remaining fields are defined by anyway. Only the name
// is taken from cudaGetDeviceProperties, which still carries it.
//
// The theoretical peak is 2 x memory clock x bus width in bytes: the clock
// the driver reports is the I/O clock and data moves on both of its edges
// (GDDR6X and HBM3 included; the figure matches the datasheets).
//
// Exit status: 0 described; 77 (the automake skip code) when no GPU can be
// used here, with a one-line reason on stderr; 99 instead of 77 when the
// environment says REQUIRE_GPU=1 (a runner that must have one); 1 when a
// GPU is there but a query failed.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

static const int kExitSkip = 77;
static const int kExitHardError = 99;

static bool gpuRequired() {
    const char* v = std::getenv("REQUIRE_GPU");
    return v != nullptr && std::strcmp(v, "1") == 0;
}

// No usable GPU is not this program's failure: say why in one line and
// skip, unless the caller demanded a GPU.
static int noGpu(const char* why) {
    bool required = gpuRequired();
    std::fprintf(stderr, "devquery: no usable GPU: %s%s\n", why,
                 required ? " (REQUIRE_GPU=1: failing)" : "");
    return required ? kExitHardError : kExitSkip;
}

// The errors cudaGetDeviceCount returns on a machine that simply has no GPU
// or no working driver; anything else is a real failure worth exit 1.
static bool meansNoGpu(cudaError_t err) {
    switch (err) {
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorStubLibrary:
        return true;
    default:
        return false;
    }
}

static bool attr(int* out, cudaDeviceAttr what, const char* label) {
    cudaError_t err = cudaDeviceGetAttribute(out, what, 0);
    if (err != cudaSuccess) {
        std::fprintf(stderr, "devquery: cannot read %s of device 0: %s\n",
                     label, cudaGetErrorString(err));
        return false;
    }
    return true;
}

// Device names are plain ASCII in practice; escape anyway so the output is
// always valid JSON.
static void printJsonString(const char* s) {
    std::putchar('"');
    for (; *s != '\0'; ++s) {
        unsigned char c = static_cast<unsigned char>(*s);
        if (c == '"' || c == '\\') {
            std::printf("\\%c", c);
        } else if (c < 0x20) {
            std::printf("\\u%04x", c);
        } else {
            std::putchar(c);
        }
    }
    std::putchar('"');
}

int main() {
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (meansNoGpu(err)) {
        char why[160];
        std::snprintf(why, sizeof(why), "%s (%s)", cudaGetErrorName(err),
                      cudaGetErrorString(err));
        return noGpu(why);
    }
    if (err != cudaSuccess) {
        std::fprintf(stderr, "devquery: cudaGetDeviceCount failed: %s: %s\n",
                     cudaGetErrorName(err), cudaGetErrorString(err));
        return gpuRequired() ? kExitHardError : 1;
    }
    if (count == 0) {
        return noGpu("the driver reports 0 CUDA devices");
    }

    cudaDeviceProp prop;
    err = cudaGetDeviceProperties(&prop, 0);
    if (err != cudaSuccess) {
        std::fprintf(stderr, "devquery: cannot read properties of device 0: %s\n",
                     cudaGetErrorString(err));
        return 1;
    }
    int major = 0, minor = 0, sms = 0, clockKhz = 0, busBits = 0;
    if (!attr(&major, cudaDevAttrComputeCapabilityMajor, "compute capability") ||
        !attr(&minor, cudaDevAttrComputeCapabilityMinor, "compute capability") ||
        !attr(&sms, cudaDevAttrMultiProcessorCount, "SM count") ||
        !attr(&clockKhz, cudaDevAttrMemoryClockRate, "memory clock") ||
        !attr(&busBits, cudaDevAttrGlobalMemoryBusWidth, "bus width")) {
        return 1;
    }
    // kHz * 1e3 = transfers per edge per second; x2 edges; x bytes per
    // transfer; / 1e9 for GB/s (decimal, as the datasheets and coalescing.cu
    // both count).
    double peak = 2.0 * static_cast<double>(clockKhz) * 1.0e3 *
                  (static_cast<double>(busBits) / 8.0) / 1.0e9;

    std::printf("{\"name\": ");
    printJsonString(prop.name);
    std::printf(", \"cc\": \"%d.%d\", \"sm_count\": %d, \"mem_clock_khz\": %d, "
                "\"bus_width_bits\": %d, \"peak_gbps\": %.3f}\n",
                major, minor, sms, clockKhz, busBits, peak);
    return std::fflush(stdout) == 0 ? 0 : 1;
}
