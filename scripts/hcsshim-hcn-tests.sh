#!/bin/bash
# Microsoft's HCN integration tests (microsoft/hcsshim, package hcn) against
# the emulator DLLs under Wine, each test alone on a fresh emulated node.
# hcsshim's source cannot be copied into this project, so this runs locally
# on a checkout you provide (v0.11.4 builds offline with its vendor tree):
#
#   scripts/hcsshim-hcn-tests.sh /path/to/hcsshim [TEST-NAME-REGEX]
#
# Needs the Windows build (scripts/build.sh) and Debian's golang-go.
# Prints PASS/FAIL per test, the totals, and leaves each test's output in
# $WINCNI_HCN_RESULTS (default build/windows/hcsshim-hcn-results).
set -euo pipefail
source_dir=${1:?usage: scripts/hcsshim-hcn-tests.sh HCSSHIM-SOURCE [TEST-NAME-REGEX]}
pattern=${2:-.*}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/wine-env.sh >/dev/null
results=${WINCNI_HCN_RESULTS:-$root/build/windows/hcsshim-hcn-results}
rm -rf "$results"
mkdir -p "$results"
test_exe=$results/hcn.test.exe
(cd "$source_dir" && GOOS=windows GOARCH=amd64 GOFLAGS=-mod=vendor go test -c -tags integration -o "$test_exe" ./hcn)
dlls=(--install build/windows/hns-emulator/dll/computenetwork.dll --install build/windows/hns-emulator/dll/vmcompute.dll)
passed=0
failed=0
while read -r name; do
  [[ $name =~ ^Test ]] || continue
  node=$(mktemp -d)
  status=0
  WINCNI_EMULATOR_DIR=$node timeout 120 python3 tests/windows/hns/run_in_prefix.py "${dlls[@]}" -- \
    "$test_exe" -test.run "^${name}\$" -test.v >"$results/$name.log" 2>&1 || status=$?
  rm -rf "$node"
  if [[ $status -eq 0 ]] && grep -q "^--- PASS" "$results/$name.log"; then
    passed=$((passed + 1))
    echo "PASS $name"
  else
    failed=$((failed + 1))
    echo "FAIL $name (exit $status; $results/$name.log)"
  fi
done < <(python3 tests/windows/hns/run_in_prefix.py "${dlls[@]}" -- "$test_exe" -test.list "$pattern" | tr -d '\r')
echo "hcsshim HCN tests: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
