/*
 * A C client of libnvptxcompiler_rs, built and run by capi/tests/c_api.rs.
 *
 *   driver compile PTX OUT OPTION...     compile PTX; write OUT.cubin (on success), OUT.err and
 *                                        OUT.info (the logs); print "result N"
 *   driver codes PTX                     print "<path> <result>" for every result-code path
 *   driver threads PTX N OUT OPTION...   compile PTX on N threads at once, each with its own
 *                                        handle; write thread 0's OUT.cubin; print "identical N"
 *                                        or "differ I"
 *
 * The PTX is read into a buffer of exactly its length, without a terminating NUL. Exit status:
 * 0 when the calls behaved consistently (sizes agree with the copied logs), 2 otherwise.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvPTXCompiler.h"

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(2); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc(n > 0 ? (size_t)n : 1);
    if (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) { perror(path); exit(2); }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void write_file(const char *prefix, const char *ext, const void *data, size_t len) {
    char path[4096];
    snprintf(path, sizeof path, "%s.%s", prefix, ext);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len) { perror(path); exit(2); }
    fclose(f);
}

/* The log through its Size/Get pair; exits 2 if they disagree. */
static char *get_log(nvPTXCompilerHandle h, int info) {
    size_t size = 0;
    nvPTXCompileResult r = info ? nvPTXCompilerGetInfoLogSize(h, &size) : nvPTXCompilerGetErrorLogSize(h, &size);
    if (r != NVPTXCOMPILE_SUCCESS || size == 0) { fprintf(stderr, "log size: %d %zu\n", r, size); exit(2); }
    char *log = malloc(size);
    memset(log, 'x', size);
    r = info ? nvPTXCompilerGetInfoLog(h, log) : nvPTXCompilerGetErrorLog(h, log);
    if (r != NVPTXCOMPILE_SUCCESS || log[size - 1] != 0 || strlen(log) + 1 != size) {
        fprintf(stderr, "log: %d, size %zu, strlen %zu\n", r, size, strlen(log));
        exit(2);
    }
    return log;
}

/* The compiled program, or NULL with *result set. */
static unsigned char *get_program(nvPTXCompilerHandle h, size_t *len, nvPTXCompileResult *result) {
    *result = nvPTXCompilerGetCompiledProgramSize(h, len);
    if (*result != NVPTXCOMPILE_SUCCESS) return NULL;
    unsigned char *image = malloc(*len ? *len : 1);
    *result = nvPTXCompilerGetCompiledProgram(h, image);
    return image;
}

static int cmd_compile(const char *ptx_path, const char *out, int n, const char *const *opts) {
    size_t len;
    char *ptx = read_file(ptx_path, &len);
    nvPTXCompilerHandle h = NULL;
    if (nvPTXCompilerCreate(&h, len, ptx) != NVPTXCOMPILE_SUCCESS) return 2;
    free(ptx);
    nvPTXCompileResult r = nvPTXCompilerCompile(h, n, opts);
    printf("result %d\n", r);
    char *err = get_log(h, 0), *info = get_log(h, 1);
    write_file(out, "err", err, strlen(err));
    write_file(out, "info", info, strlen(info));
    size_t size;
    nvPTXCompileResult pr;
    unsigned char *image = get_program(h, &size, &pr);
    if ((r == NVPTXCOMPILE_SUCCESS) != (pr == NVPTXCOMPILE_SUCCESS)) return 2;
    if (image && pr == NVPTXCOMPILE_SUCCESS) write_file(out, "cubin", image, size);
    if (!image && pr != NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE) return 2;
    free(image);
    free(err);
    free(info);
    if (nvPTXCompilerDestroy(&h) != NVPTXCOMPILE_SUCCESS || h != NULL) return 2;
    return 0;
}

static int cancel_always(void *payload, void *reserved) {
    ++*(int *)payload;
    return reserved == NULL ? 1 : 0;
}

