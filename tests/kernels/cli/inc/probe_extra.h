/* Found only through -I (probe.c includes it with <>). */
#define PROBE_VALUE 99
