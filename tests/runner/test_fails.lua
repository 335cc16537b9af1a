-- tests/runner/test_fails.lua
-- A Lua unit test that always fails: the runner's self-test copies it into
-- a tiny tree's tests/lua/ and checks that tools/run-tests counts it.
assert(1 + 1 == 3, "the self-test's Lua unit test fails on purpose")