static int cmd_codes(const char *ptx_path) {
    size_t len, size;
    char *ptx = read_file(ptx_path, &len);
    unsigned major = 0, minor = 0;
    char log[8];
    nvPTXCompilerHandle h = NULL, null_handle = NULL;
    const char *good[] = {"--gpu-name=sm_90"};
    const char *bad_option[] = {"--gpu-name=sm_90", "--bad-option"};
    const char *null_option[] = {"--gpu-name=sm_90", NULL};

    nvPTXCompileResult r = nvPTXCompilerGetVersion(&major, &minor); /* before reading them */
    printf("version %d %u.%u\n", r, major, minor);
    printf("version_null %d\n", nvPTXCompilerGetVersion(NULL, &minor));
    int nversions = 0;
    r = nvPTXCompilerGetNumSupportedVersions(&nversions);
    int (*versions)[2] = calloc((size_t)nversions, sizeof *versions);
    nvPTXCompileResult r2 = nvPTXCompilerGetSupportedVersions(versions);
    printf("supported_versions %d %d", r, r2);
    for (int i = 0; i < nversions; i++) printf(" %d.%d", versions[i][0], versions[i][1]);
    printf("\n");
    free(versions);
    printf("supported_versions_null %d %d\n", nvPTXCompilerGetNumSupportedVersions(NULL), nvPTXCompilerGetSupportedVersions(NULL));
    printf("create_null_handle %d\n", nvPTXCompilerCreate(NULL, len, ptx));
    printf("create_null_code %d\n", nvPTXCompilerCreate(&h, len, NULL));
    printf("compile_null_handle %d\n", nvPTXCompilerCompile(NULL, 1, good));
    printf("size_null_handle %d\n", nvPTXCompilerGetCompiledProgramSize(NULL, &size));
    printf("program_null_handle %d\n", nvPTXCompilerGetCompiledProgram(NULL, log));
    printf("error_log_size_null_handle %d\n", nvPTXCompilerGetErrorLogSize(NULL, &size));
    printf("error_log_null_handle %d\n", nvPTXCompilerGetErrorLog(NULL, log));
    printf("info_log_size_null_handle %d\n", nvPTXCompilerGetInfoLogSize(NULL, &size));
    printf("info_log_null_handle %d\n", nvPTXCompilerGetInfoLog(NULL, log));
    printf("destroy_null %d\n", nvPTXCompilerDestroy(NULL));
    printf("destroy_null_handle %d\n", nvPTXCompilerDestroy(&null_handle));

    printf("create %d\n", nvPTXCompilerCreate(&h, len, ptx));
    printf("size_before_compile %d\n", nvPTXCompilerGetCompiledProgramSize(h, &size));
    printf("program_before_compile %d\n", nvPTXCompilerGetCompiledProgram(h, log));
    size = 0;
    r = nvPTXCompilerGetErrorLogSize(h, &size);
    printf("error_log_size_before_compile %d %zu\n", r, size);
    printf("size_null_out %d\n", nvPTXCompilerGetErrorLogSize(h, NULL));
    printf("compile_negative_count %d\n", nvPTXCompilerCompile(h, -1, good));
    printf("compile_null_options %d\n", nvPTXCompilerCompile(h, 1, NULL));
    printf("compile_null_option %d\n", nvPTXCompilerCompile(h, 2, null_option));
    printf("compile_bad_option %d\n", nvPTXCompilerCompile(h, 2, bad_option));
    printf("size_after_failure %d\n", nvPTXCompilerGetCompiledProgramSize(h, &size));
    printf("compile_no_gpu_name %d\n", nvPTXCompilerCompile(h, 0, NULL));
    printf("compile %d\n", nvPTXCompilerCompile(h, 1, good));
    printf("size_after_compile %d\n", nvPTXCompilerGetCompiledProgramSize(h, &size));
    printf("program_null_out %d\n", nvPTXCompilerGetCompiledProgram(h, NULL));
    int calls = 0;
    printf("flow_callback_null %d\n", nvPTXCompilerSetFlowCallback(h, NULL, &calls));
    printf("flow_callback %d\n", nvPTXCompilerSetFlowCallback(h, cancel_always, &calls));
    r = nvPTXCompilerCompile(h, 1, good);
    printf("compile_cancelled %d %d\n", r, calls);
    printf("size_after_cancel %d\n", nvPTXCompilerGetCompiledProgramSize(h, &size));
    r = nvPTXCompilerDestroy(&h);
    printf("destroy %d %s\n", r, h == NULL ? "null" : "set");
    free(ptx);
    return 0;
}

struct job {
    const char *ptx;
    size_t len;
    int n;
    const char *const *opts;
    unsigned char *image;
    size_t size;
    nvPTXCompileResult result;
};

static void *run_job(void *arg) {
    struct job *j = arg;
    nvPTXCompilerHandle h = NULL;
    j->result = nvPTXCompilerCreate(&h, j->len, j->ptx);
    if (j->result != NVPTXCOMPILE_SUCCESS) return NULL;
    j->result = nvPTXCompilerCompile(h, j->n, j->opts);
    if (j->result == NVPTXCOMPILE_SUCCESS) j->image = get_program(h, &j->size, &j->result);
    nvPTXCompilerDestroy(&h);
    return NULL;
}

static int cmd_threads(const char *ptx_path, int threads, const char *out, int n, const char *const *opts) {
    size_t len;
    char *ptx = read_file(ptx_path, &len);
    struct job *jobs = calloc((size_t)threads, sizeof *jobs);
    pthread_t *ids = calloc((size_t)threads, sizeof *ids);
    for (int i = 0; i < threads; i++) {
        jobs[i] = (struct job){ptx, len, n, opts, NULL, 0, NVPTXCOMPILE_SUCCESS};
        if (pthread_create(&ids[i], NULL, run_job, &jobs[i]) != 0) return 2;
    }
    for (int i = 0; i < threads; i++) pthread_join(ids[i], NULL);
    for (int i = 0; i < threads; i++) {
        if (jobs[i].result != NVPTXCOMPILE_SUCCESS || !jobs[i].image || jobs[i].size != jobs[0].size ||
            memcmp(jobs[i].image, jobs[0].image, jobs[0].size) != 0) {
            printf("differ %d (result %d)\n", i, jobs[i].result);
            return 0;
        }
    }
    write_file(out, "cubin", jobs[0].image, jobs[0].size);
    printf("identical %d\n", threads);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 4 && strcmp(argv[1], "compile") == 0)
        return cmd_compile(argv[2], argv[3], argc - 4, (const char *const *)argv + 4);
    if (argc == 3 && strcmp(argv[1], "codes") == 0) return cmd_codes(argv[2]);
    if (argc >= 5 && strcmp(argv[1], "threads") == 0)
        return cmd_threads(argv[2], atoi(argv[3]), argv[4], argc - 5, (const char *const *)argv + 5);
    fprintf(stderr, "usage: driver compile|codes|threads ...\n");
    return 2;
}
