/*
 * cuda_runner: runs one launch plan (interp/src/launch/plan.rs) on GPU 0 through the CUDA driver
 * API and writes the output buffers as raw little-endian bytes, like `ptxas-rs run --out`.
 *
 *   cuda_runner PLAN_DIR OUT_DIR
 *
 * PLAN_DIR holds launch.txt, kernel.cubin and in_<buffer>.bin. OUT_DIR receives <buffer>.bin for
 * every output buffer and `status` (one line: "ok", or the failing call and the driver's error
 * name). Exit status 0 on success, 1 on a driver error, 2 on a bad plan.
 *
 * libcuda.so.1 is opened with dlopen and the few entry points are declared here, so the runner
 * builds with a plain C compiler on a machine without the CUDA toolkit (it only runs where a
 * driver is installed). Each plan runs in its own process, so a kernel that faults cannot
 * poison the next one's context.
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext;
typedef void *CUmodule;
typedef void *CUfunction;
typedef void *CUstream;
typedef unsigned long long CUdeviceptr;

typedef struct {
    int id; /* CUlaunchAttributeID */
    char pad[8 - sizeof(int)];
    union {
        char raw[64];
        struct {
            unsigned x, y, z;
        } cluster_dim;
    } value;
} CUlaunchAttribute;

typedef struct {
    unsigned grid_x, grid_y, grid_z, block_x, block_y, block_z, shared_bytes;
    CUstream stream;
    CUlaunchAttribute *attrs;
    unsigned num_attrs;
} CUlaunchConfig;

enum { CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8 };

static CUresult (*cuInit)(unsigned);
static CUresult (*cuDeviceGet)(CUdevice *, int);
static CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
static CUresult (*cuCtxSetCurrent)(CUcontext);
static CUresult (*cuModuleLoadData)(CUmodule *, const void *);
static CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
static CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
static CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
static CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
static CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
static CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                  CUstream, void **, void **);
static CUresult (*cuLaunchKernelEx)(const CUlaunchConfig *, CUfunction, void **, void **);
static CUresult (*cuCtxSynchronize)(void);
static CUresult (*cuGetErrorName)(CUresult, const char **);

static const char *out_dir;

static void finish(int code, const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char path[4096];
    snprintf(path, sizeof path, "%s/status", out_dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "%s\n", msg);
        fclose(f);
    }
    if (code) fprintf(stderr, "cuda_runner: %s\n", msg);
    exit(code);
}

static void check(CUresult r, const char *what) {
    if (r == 0) return;
    const char *name = "?";
    if (cuGetErrorName) cuGetErrorName(r, &name);
    finish(1, "error %s: %s (%d)", what, name, r);
}

static void *sym(void *lib, const char *name) {
    void *p = dlsym(lib, name);
    if (!p) finish(1, "error dlsym %s", name);
    return p;
}

