#include "simple_zero_copy.h"
#include "utils.h"

int main()
{
    INFO_LOG("Start to run simple_zero_copy sample.");
    if (RunSimpleZeroCopy() != 0) {
        ERROR_LOG("Run the simple_zero_copy sample failed.");
        return 1;
    }
    INFO_LOG("Run the simple_zero_copy sample successfully.");
    return 0;
}
