// Next to probe.cpp, included with "".
#define PROBE_CONFIG_VALUE 4242
