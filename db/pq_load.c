/*
 * pq_load.c - finds libpq's functions with dlopen/dlsym, once.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "pq_load.h"

#ifndef PQ_SONAME
#define PQ_SONAME "libpq.so.5"   /* configure finds the real one */
#endif

struct pq_api pq_api;

/* POSIX's way to take a function from dlsym (ISO C has none). */
static int find(void *lib, const char *name, void *fn, size_t size)
{
	void *sym = dlsym(lib, name);

	if (!sym)
		return -1;
	memcpy(fn, &sym, size);
	return 0;
}

int pq_load(char *why, size_t cap)
{
	static int state;              /* 0 not tried, 1 loaded, -1 failed */
	static char failure[256];

	if (state == 0) {
		void *lib = dlopen(PQ_SONAME, RTLD_NOW | RTLD_LOCAL);
		const char *missing = NULL;
#define PQ_FIND(name) \
		if (lib && !missing && find(lib, #name, &pq_api.name, \
		                            sizeof pq_api.name)) \
			missing = #name;
		PQ_FUNCTIONS(PQ_FIND)
#undef PQ_FIND
		state = lib && !missing ? 1 : -1;
		if (!lib)
			snprintf(failure, sizeof failure, "cannot load %s, the "
			         "PostgreSQL client library (install libpq5): "
			         "%s", PQ_SONAME, dlerror());
		else if (missing)
			snprintf(failure, sizeof failure, "%s has no %s: a "
			         "newer libpq5 is needed", PQ_SONAME, missing);
	}
	if (state < 0)
		snprintf(why, cap, "%s", failure);
	return state > 0 ? 0 : -1;
}
