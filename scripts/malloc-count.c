/*
 * malloc-count.so: counts heap allocations so `meridian-bench gestures` can report how many
 * allocations its frames make. Preload it into the release bench binary:
 *
 *   scripts/count-gesture-allocs.sh
 *
 * It forwards to glibc's own entry points (__libc_malloc …), so it needs no dlsym and cannot
 * recurse. The bench finds `meridian_malloc_count` with dlsym(RTLD_DEFAULT) when preloaded.
 */
#include <stddef.h>
#include <stdint.h>
#include <errno.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static uint64_t count;

uint64_t meridian_malloc_count(void) { return __atomic_load_n(&count, __ATOMIC_RELAXED); }

static void counted(void) { __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED); }

void *malloc(size_t n) { counted(); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { counted(); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { counted(); return __libc_realloc(p, n); }
void *memalign(size_t a, size_t n) { counted(); return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { counted(); return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
    counted();
    void *p = __libc_memalign(a, n);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}
