#ifndef SIMPLE_ZERO_COPY_H
#define SIMPLE_ZERO_COPY_H

// Runs the whole sample: 0 on success, -1 on any failure (cleanup included).
int RunSimpleZeroCopy();

#endif // SIMPLE_ZERO_COPY_H
