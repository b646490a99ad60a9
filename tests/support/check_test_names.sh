#!/bin/sh
# ctest runs each doctest case by name; CMake splits a name at ';', and the pieces match no
# case, so such a test runs zero checks and still passes. Refuse those names.
bad=$(grep -rnE 'TEST_CASE\("[^"]*;' "$1" --include='*.cpp' --include='*.h')
if [ -n "$bad" ]; then
  echo "TEST_CASE names must not contain ';' (ctest would run none of their checks):" >&2
  echo "$bad" >&2
  exit 1
fi
