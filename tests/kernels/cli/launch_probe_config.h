/* Next to launch_probe.cpp, included with "". */
#define LAUNCH_PROBE_EXTRA 40
