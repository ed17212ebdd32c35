/* Helpers shared by the API-level tests. */
#ifndef OACL_TEST_SUPPORT_H
#define OACL_TEST_SUPPORT_H
#endif
