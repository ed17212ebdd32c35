/*
 * The CANN code of a kernel fault (reliability chapter §2.8, Decision 1).
 * Every fault path of the CPU device (signals, traps, rule breaks, the
 * watchdog, the memory checker) gets its code here and nowhere else.
 */
#include "acl/acl.h"
#include "device/cpu/fault.h"

int oacl_fault_code(enum oacl_fault_class cls, bool is_aiv, bool memcheck)
{
    switch (cls) {
    case OACL_FAULT_CLASS_TIMEOUT:
        return is_aiv ? ACL_ERROR_RT_VECTOR_CORE_TIMEOUT : ACL_ERROR_RT_AICORE_TIMEOUT;
    case OACL_FAULT_CLASS_OOB_READ:
        if (memcheck)
            return is_aiv ? ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW : ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW;
        break;
    case OACL_FAULT_CLASS_OOB_WRITE:
        if (memcheck)
            return is_aiv ? ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW : ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW;
        break;
    case OACL_FAULT_CLASS_EXCEPTION:
        break;
    }
    /* Without the bounds-check mode an out-of-range access is what a device
       without instrumentation reports: the plain exception. */
    return is_aiv ? ACL_ERROR_RT_VECTOR_CORE_EXCEPTION : ACL_ERROR_RT_AICORE_EXCEPTION;
}
