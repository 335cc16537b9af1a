/*
** testutil.h
** What every cmocka test file includes: cmocka's own headers in the order it
** needs, and small helpers shared by the unit tests.
*/
#ifndef CAIRN_TESTUTIL_H
#define CAIRN_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

/* Path of a fixture below tests/fixtures; tests run from the repo root. */
#define FIXTURE(rel) ("tests/fixtures/" rel)

#endif
