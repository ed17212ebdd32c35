// Found through ascendc_include_directories(fatbin_other ...).
#define OTHER_VALUE 77