static void *read_file(const char *dir, const char *name, size_t *len) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) finish(2, "plan: cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *buf = malloc(n > 0 ? (size_t)n : 1);
    if (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) finish(2, "plan: short read of %s", path);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

#define MAX_ITEMS 64

struct buffer {
    char name[256];
    size_t bytes;
    int output;
    CUdeviceptr ptr;
};

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: cuda_runner PLAN_DIR OUT_DIR\n");
        return 2;
    }
    const char *plan = argv[1];
    out_dir = argv[2];

    char kernel[256] = "";
    unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1}, cluster[3] = {1, 1, 1}, shared = 0;
    struct buffer bufs[MAX_ITEMS];
    int nbufs = 0;
    unsigned char *param_bytes[MAX_ITEMS];
    int param_buf[MAX_ITEMS];
    int nparams = 0;

    size_t mlen;
    char *manifest = read_file(plan, "launch.txt", &mlen);
    manifest = realloc(manifest, mlen + 1);
    manifest[mlen] = 0;
    for (char *line = strtok(manifest, "\n"); line; line = strtok(NULL, "\n")) {
        char word[64], arg[4096];
        if (sscanf(line, "%63s %4095s", word, arg) < 1) continue;
        if (!strcmp(word, "kernel")) {
            snprintf(kernel, sizeof kernel, "%s", arg);
        } else if (!strcmp(word, "grid")) {
            sscanf(line, "grid %u %u %u", &grid[0], &grid[1], &grid[2]);
        } else if (!strcmp(word, "block")) {
            sscanf(line, "block %u %u %u", &block[0], &block[1], &block[2]);
        } else if (!strcmp(word, "cluster")) {
            sscanf(line, "cluster %u %u %u", &cluster[0], &cluster[1], &cluster[2]);
        } else if (!strcmp(word, "shared")) {
            sscanf(line, "shared %u", &shared);
        } else if (!strcmp(word, "buffer")) {
            if (nbufs == MAX_ITEMS) finish(2, "plan: too many buffers");
            struct buffer *b = &bufs[nbufs++];
            unsigned long long bytes;
            if (sscanf(line, "buffer %255s %llu %d", b->name, &bytes, &b->output) != 3) finish(2, "plan: bad line `%s`", line);
            b->bytes = (size_t)bytes;
        } else if (!strcmp(word, "param")) {
            if (nparams == MAX_ITEMS) finish(2, "plan: too many params");
            param_buf[nparams] = -1;
            param_bytes[nparams] = NULL;
            if (arg[0] == '@') {
                for (int i = 0; i < nbufs; i++)
                    if (!strcmp(bufs[i].name, arg + 1)) param_buf[nparams] = i;
                if (param_buf[nparams] < 0) finish(2, "plan: unknown buffer `%s`", arg + 1);
            } else {
                size_t n = strlen(arg) / 2;
                unsigned char *p = calloc(n + 8, 1);
                for (size_t i = 0; i < n; i++) sscanf(arg + 2 * i, "%2hhx", &p[i]);
                param_bytes[nparams] = p;
            }
            nparams++;
        } else {
            finish(2, "plan: unknown directive `%s`", word);
        }
    }
    if (!kernel[0]) finish(2, "plan: no kernel");

    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib) finish(1, "error dlopen libcuda.so.1: %s", dlerror());
    cuGetErrorName = sym(lib, "cuGetErrorName");
    cuInit = sym(lib, "cuInit");
    cuDeviceGet = sym(lib, "cuDeviceGet");
    cuDevicePrimaryCtxRetain = sym(lib, "cuDevicePrimaryCtxRetain");
    cuCtxSetCurrent = sym(lib, "cuCtxSetCurrent");
    cuModuleLoadData = sym(lib, "cuModuleLoadData");
    cuModuleGetFunction = sym(lib, "cuModuleGetFunction");
    cuFuncSetAttribute = sym(lib, "cuFuncSetAttribute");
    cuMemAlloc = sym(lib, "cuMemAlloc_v2");
    cuMemcpyHtoD = sym(lib, "cuMemcpyHtoD_v2");
    cuMemcpyDtoH = sym(lib, "cuMemcpyDtoH_v2");
    cuLaunchKernel = sym(lib, "cuLaunchKernel");
    cuLaunchKernelEx = sym(lib, "cuLaunchKernelEx");
    cuCtxSynchronize = sym(lib, "cuCtxSynchronize");

    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction fn;
    check(cuInit(0), "cuInit");
    check(cuDeviceGet(&dev, 0), "cuDeviceGet");
    check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
    check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
    size_t clen;
    void *cubin = read_file(plan, "kernel.cubin", &clen);
    check(cuModuleLoadData(&mod, cubin), "cuModuleLoadData");
    check(cuModuleGetFunction(&fn, mod, kernel), "cuModuleGetFunction");
    if (shared > 48 * 1024)
        check(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)shared), "cuFuncSetAttribute");

    for (int i = 0; i < nbufs; i++) {
        char name[300];
        size_t n;
        snprintf(name, sizeof name, "in_%s.bin", bufs[i].name);
        void *init = read_file(plan, name, &n);
        if (n != bufs[i].bytes) finish(2, "plan: %s has %zu bytes, expected %zu", name, n, bufs[i].bytes);
        check(cuMemAlloc(&bufs[i].ptr, n ? n : 1), "cuMemAlloc");
        if (n) check(cuMemcpyHtoD(bufs[i].ptr, init, n), "cuMemcpyHtoD");
        free(init);
    }
    void *args[MAX_ITEMS];
    for (int i = 0; i < nparams; i++)
        args[i] = param_buf[i] >= 0 ? (void *)&bufs[param_buf[i]].ptr : (void *)param_bytes[i];

    if (cluster[0] * cluster[1] * cluster[2] > 1) {
        CUlaunchAttribute attr;
        memset(&attr, 0, sizeof attr);
        attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
        attr.value.cluster_dim.x = cluster[0];
        attr.value.cluster_dim.y = cluster[1];
        attr.value.cluster_dim.z = cluster[2];
        CUlaunchConfig cfg = {grid[0], grid[1], grid[2], block[0], block[1], block[2], shared, NULL, &attr, 1};
        check(cuLaunchKernelEx(&cfg, fn, args, NULL), "cuLaunchKernelEx");
    } else {
        check(cuLaunchKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], shared, NULL, args, NULL),
              "cuLaunchKernel");
    }
    check(cuCtxSynchronize(), "kernel execution");

    for (int i = 0; i < nbufs; i++) {
        if (!bufs[i].output) continue;
        void *host = malloc(bufs[i].bytes ? bufs[i].bytes : 1);
        check(cuMemcpyDtoH(host, bufs[i].ptr, bufs[i].bytes), "cuMemcpyDtoH");
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.bin", out_dir, bufs[i].name);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(host, 1, bufs[i].bytes, f) != bufs[i].bytes) finish(1, "error writing %s", path);
        fclose(f);
        free(host);
    }
    finish(0, "ok");
    return 0;
}
